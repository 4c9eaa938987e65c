/** How far ahead of the viewport a slot starts loading: about a screen of scrolling. */
export const NEAR_VIEWPORT_MARGIN = '800px 0px';

/** The waits not over yet, each ended by calling it. */
const waiting = new Set<() => void>();

/**
 * Resolves once `element` comes near the viewport (within NEAR_VIEWPORT_MARGIN), or when
 * stopWaitingForViewport ends every wait. Without IntersectionObserver (old browsers, jsdom) it
 * resolves at once, so nothing is left unloaded.
 */
export function whenNearViewport(element: Element): Promise<void> {
  if (typeof IntersectionObserver === 'undefined') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      observer.disconnect();
      waiting.delete(done);
      resolve();
    };
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && done(), { rootMargin: NEAR_VIEWPORT_MARGIN });
    observer.observe(element);
    waiting.add(done);
  });
}

/**
 * Ends every wait of whenNearViewport now. A navigation that keeps the page (a link to a section
 * or with a query) changes what every server-sent section reads from the router, and React
 * completes it only once each of them is hydrated: their code is loaded now, not when the visitor
 * nears them, or the navigation would wait for a scroll.
 */
export function stopWaitingForViewport(): void {
  for (const done of [...waiting]) done();
}
