/** Longest wait: a tab hidden meanwhile paints nothing until it is shown again. */
const MAX_WAIT_MS = 1000;

/**
 * Resolves once the page's first content is on screen: when the browser reports its first
 * contentful paint (at once if it already has, or in a hidden tab, which paints nothing), and
 * after a second at most. Where the browser reports no paint timing, two animation frames on.
 */
export function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (document.visibilityState === 'hidden') {
      resolve();
      return;
    }
    setTimeout(resolve, MAX_WAIT_MS);
    if (typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes('paint')) {
      requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)));
      return;
    }
    const observer = new PerformanceObserver((entries) => {
      if (!entries.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      resolve();
    });
    observer.observe({ type: 'paint', buffered: true });
  });
}
