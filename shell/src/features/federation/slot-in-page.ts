/**
 * Whether the page shows `remote/Module` already: its wrapper is in the document (the server
 * rendered it, or it loaded before). False where there is no document (a server render).
 */
export function slotInPage(moduleId: string): boolean {
  return typeof document !== 'undefined' && document.querySelector(`[data-remote-module="${CSS.escape(moduleId)}"]`) !== null;
}
