import type { BrowserErrorKind } from '@agency/shared';

/** Reports an error against the remote it happened in: a failed load, or what a slot's boundary caught. */
export type ReportRemoteError = (kind: BrowserErrorKind, error: unknown, remote: string) => void;

// Where these errors go is for the page that composes the frame to say (bootstrap.tsx passes
// telemetry's reportError): telemetry reads the remotes' releases from this folder, so this folder
// must not import telemetry back. Until a reporter is passed, and where none is (the server
// render, which loads no remote; unit tests that do not ask), errors are reported nowhere, which
// is what telemetry does too until it has started.
let report: ReportRemoteError = () => undefined;

/** Sends the errors of remotes' loads and slots to `reporter` from now on. */
export function reportRemoteErrorsTo(reporter: ReportRemoteError): void {
  report = reporter;
}

/** Reports an error of a remote to the reporter passed last. */
export function reportRemoteError(kind: BrowserErrorKind, error: unknown, remote: string): void {
  report(kind, error, remote);
}
