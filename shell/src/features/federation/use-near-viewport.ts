import { useCallback, useState } from 'react';

/** How far ahead of the viewport a slot starts loading: about a screen of scrolling. */
const AHEAD = '800px 0px';

/**
 * Whether the element has come near the viewport (it stays true). Without IntersectionObserver
 * (old browsers, jsdom) everything counts as near, so nothing is left unloaded.
 */
export function useNearViewport(enabled: boolean): [ref: (element: Element | null) => void, near: boolean] {
  const [near, setNear] = useState(!enabled || typeof IntersectionObserver === 'undefined');
  const ref = useCallback(
    (element: Element | null) => {
      if (near || !element) return undefined;
      const observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting)) {
            observer.disconnect();
            setNear(true);
          }
        },
        { rootMargin: AHEAD },
      );
      observer.observe(element);
      return () => observer.disconnect();
    },
    [near],
  );
  return [ref, near];
}
