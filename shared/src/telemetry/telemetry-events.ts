/**
 * What browsers report about each app's release (`POST /api/telemetry`), as plain values a
 * browser bundle may import. The request's schema is in ../contracts/telemetry.ts.
 */

/** Where the shell sends its beacons. */
export const TELEMETRY_PATH = '/api/telemetry';

/** The Web Vitals reported for each page view, as Google's web-vitals library names them. */
export const VITAL_NAMES = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'] as const;
export type VitalName = (typeof VITAL_NAMES)[number];

/**
 * What went wrong in a visitor's browser:
 * - `uncaught`: an error no code caught; `rejection`: a promise rejection nothing handled;
 * - `boundary`: a remote's component threw while rendering, and its slot shows its fallback;
 * - `load_failure`: a remote's manifest, entry or chunk did not load, even after retries;
 * - `load_retry`: one such load failed and was tried again.
 */
export const BROWSER_ERROR_KINDS = ['uncaught', 'rejection', 'boundary', 'load_failure', 'load_retry'] as const;
export type BrowserErrorKind = (typeof BROWSER_ERROR_KINDS)[number];

/** Kinds that are failures to load code, counted apart from errors in the page. */
export const LOAD_ERROR_KINDS: readonly BrowserErrorKind[] = ['load_failure', 'load_retry'];

/** The route pattern (`/blog/:postId`) telemetry reports for a page that matches no route. */
export const UNKNOWN_PAGE = '*';

/** The page's meta tag that says which share of page loads report telemetry (0 turns it off). */
export const TELEMETRY_SAMPLE_META = 'agency-telemetry-sample';
