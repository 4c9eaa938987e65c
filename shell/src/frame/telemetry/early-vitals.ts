import type { VitalName } from '@agency/shared';

/**
 * The Web Vitals a page can tell before the reporter (and web-vitals) has loaded, for a page left
 * before that: the reporter loads only once the visitor acts, in an idle moment, and a visitor who
 * scrolls through and leaves can be gone first. LCP and CLS are observed from the start (the
 * browser keeps no LCP or layout shift for a late observer beyond its buffer); FCP and TTFB are
 * read from the page's timing when asked. As web-vitals counts them: only what happened while the
 * page was visible, LCP until the visitor's first tap or key, CLS as its largest session window.
 */

/** A layout-shift entry (not in TypeScript's DOM types). */
interface LayoutShift extends PerformanceEntry {
  value: number;
  hadRecentInput: boolean;
}

/** CLS's session window: shifts less than 1 s apart, at most 5 s long. */
const SESSION_GAP_MS = 1000;
const SESSION_MAX_MS = 5000;

let lcp: number | undefined;
let lcpFinal = false;
let hiddenAt = Number.POSITIVE_INFINITY;
let cls = 0;
let session = { value: 0, first: 0, last: 0 };

function observe(type: string, onEntries: (entries: PerformanceEntryList) => void): void {
  try {
    if (!PerformanceObserver.supportedEntryTypes?.includes(type)) return;
    new PerformanceObserver((list) => onEntries(list.getEntries())).observe({ type, buffered: true });
  } catch {
    // An old browser: the reporter measures alone.
  }
}

function onLayoutShifts(entries: PerformanceEntryList): void {
  for (const entry of entries as LayoutShift[]) {
    if (entry.hadRecentInput || entry.startTime >= hiddenAt) continue;
    const sameSession = session.value > 0 && entry.startTime - session.last < SESSION_GAP_MS && entry.startTime - session.first < SESSION_MAX_MS;
    session = sameSession ? { ...session, value: session.value + entry.value, last: entry.startTime } : { value: entry.value, first: entry.startTime, last: entry.startTime };
    cls = Math.max(cls, session.value);
  }
}

/** Starts observing; call once, as early as the page's script runs. */
export function startEarlyVitals(): void {
  if (typeof PerformanceObserver === 'undefined') return;
  if (document.visibilityState === 'hidden') hiddenAt = 0;
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') hiddenAt = Math.min(hiddenAt, performance.now());
  });
  // After a tap or a key the largest paint no longer changes (the browser stops reporting it).
  for (const type of ['keydown', 'pointerdown'] as const) {
    window.addEventListener(type, () => (lcpFinal = true), { capture: true, once: true, passive: true });
  }
  observe('largest-contentful-paint', (entries) => {
    for (const entry of entries) if (!lcpFinal && entry.startTime < hiddenAt) lcp = entry.startTime;
  });
  observe('layout-shift', onLayoutShifts);
}

/** What is known now, in milliseconds (CLS as its score). */
export function earlyVitals(): { name: VitalName; value: number }[] {
  const vitals: { name: VitalName; value: number }[] = [];
  if (typeof performance === 'undefined' || typeof performance.getEntriesByType !== 'function') return vitals;
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
  if (lcp !== undefined) vitals.push({ name: 'LCP', value: lcp });
  if (fcp !== undefined && fcp < hiddenAt) vitals.push({ name: 'FCP', value: fcp });
  if (navigation && navigation.responseStart > 0) vitals.push({ name: 'TTFB', value: navigation.responseStart });
  if (typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes?.includes('layout-shift')) vitals.push({ name: 'CLS', value: cls });
  return vitals;
}
