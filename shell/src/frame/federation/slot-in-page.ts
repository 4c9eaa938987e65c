/**
 * The wrapper of `remote/Module` in the document when the page shows it already (the server
 * rendered it, or it loaded before); null where there is no document (a server render).
 */
export function slotElementInPage(moduleId: string): Element | null {
  if (typeof document === 'undefined') return null;
  return document.querySelector(`[data-remote-module="${CSS.escape(moduleId)}"]`);
}

/** Whether the page shows `remote/Module` already (see slotElementInPage). */
export function slotInPage(moduleId: string): boolean {
  return slotElementInPage(moduleId) !== null;
}
