import { useCallback, useState } from 'react';
import { NEAR_VIEWPORT_MARGIN } from './near-viewport';

/**
 * Whether the element has come near the viewport (it stays true). It starts false even where the
 * answer is known, so the first render matches the server's markup. Without IntersectionObserver
 * (old browsers, jsdom) it turns true at once, so nothing is left unloaded.
 */
export function useNearViewport(enabled: boolean): [ref: (element: Element | null) => void, near: boolean] {
  const [near, setNear] = useState(!enabled);
  const ref = useCallback(
    (element: Element | null) => {
      if (near || !element) return undefined;
      if (typeof IntersectionObserver === 'undefined') {
        setNear(true);
        return undefined;
      }
      const observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting)) {
            observer.disconnect();
            setNear(true);
          }
        },
        { rootMargin: NEAR_VIEWPORT_MARGIN },
      );
      observer.observe(element);
      return () => observer.disconnect();
    },
    [near],
  );
  return [ref, near];
}
