import { useEffect } from 'react';

export const LEAVE_WARNING = 'Є незбережені зміни. Піти зі сторінки без них?';

/**
 * While `when` holds, leaving the page asks first: closing or reloading the tab (the browser's own
 * question) and following a link inside the console (ours, before the router sees the click).
 */
export function useLeaveWarning(when: boolean, message = LEAVE_WARNING): void {
  useEffect(() => {
    if (!when) return;
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the question only when returnValue is set.
      event.returnValue = '';
    };
    const onClick = (event: MouseEvent) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!link || link.getAttribute('target') === '_blank' || link.hasAttribute('download')) return;
      if (!window.confirm(message)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    window.addEventListener('beforeunload', beforeUnload);
    // Capturing on the document runs before React's handlers on its root, so a refused click never navigates.
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [when, message]);
}
