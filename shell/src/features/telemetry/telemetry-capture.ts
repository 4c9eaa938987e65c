import { TELEMETRY_SAMPLE_META, type BrowserErrorKind } from '@agency/shared';
import { pagePattern } from '../navigation/page-routes';

/**
 * The part of release telemetry every page loads: it catches errors and page views from the
 * start, and holds them until the reporter (telemetry-reporter.ts, with web-vitals) is loaded,
 * once the page has loaded and the main thread is idle, so it costs the first load nothing.
 */

/** An error as caught: the reporter tells which app release it belongs to. */
export interface CapturedError {
  kind: BrowserErrorKind;
  error: unknown;
  /** The remote it happened in, when the catcher knows (a slot's boundary, a remote's load). */
  remote?: string;
  page: string;
}

/** A page view: the route pattern, and the remotes whose slots are on the page. */
export interface CapturedPageView {
  page: string;
  remotes: string[];
}

export interface TelemetrySink {
  error(captured: CapturedError): void;
  pageView(view: CapturedPageView): void;
}

/** What the page holds at most until the reporter is loaded. */
const MAX_HELD = 50;
/** The longest wait for an idle moment after the load event. */
const IDLE_TIMEOUT_MS = 3000;

let enabled = false;
let sink: TelemetrySink | undefined;
const held: ((sink: TelemetrySink) => void)[] = [];

function deliver(call: (sink: TelemetrySink) => void): void {
  if (!enabled) return;
  if (sink) call(sink);
  else if (held.length < MAX_HELD) held.push(call);
}

const currentPage = () => pagePattern(window.location.pathname);

/** Reports an error that a slot's boundary or the remote loader caught. */
export function reportError(kind: BrowserErrorKind, error: unknown, remote?: string): void {
  const page = currentPage();
  deliver((target) => target.error({ kind, error, remote, page }));
}

/** Reports a page view of the page now shown. */
export function reportPageView(): void {
  if (!enabled) return;
  const remotes = new Set<string>();
  for (const slot of document.querySelectorAll('[data-remote-module],[data-remote-pending]')) {
    const id = slot.getAttribute('data-remote-module') ?? slot.getAttribute('data-remote-pending') ?? '';
    remotes.add(id.slice(0, id.indexOf('/')));
  }
  const view = { page: currentPage(), remotes: [...remotes].filter(Boolean) };
  deliver((target) => target.pageView(view));
}

/** The share of page loads the server asks to report (its meta tag); none without one (the dev server). */
function sampleRate(): number {
  const value = Number(document.querySelector(`meta[name="${TELEMETRY_SAMPLE_META}"]`)?.getAttribute('content'));
  return Number.isFinite(value) ? value : 0;
}

function afterLoadWhenIdle(): Promise<void> {
  const loaded = document.readyState === 'complete' ? Promise.resolve() : new Promise((resolve) => window.addEventListener('load', resolve, { once: true }));
  return loaded.then(
    () =>
      new Promise<void>((resolve) => {
        if ('requestIdleCallback' in window) window.requestIdleCallback(() => resolve(), { timeout: IDLE_TIMEOUT_MS });
        else setTimeout(resolve, 0);
      }),
  );
}

/**
 * Starts telemetry for this page load when it is in the sample: catches uncaught errors and
 * unhandled rejections from now on, and loads the reporter once the page is loaded and idle.
 */
export function startTelemetry(): void {
  if (enabled || Math.random() >= sampleRate()) return;
  enabled = true;
  window.addEventListener('error', (event) => {
    // Without an error object (a cross-origin script's "Script error.") there is nothing to report.
    if (event.error !== undefined && event.error !== null) reportError('uncaught', event.error);
  });
  window.addEventListener('unhandledrejection', (event) => reportError('rejection', event.reason));
  void afterLoadWhenIdle()
    .then(() => import(/* webpackChunkName: "telemetry" */ './telemetry-reporter'))
    .then(({ createReporter }) => {
      sink = createReporter();
      for (const call of held.splice(0)) call(sink);
    })
    // A reporter that cannot load (blocked, offline) leaves the page as it is.
    .catch(() => {
      enabled = false;
      held.length = 0;
    });
}
