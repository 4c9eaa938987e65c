import { releaseSet } from '@agency/shared';
import type { FastifyRequest } from 'fastify';
import { judgedReleases, type Judged } from '../delivery/judged-releases';
import type { VisitorReleases } from '../delivery/visitor-releases';
import type { SentPage } from '../pages/serve-page';
import { REFRESH_MS, type ReleaseReader } from '../releases/reader';
import { clientId } from './client-identity';
import { createReportAdmission, type ReportAdmission } from './report-admission';
import type { TelemetryRecorder } from './telemetry-recorder';

/** Addresses whose identity is kept in memory at most (the map starts afresh past it). */
const IDENTITIES_KEPT = 10_000;

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
  // A page or beacon is counted on every request: an address's identity (a keyed hash) is made
  // once, and the releases a canary judges are looked up once a second (the release state is read
  // no more often), so a page sent to a known address costs no wait.
  const identities = new Map<string, string>();
  async function identify(address: string): Promise<string> {
    const id = clientId(address, await keyed());
    if (identities.size >= IDENTITIES_KEPT) identities.clear();
    identities.set(address, id);
    return id;
  }
  let judging: { at: number; judged: Promise<Judged>; known?: Judged } | undefined;
  function judgedNow(): { judged: Promise<Judged>; known?: Judged } {
    if (!judging || Date.now() - judging.at >= REFRESH_MS) {
      const entry: NonNullable<typeof judging> = { at: Date.now(), judged: judgedReleases(releases) };
      void entry.judged.then((judged) => (entry.known = judged), () => undefined);
      judging = entry;
    }
    return judging;
  }

  function countSentPage(page: SentPage, client: string, judged: Judged): void {
    const set = releaseSet(page.remotes);
    const onPage: Record<string, string> = {};
    for (const app of page.apps) if (set[app]) onPage[app] = set[app];
    recorder.recordServedPage(page.pattern, admission.servedPage(onPage, { id: client }), { client, judged });
  }

  return {
    admission,

    /** Who sent a beacon: its client with the releases the server assigns it, and which releases a canary judges now. */
    async reporter(request: FastifyRequest) {
      const [visitor, judged, id] = await Promise.all([visitorReleases(request), judgedNow().judged, identities.get(request.ip) ?? identify(request.ip)]);
      return { client: { id, assigned: releaseSet(visitor.remotes) }, judged };
    },

    /** A page was sent: a browser's navigation counts as a page view of each app release on it. */
    async pageSent(request: FastifyRequest, page: SentPage): Promise<void> {
      if (!isNavigation(request)) return;
      const client = identities.get(request.ip);
      const { judged, known } = judgedNow();
      if (client && known) countSentPage(page, client, known);
      else countSentPage(page, client ?? (await identify(request.ip)), known ?? (await judged));
    },
  };
}

export type EvidenceIntake = ReturnType<typeof createEvidenceIntake>;
