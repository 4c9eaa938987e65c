import { onCLS, onFCP, onINP, onLCP, onTTFB, type MetricType } from 'web-vitals';
import {
  HOST_NAME,
  maskPersonalData,
  maskStack,
  TELEMETRY_LIMITS,
  type TelemetryBatch,
  type TelemetryError,
  type TelemetryPageView,
  type TelemetryVital,
  type VitalName,
} from '@agency/shared';
import { remotesDocumentInPage } from '../federation/remotes-config';
import { continuationReports, pageReleases, pageViewReport, remoteLocation, remoteRelease, sendBeacon, shellRelease } from './telemetry-beacon';
import type { CapturedError, CapturedPageView, TelemetrySink } from './telemetry-capture';

/** Errors wait this long for others before they are sent, so a burst goes in one beacon. */
export const ERROR_REPORT_DELAY_MS = 3000;

// Cut in the browser so that a beacon of the most errors allowed stays within the body limit.
const MESSAGE_CHARS = 300;
const STACK_CHARS = 1500;

/** Where the remote's files are served from, as an absolute URL prefix. */
function remoteBase(name: string): string | undefined {
  const entry = remoteLocation(name)?.entry;
  return entry && new URL(entry.slice(0, entry.lastIndexOf('/') + 1), window.location.href).href;
}

/**
 * The app whose script a stack's top frame is in: a remote by where its files are served, the
 * shell for the page's own origin. Undefined when no frame is the site's (a browser extension).
 */
export function appOfStack(stack: string): string | undefined {
  const names = Object.keys(remotesDocumentInPage()?.remotes ?? window.__AGENCY_RELEASES__?.remotes ?? {});
  // Looked up once per error, not once per frame and remote.
  const bases = names.flatMap((name) => {
    const base = remoteBase(name);
    return base === undefined ? [] : [{ name, base }];
  });
  for (const [, url] of stack.matchAll(/(https?:\/\/[^\s()]+?):\d+:\d+/g)) {
    const remote = bases.find(({ base }) => url!.startsWith(base));
    if (remote) return remote.name;
    if (url!.startsWith(`${window.location.origin}/`)) return HOST_NAME;
  }
  return undefined;
}

function describe(error: unknown): { message: string; stack: string } {
  if (error instanceof Error) return { message: `${error.name}: ${error.message}`, stack: error.stack ?? '' };
  return { message: String(error), stack: '' };
}

/**
 * Batches page views, Web Vitals and errors into beacons to `POST /api/telemetry`: errors at most
 * every few seconds, and everything when the page is hidden or left (vitals the page already sent,
 * `sentByPage`, excepted). Each distinct error is sent
 * with how often it happened, at most TELEMETRY_LIMITS.errorsPerPageView of them per page view.
 */
export function createReporter(sentByPage: readonly VitalName[] = []): TelemetrySink {
  const pageViews: CapturedPageView[] = [];
  const errors = new Map<string, TelemetryError>();
  const seenThisView = new Set<string>();
  const vitals = new Map<VitalName, number>();
  // Those the page sent itself, hidden before this reporter loaded, are not sent twice.
  const sentVitals = new Set<VitalName>(sentByPage);
  let landing: TelemetryPageView | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function flush(withVitals: boolean): void {
    clearTimeout(timer);
    timer = undefined;
    const vitalReports: TelemetryVital[] = [];
    if (withVitals && landing) {
      for (const [name, value] of vitals) {
        if (sentVitals.has(name)) continue;
        sentVitals.add(name);
        vitalReports.push({ name, value: Math.min(value, TELEMETRY_LIMITS.vitalValue), page: landing.page, releases: landing.releases });
      }
    }
    const errorReports = [...errors.values()];
    errors.clear();
    const viewReports = pageViews.splice(0).map((view) => pageViewReport(view));
    // Hidden or left: pages sent before report the time they have been read since (and forms).
    if (withVitals) viewReports.push(...continuationReports());
    // More page views or errors than one beacon takes (each page view allows its own errors) go
    // in further beacons: this may be the page's last moment.
    for (let first = true; first || viewReports.length > 0 || errorReports.length > 0; first = false) {
      const batch: TelemetryBatch = {};
      if (viewReports.length > 0) batch.page_views = viewReports.splice(0, TELEMETRY_LIMITS.pageViews);
      if (first && vitalReports.length > 0) batch.vitals = vitalReports;
      if (errorReports.length > 0) batch.errors = errorReports.splice(0, TELEMETRY_LIMITS.errors);
      if (Object.keys(batch).length > 0) sendBeacon(batch);
    }
  }

  const onMetric = (metric: MetricType) => vitals.set(metric.name, metric.value);
  for (const observe of [onLCP, onINP, onCLS, onFCP, onTTFB]) observe(onMetric, { reportAllChanges: true });
  // Hidden is the last moment a page is sure to run (a closed tab, a switched app on a phone).
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush(true);
  });
  window.addEventListener('pagehide', () => flush(true));

  return {
    pageView(view: CapturedPageView) {
      landing ??= { page: view.page, releases: pageReleases(view.remotes) };
      if (!view.sent) pageViews.push(view);
      seenThisView.clear();
    },
    error({ kind, error, remote, page }: CapturedError) {
      const { message, stack } = describe(error);
      const app = remote ?? (stack ? appOfStack(stack) : HOST_NAME);
      if (!app) return;
      const release = app === HOST_NAME ? shellRelease() : remoteRelease(app);
      const maskedStack = maskStack(stack).slice(0, STACK_CHARS);
      const report: TelemetryError = { kind, app, release, page, message: maskPersonalData(message).slice(0, MESSAGE_CHARS), stack: maskedStack, count: 1 };
      const key = `${kind}\n${app}\n${release}\n${report.message}\n${maskedStack.split('\n', 3).join('\n')}`;
      const pending = errors.get(key);
      if (pending) {
        pending.count = Math.min(pending.count + 1, TELEMETRY_LIMITS.errorCount);
        return;
      }
      if (!seenThisView.has(key) && seenThisView.size >= TELEMETRY_LIMITS.errorsPerPageView) return;
      seenThisView.add(key);
      errors.set(key, report);
      timer ??= setTimeout(() => flush(false), ERROR_REPORT_DELAY_MS);
    },
  };
}
