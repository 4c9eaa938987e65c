import { remoteOfModule, TELEMETRY_LIMITS, TELEMETRY_SAMPLE_META, type BrowserErrorKind, type VitalName } from '@agency/shared';
import { pagePattern } from '../navigation/page-routes';
import { earlyVitals, startEarlyVitals } from './early-vitals';
import { startViewAnalytics, trackingRefused, type ViewAnalytics } from './page-analytics';
import { continuationReports, pageReleases, pageViewReport, sendBeacon, sendVisitOnce } from './telemetry-beacon';

/**
 * The part of release telemetry every page loads. It catches errors and page views from the
 * start and holds them for the reporter (telemetry-reporter.ts, with web-vitals), which loads
 * only once the page has loaded and then the visitor first acts on it (a tap, a key, a scroll), an
 * error happens or the page is hidden, in an idle moment: a page nobody touches loads none of it.
 * A page hidden before the reporter is there sends its page views itself, with the vitals it knows
 * by then (early-vitals.ts): the page may never come back.
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
  /** Already sent by the page itself (it was hidden before the reporter loaded). */
  sent?: boolean;
  /** The dashboard's counting of it; none when the browser refuses tracking. */
  analytics?: ViewAnalytics;
}

export interface TelemetrySink {
  error(captured: CapturedError): void;
  pageView(view: CapturedPageView): void;
}

/** What the page holds at most until the reporter is loaded. */
const MAX_HELD = 50;
/** The longest wait for an idle moment once the reporter is wanted. */
const IDLE_TIMEOUT_MS = 3000;
/** The visitor's first acts on the page (web-vitals attaches late and still sees the first input). */
const FIRST_INPUT_EVENTS = ['pointerdown', 'keydown', 'touchstart', 'wheel', 'scroll'] as const;

let enabled = false;
/**
 * Page views are reported: in release health's sample (`enabled`), or outside it for the
 * dashboard alone (`sampled: false`), unless the browser refuses tracking.
 */
let counting = false;
let sink: TelemetrySink | undefined;
let pageLoaded = false;
let wanted = false;
let loading = false;
const held: ({ view: CapturedPageView } | { error: CapturedError })[] = [];
/** Vitals the page sent itself: the reporter, if it loads later, does not send them again. */
let vitalsSent: VitalName[] = [];

function hold(item: (typeof held)[number]): void {
  if (held.length < MAX_HELD) held.push(item);
}

const currentPage = () => pagePattern(window.location.pathname);

/** Reports an error that a slot's boundary or the remote loader caught. */
export function reportError(kind: BrowserErrorKind, error: unknown, remote?: string): void {
  if (!enabled) return;
  const captured = { kind, error, remote, page: currentPage() };
  if (sink) {
    sink.error(captured);
    return;
  }
  hold({ error: captured });
  wantReporter();
}

/** Reports a page view of the page now shown; a prerendered page's once the visitor sees it. */
export function reportPageView(): void {
  if (!counting) return;
  if ((document as Document & { prerendering?: boolean }).prerendering) {
    document.addEventListener('prerenderingchange', reportPageView, { once: true });
    return;
  }
  const remotes = new Set<string>();
  for (const slot of document.querySelectorAll('[data-remote-module],[data-remote-pending]')) {
    const id = slot.getAttribute('data-remote-module') ?? slot.getAttribute('data-remote-pending') ?? '';
    remotes.add(remoteOfModule(id));
  }
  const page = currentPage();
  const onPage = [...remotes].filter(Boolean);
  const view: CapturedPageView = { page, remotes: onPage, analytics: startViewAnalytics(window.location.pathname, page, onPage) };
  if (sink) sink.pageView(view);
  else hold({ view });
}

/**
 * The page is hidden or left before the reporter is there: its page views go out now, with the
 * vitals of the page it landed on known so far; errors wait for the reporter.
 */
