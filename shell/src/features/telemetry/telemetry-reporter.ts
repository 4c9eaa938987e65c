import { onCLS, onFCP, onINP, onLCP, onTTFB, type MetricType } from 'web-vitals';
import {
  HOST_NAME,
  maskPersonalData,
  maskStack,
  TELEMETRY_LIMITS,
  TELEMETRY_PATH,
  type RemoteName,
  type TelemetryBatch,
  type TelemetryError,
  type TelemetryPageView,
  type TelemetryVital,
  type VitalName,
} from '@agency/shared';
import { registeredRemote, remotesDocumentInPage } from '../federation/remotes-config';
import type { CapturedError, CapturedPageView, TelemetrySink } from './telemetry-capture';

/** Errors wait this long for others before they are sent, so a burst goes in one beacon. */
export const ERROR_REPORT_DELAY_MS = 3000;

// Cut in the browser so that a beacon of the most errors allowed stays within the body limit.
const MESSAGE_CHARS = 300;
const STACK_CHARS = 1500;

const UNKNOWN_RELEASE = 'unknown';

function shellRelease(): string {
  return window.__AGENCY_RELEASES__?.shell ?? remotesDocumentInPage()?.shell.release ?? UNKNOWN_RELEASE;
}

function remoteRelease(name: string): string {
  return registeredRemote(name as RemoteName)?.release ?? remotesDocumentInPage()?.remotes[name as RemoteName]?.release ?? UNKNOWN_RELEASE;
}

/** Where the remote's files are served from, as an absolute URL prefix. */
function remoteBase(name: string): string | undefined {
  const entry = registeredRemote(name as RemoteName)?.entry ?? remotesDocumentInPage()?.remotes[name as RemoteName]?.entry;
  return entry && new URL(entry.slice(0, entry.lastIndexOf('/') + 1), window.location.href).href;
}

/**
 * The app whose script a stack's top frame is in: a remote by where its files are served, the
 * shell for the page's own origin. Undefined when no frame is the site's (a browser extension).
 */
export function appOfStack(stack: string): string | undefined {
  const remotes = Object.keys(remotesDocumentInPage()?.remotes ?? window.__AGENCY_RELEASES__?.remotes ?? {});
  for (const [, url] of stack.matchAll(/(https?:\/\/[^\s()]+?):\d+:\d+/g)) {
    const remote = remotes.find((name) => {
      const base = remoteBase(name);
      return base !== undefined && url!.startsWith(base);
    });
    if (remote) return remote;
    if (url!.startsWith(`${window.location.origin}/`)) return HOST_NAME;
  }
  return undefined;
}

function describe(error: unknown): { message: string; stack: string } {
  if (error instanceof Error) return { message: `${error.name}: ${error.message}`, stack: error.stack ?? '' };
  return { message: String(error), stack: '' };
}

/** The releases of the page view: the shell's and each remote's on the page. */
function pageReleases(remotes: readonly string[]): Record<string, string> {
  const releases: Record<string, string> = { [HOST_NAME]: shellRelease() };
  for (const name of remotes) releases[name] = remoteRelease(name);
  return releases;
}

/** Sends a beacon, with `fetch(keepalive)` where beacons are missing or refused; a failure is dropped quietly. */
function send(batch: TelemetryBatch): void {
  const body = JSON.stringify(batch);
  const errors = batch.errors ?? [];
  if (body.length > TELEMETRY_LIMITS.bodyBytes / 2 && errors.length > 1) {
    // Strings count twice here: Ukrainian text takes two bytes a character in UTF-8.
    const half = Math.ceil(errors.length / 2);
    send({ ...batch, errors: errors.slice(0, half) });
    send({ errors: errors.slice(half) });
    return;
  }
  try {
    if (navigator.sendBeacon?.(TELEMETRY_PATH, new Blob([body], { type: 'application/json' }))) return;
  } catch {
    // Too big or refused: try fetch below.
  }
  void fetch(TELEMETRY_PATH, { method: 'POST', body, keepalive: true, headers: { 'content-type': 'application/json' } }).catch(() => undefined);
}

/**
 * Batches page views, Web Vitals and errors into beacons to `POST /api/telemetry`: errors at most
 * every few seconds, and everything when the page is hidden or left. Each distinct error is sent
 * with how often it happened, at most TELEMETRY_LIMITS.errorsPerPageView of them per page view.
 */
export function createReporter(): TelemetrySink {
  const pageViews: TelemetryPageView[] = [];
  const errors = new Map<string, TelemetryError>();
  const seenThisView = new Set<string>();
  const vitals = new Map<VitalName, number>();
  const sentVitals = new Set<VitalName>();
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
    // More page views or errors than one beacon takes (each page view allows its own errors) go
    // in further beacons: this may be the page's last moment.
    for (let first = true; first || pageViews.length > 0 || errorReports.length > 0; first = false) {
      const batch: TelemetryBatch = {};
      if (pageViews.length > 0) batch.page_views = pageViews.splice(0, TELEMETRY_LIMITS.pageViews);
      if (first && vitalReports.length > 0) batch.vitals = vitalReports;
      if (errorReports.length > 0) batch.errors = errorReports.splice(0, TELEMETRY_LIMITS.errors);
      if (Object.keys(batch).length > 0) send(batch);
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
    pageView({ page, remotes }: CapturedPageView) {
      const view = { page, releases: pageReleases(remotes) };
      landing ??= view;
      pageViews.push(view);
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
