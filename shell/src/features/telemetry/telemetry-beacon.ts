import { HOST_NAME, TELEMETRY_LIMITS, TELEMETRY_PATH, type RemoteLocation, type RemoteName, type TelemetryBatch } from '@agency/shared';
import { registeredRemote, remotesDocumentInPage } from '../federation/remotes-config';

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

/** Sends a beacon, with `fetch(keepalive)` where beacons are missing or refused; a failure is dropped quietly. */
export function sendBeacon(batch: TelemetryBatch): void {
  const body = JSON.stringify(batch);
  const errors = batch.errors ?? [];
  if (body.length > TELEMETRY_LIMITS.bodyBytes / 2 && errors.length > 1) {
    // Strings count twice here: Ukrainian text takes two bytes a character in UTF-8.
    const half = Math.ceil(errors.length / 2);
    sendBeacon({ ...batch, errors: errors.slice(0, half) });
    sendBeacon({ errors: errors.slice(half) });
    return;
  }
  try {
    if (navigator.sendBeacon?.(TELEMETRY_PATH, new Blob([body], { type: 'application/json' }))) return;
  } catch {
    // Too big or refused: try fetch below.
  }
  void fetch(TELEMETRY_PATH, { method: 'POST', body, keepalive: true, headers: { 'content-type': 'application/json' } }).catch(() => undefined);
}