function sendHeldPageViews(): void {
  if (sink) return;
  const views = held.flatMap((item) => ('view' in item && !item.view.sent ? [item.view] : []));
  const reports = [...views.map((view) => pageViewReport(view, enabled)), ...continuationReports(enabled)];
  if (reports.length === 0) return;
  const landing = held.find((item): item is { view: CapturedPageView } => 'view' in item)?.view;
  const vitals =
    enabled && landing && vitalsSent.length === 0
      ? earlyVitals().map(({ name, value }) => ({ name, value: Math.min(value, TELEMETRY_LIMITS.vitalValue), page: landing.page, releases: pageReleases(landing.remotes) }))
      : [];
  vitalsSent = vitals.map((vital) => vital.name);
  for (const view of views) view.sent = true;
  // Outside the sample no reporter comes for what is held: what is sent goes.
  if (!enabled) held.length = 0;
  for (let start = 0; start < reports.length; start += TELEMETRY_LIMITS.pageViews) {
    sendBeacon({ page_views: reports.slice(start, start + TELEMETRY_LIMITS.pageViews), ...(start === 0 && vitals.length > 0 ? { vitals } : {}) });
  }
}

function wantReporter(): void {
  wanted = true;
  if (!enabled || !pageLoaded || loading) return;
  loading = true;
  new Promise<void>((resolve) => {
    if ('requestIdleCallback' in window) window.requestIdleCallback(() => resolve(), { timeout: IDLE_TIMEOUT_MS });
    else setTimeout(resolve, 0);
  })
    .then(() => import(/* webpackChunkName: "telemetry" */ './telemetry-reporter'))
    .then(({ createReporter }) => {
      sink = createReporter(vitalsSent);
      for (const item of held.splice(0)) {
        if ('view' in item) sink.pageView(item.view);
        else sink.error(item.error);
      }
    })
    // A reporter that cannot load (blocked, offline) leaves the page as it is: errors are dropped,
    // page views still go to the dashboard as the page is hidden.
    .catch(() => {
      enabled = false;
      const views = held.filter((item) => 'view' in item);
      held.splice(0, held.length, ...views);
    });
}

/** The share of page loads the server asks to report (its meta tag); none without one (the dev server). */
function sampleRate(): number {
  const value = Number(document.querySelector(`meta[name="${TELEMETRY_SAMPLE_META}"]`)?.getAttribute('content'));
  return Number.isFinite(value) ? value : 0;
}

/**
 * Starts telemetry for this page load when it is in the sample: catches uncaught errors and
 * unhandled rejections from now on, and waits for the moment to load the reporter. A page load
 * outside the sample only makes sure its session's visit is counted (its page views would carry it).
 */
export function startTelemetry(): void {
  if (counting) return;
  const rate = sampleRate();
  if (rate <= 0) return;
  if (Math.random() >= rate) {
    if (trackingRefused()) {
      document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && sendVisitOnce());
      window.addEventListener('pagehide', sendVisitOnce);
      return;
    }
    // The dashboard counts every page view: those of this load are sent as it is hidden.
    counting = true;
    document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && sendHeldPageViews());
    window.addEventListener('pagehide', sendHeldPageViews);
    return;
  }
  enabled = true;
  counting = true;
  startEarlyVitals();
  window.addEventListener('error', (event) => {
    // Without an error object (a cross-origin script's "Script error.") there is nothing to report.
    if (event.error !== undefined && event.error !== null) reportError('uncaught', event.error);
  });
  window.addEventListener('unhandledrejection', (event) => reportError('rejection', event.reason));

  // This script runs once the first paint is on screen: a visitor may have scrolled before it
  // listens, and may not scroll again (the page's sections no longer move under them).
  if (window.scrollX !== 0 || window.scrollY !== 0) wantReporter();
  const firstInput = new AbortController();
  for (const type of FIRST_INPUT_EVENTS) {
    window.addEventListener(
      type,
      () => {
        firstInput.abort();
        wantReporter();
      },
      { capture: true, passive: true, signal: firstInput.signal },
    );
  }
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'hidden') return;
    sendHeldPageViews();
    wantReporter();
  });
  window.addEventListener('pagehide', sendHeldPageViews);

  const onLoad = () => {
    pageLoaded = true;
    if (wanted) wantReporter();
  };
  if (document.readyState === 'complete') onLoad();
  else window.addEventListener('load', onLoad, { once: true });
}
