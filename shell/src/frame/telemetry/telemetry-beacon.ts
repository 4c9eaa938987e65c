import {
  HOST_NAME,
  readSessionAttribution,
  TELEMETRY_LIMITS,
  TELEMETRY_PATH,
  trafficSource,
  writeSessionAttribution,
  type RemoteLocation,
  type RemoteName,
  type SessionAttribution,
  type TelemetryBatch,
  type TelemetryPageView,
  type VisitSession,
} from '@agency/shared';
import { registeredRemote, remotesDocumentInPage } from '../federation/remotes-config';
import { analyticsOf, viewsToContinue, type ViewAnalytics } from './page-analytics';

/**
 * Sending a beacon, and the releases it names: shared by the reporter and by the page views the
 * page sends itself when it is hidden before the reporter has loaded.
 */

const UNKNOWN_RELEASE = 'unknown';

export function shellRelease(): string {
  return window.__AGENCY_RELEASES__?.shell ?? remotesDocumentInPage()?.shell.release ?? UNKNOWN_RELEASE;
}

/** Where a remote is loaded from and its release: as the shell registered it, else as the page names it. */
export function remoteLocation(name: string): RemoteLocation | undefined {
  return registeredRemote(name as RemoteName) ?? remotesDocumentInPage()?.remotes[name as RemoteName];
}

export function remoteRelease(name: string): string {
  return remoteLocation(name)?.release ?? UNKNOWN_RELEASE;
}

/** The releases of a page view: the shell's and each remote's on the page. */
export function pageReleases(remotes: readonly string[]): Record<string, string> {
  const releases: Record<string, string> = { [HOST_NAME]: shellRelease() };
  for (const name of remotes) releases[name] = remoteRelease(name);
  return releases;
}

/**
 * A page view as a beacon reports it, with the dashboard's counting of it (none when tracking is
 * refused); `inSample: false` for a page load outside release health's sample.
 */
export function pageViewReport(view: { page: string; remotes: readonly string[]; analytics?: ViewAnalytics }, inSample = true): TelemetryPageView {
  return {
    page: view.page,
    releases: pageReleases(view.remotes),
    ...(inSample ? {} : { sampled: false as const }),
    ...(view.analytics ? { analytics: analyticsOf(view.analytics) } : {}),
  };
}

/** The page views reported before that have more time or forms to report: the one on screen, and those left since. */
export function continuationReports(inSample = true): TelemetryPageView[] {
  return viewsToContinue().map((view) => pageViewReport({ page: view.page, remotes: view.remotes, analytics: view }, inSample));
}

/** The browser session's visit and where it came from, as a beacon carries it (see frame/attribution). */
function visitOf(kept: SessionAttribution): VisitSession {
  return { id: kept.sessionId, ...trafficSource(kept.attribution) };
}

/** The visit has reached a beacon: later page loads of the session need not send it on their own. */
function markVisitCounted(id: string): void {
  const kept = readSessionAttribution();
  if (kept?.sessionId === id && !kept.counted) writeSessionAttribution({ ...kept, counted: true });
}

/**
 * Sends the session's visit on its own, once per session: for page loads outside the telemetry
 * sample, whose page views are not sent, so that every visit is counted against the leads.
 */
export function sendVisitOnce(): void {
  const kept = readSessionAttribution();
  if (kept && !kept.counted) sendBeacon({ session: visitOf(kept) });
}

/**
 * Sends a beacon, with `fetch(keepalive)` where beacons are missing or refused; a failure is
 * dropped quietly. Page views carry the session's visit (the API counts each visit once).
 */
export function sendBeacon(batch: TelemetryBatch): void {
  if (batch.page_views?.length && !batch.session) {
    const kept = readSessionAttribution();
    if (kept) batch = { ...batch, session: visitOf(kept) };
  }
  const body = JSON.stringify(batch);
  const errors = batch.errors ?? [];
  if (body.length > TELEMETRY_LIMITS.bodyBytes / 2 && errors.length > 1) {
    // Strings count twice here: Ukrainian text takes two bytes a character in UTF-8.
    const half = Math.ceil(errors.length / 2);
    sendBeacon({ ...batch, errors: errors.slice(0, half) });
    sendBeacon({ errors: errors.slice(half) });
    return;
  }
  const counted = () => batch.session && markVisitCounted(batch.session.id);
  try {
    if (navigator.sendBeacon?.(TELEMETRY_PATH, new Blob([body], { type: 'application/json' }))) {
      counted();
      return;
    }
  } catch {
    // Too big or refused: try fetch below.
  }
  void fetch(TELEMETRY_PATH, { method: 'POST', body, keepalive: true, headers: { 'content-type': 'application/json' } }).then(
    (response) => response.ok && counted(),
    () => undefined,
  );
}
