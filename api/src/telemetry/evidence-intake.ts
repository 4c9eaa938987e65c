import { matchPageRoute, releaseSet, UNKNOWN_PAGE, type RemotesDocument } from '@agency/shared';
import type { FastifyRequest } from 'fastify';
import { judgedReleases } from '../delivery/judged-releases';
import type { VisitorReleases } from '../delivery/visitor-releases';
import type { ReleaseReader } from '../releases/reader';
import { clientId } from './client-identity';
import { createReportAdmission, type ReportAdmission } from './report-admission';
import type { TelemetryRecorder } from './telemetry-recorder';

/** The name of the site secret clients' identities are keyed with (db/site-secrets.ts). */
export const TELEMETRY_CLIENT_KEY = 'telemetry-client-key';

export interface EvidenceIntakeOptions {
  recorder: TelemetryRecorder;
  releases: ReleaseReader;
  /** The releases the server serves a request's client (its canary bucket, its preview). */
  visitorReleases(request: FastifyRequest): Promise<Pick<VisitorReleases, 'remotes'>>;
  /** The site's secret that clients' identities are keyed with (shared by every process). */
  secret(): Promise<string>;
  admission?: ReportAdmission;
}

/**
 * A browser's navigation, as the browser says (`Sec-Fetch-Mode: navigate`), and not a prefetch:
 * what a person opening a page sends. Crawlers, monitors and scripts do not count as page views.
 */
function isNavigation(request: FastifyRequest): boolean {
  return request.method === 'GET' && request.headers['sec-fetch-mode'] === 'navigate' && !/prefetch/i.test(String(request.headers['sec-purpose'] ?? ''));
}

/**
 * Where the site's evidence about each release comes in: the server's own count of the pages it
 * sent, and browsers' reports admitted for the client that sent them (report-admission.ts). Both
 * name the client by a keyed hash of its address, kept while a canary judges the release.
 */
export function createEvidenceIntake({ recorder, releases, visitorReleases, secret, admission = createReportAdmission() }: EvidenceIntakeOptions) {
  // Read once it has been read successfully (the database may be away at first).
  let key: Promise<string> | undefined;
  const keyed = () => (key ??= secret().catch((error: unknown) => ((key = undefined), Promise.reject(error))));

  return {
    admission,

    /** Who sent a beacon: its client with the releases the server assigns it, and which releases a canary judges now. */
    async reporter(request: FastifyRequest) {
      const [visitor, judged, secretKey] = await Promise.all([visitorReleases(request), judgedReleases(releases), keyed()]);
      return { client: { id: clientId(request.ip, secretKey), assigned: releaseSet(visitor.remotes) }, judged };
    },

    /** A page was sent: a browser's navigation counts as a page view of each app release on it. */
    async pageSent(request: FastifyRequest, page: { remotes: RemotesDocument; apps: readonly string[] }): Promise<void> {
      if (!isNavigation(request)) return;
      const set = releaseSet(page.remotes);
      const onPage = Object.fromEntries(page.apps.flatMap((app) => (set[app] ? [[app, set[app]]] : [])));
      const client = clientId(request.ip, await keyed());
      const counted = admission.servedPage(onPage, { id: client });
      const pattern = matchPageRoute(request.url.split('?')[0] ?? '/')?.pattern ?? UNKNOWN_PAGE;
      recorder.recordServedPage(pattern, counted, { client, judged: await judgedReleases(releases) });
    },
  };
}

export type EvidenceIntake = ReturnType<typeof createEvidenceIntake>;
