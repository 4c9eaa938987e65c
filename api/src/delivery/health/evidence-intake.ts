import { releaseSet, type RemotesDocument } from '@agency/shared';
import type { FastifyRequest } from 'fastify';
import { judgedReleases, type Judged } from '../releases/judged-releases';
import type { VisitorReleases } from '../visitor/visitor-releases';
import { REFRESH_MS, type ReleaseReader } from '../releases/reader';
import { clientId } from './client-identity';
import { createReportAdmission, type ReportAdmission } from './report-admission';
import type { TelemetryRecorder } from './telemetry-recorder';

/** A page the server sent: the releases it was rendered from, the apps on it and its route. */
export interface SentPage {
  remotes: RemotesDocument;
  apps: readonly string[];
  /** Its route pattern (`/blog/:postId`), or UNKNOWN_PAGE. */
  pattern: string;
}

/** Addresses whose identity is kept in memory at most (the map starts afresh past it). */
const IDENTITIES_KEPT = 10_000;

/** How long after a failed read of the key the next request tries again. */
const KEY_RETRY_MS = 5000;

/** No release is judged: what evidence counts for while clients cannot be told apart. */
const NONE_JUDGED: Judged = () => false;

/** The name of the site secret clients' identities are keyed with (site-secrets.ts). */
export const TELEMETRY_CLIENT_KEY = 'telemetry-client-key';

export interface EvidenceIntakeOptions {
  recorder: TelemetryRecorder;
  releases: ReleaseReader;
  /** The releases the server serves a request's client (its canary bucket, its preview). */
  visitorReleases(request: FastifyRequest): Promise<Pick<VisitorReleases, 'remotes' | 'override'>>;
  /** The site's secret that clients' identities are keyed with (shared by every process). */
  secret(): Promise<string>;
  /** The secret could not be read (the database away): reports are counted, but no client is kept. */
  onSecretError?(error: unknown): void;
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
export function createEvidenceIntake({
  recorder,
  releases,
  visitorReleases,
  secret,
  onSecretError = () => {},
  admission = createReportAdmission(),
}: EvidenceIntakeOptions) {
  // The key is read once. Until it can be (the database away at start, tried again every few
  // seconds), a client is told apart by its address in this process's memory alone, for its
  // allowances: what it reports is counted, but no evidence of a judged release is kept.
  let key: string | undefined;
  let reading: Promise<string | undefined> | undefined;
  let failedAt = Number.NEGATIVE_INFINITY;
  function readKey(): Promise<string | undefined> {
    if (key !== undefined || Date.now() - failedAt < KEY_RETRY_MS) return Promise.resolve(key);
    reading ??= secret()
      .then(
        (value) => (key = value),
        (error: unknown) => {
          failedAt = Date.now();
          onSecretError(error);
          return undefined;
        },
      )
      .finally(() => (reading = undefined));
    return reading;
  }
  // A page or beacon is counted on every request: an address's identity (a keyed hash) is made
  // once, and the releases a canary judges are looked up once a second (the release state is read
  // no more often), so a page sent to a known address costs no wait.
  const identities = new Map<string, string>();
  async function identify(address: string): Promise<{ id: string; keyed: boolean }> {
    const known = identities.get(address);
    if (known) return { id: known, keyed: true };
    const secretKey = await readKey();
    if (secretKey === undefined) return { id: `address:${address}`, keyed: false };
    const id = clientId(address, secretKey);
    if (identities.size >= IDENTITIES_KEPT) identities.clear();
    identities.set(address, id);
    return { id, keyed: true };
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
      const [visitor, judged, identity] = await Promise.all([visitorReleases(request), judgedNow().judged, identify(request.ip)]);
      const assigned = releaseSet(visitor.remotes);
      // An override's remote is a release manager's own try: what it reports counts for no release.
      if (visitor.override) delete assigned[visitor.override.app];
      return { client: { id: identity.id, assigned }, judged: identity.keyed ? judged : NONE_JUDGED };
    },

    /** A page was sent: a browser's navigation counts as a page view of each app release on it. */
    async pageSent(request: FastifyRequest, page: SentPage): Promise<void> {
      if (!isNavigation(request)) return;
      const client = identities.get(request.ip);
      const { judged, known } = judgedNow();
      if (client && known) return countSentPage(page, client, known);
      const [identity, judging] = await Promise.all([identify(request.ip), judged]);
      countSentPage(page, identity.id, identity.keyed ? judging : NONE_JUDGED);
    },
  };
}

export type EvidenceIntake = ReturnType<typeof createEvidenceIntake>;
