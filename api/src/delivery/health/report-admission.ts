import { ROUTE_PATTERNS, UNKNOWN_PAGE, type TelemetryBatch, type TelemetryError } from '@agency/shared';
import { ClientAllowance, DistinctAllowance } from './client-allowance';
import { CLIENT_LIMITS } from './telemetry-limits';

/** Why a reported event was not counted. */
export type DropReason = 'unassigned' | 'client_limit';

/** The client a report or a page is counted for. */
export interface ReportingClient {
  /** Its identity (client-identity.ts). */
  id: string;
  /**
   * The release of each app the server serves this client now (`releaseSet` of its remotes
   * document: its canary bucket, its preview, else the current releases).
   */
  assigned: Readonly<Record<string, string>>;
}

export interface Admitted {
  /** What of the report is counted. */
  batch: TelemetryBatch;
  dropped: Record<DropReason, number>;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** A page as telemetry counts it: one of the site's route patterns, else UNKNOWN_PAGE. */
export function knownPage(page: string): string {
  return (ROUTE_PATTERNS as readonly string[]).includes(page) ? page : UNKNOWN_PAGE;
}

/**
 * What of a browser's report, and of the pages the server sends, is counted. A report counts only
 * for the releases the server assigns its client now: a made-up release, a candidate the client's
 * bucket is outside of, a staged release it holds no preview of are dropped. What is left is
 * bounded per client (CLIENT_LIMITS): events per app release and minute, an error's count, new
 * distinct sessions per hour, pages sent per app release and minute. Pages are matched to the site's routes.
 */
export function createReportAdmission(now: () => number = Date.now) {
  const events = new ClientAllowance(CLIENT_LIMITS.eventsPerMinute, MINUTE_MS, now);
  const served = new ClientAllowance(CLIENT_LIMITS.servedPagesPerMinute, MINUTE_MS, now);
  const sessions = new DistinctAllowance(CLIENT_LIMITS.sessionsPerHour, HOUR_MS, now);
  const vitals = new ClientAllowance(CLIENT_LIMITS.vitalsPerHour, HOUR_MS, now);

  /**
   * Whether an event of `app`'s `release` counts for `client`: the release assigned to it, and
   * within its allowance (for a vital also its values of that vital an hour, so that one client
   * cannot make a p75). What does not is counted in `dropped` by why.
   */
  function admits(app: string, release: string, client: ReportingClient, dropped: Admitted['dropped'], vital?: string): boolean {
    const key = `${client.id}\n${app}\n${release}`;
    if (client.assigned[app] !== release) dropped.unassigned += 1;
    else if (events.take(key) === 0 || (vital !== undefined && vitals.take(`${key}\n${vital}`) === 0)) dropped.client_limit += 1;
    else return true;
    return false;
  }

  /** The app releases of a page view or vital that count, or undefined when none does. */
  function admitReleases(releases: Readonly<Record<string, string>>, client: ReportingClient, dropped: Admitted['dropped'], vital?: string) {
    const kept = Object.entries(releases).filter(([app, release]) => admits(app, release, client, dropped, vital));
    return kept.length > 0 ? Object.fromEntries(kept) : undefined;
  }

  function admitError(error: TelemetryError, client: ReportingClient, dropped: Admitted['dropped']): TelemetryError | undefined {
    if (!admits(error.app, error.release, client, dropped)) return undefined;
    return { ...error, page: knownPage(error.page), count: Math.min(error.count, CLIENT_LIMITS.errorCount) };
  }

  return {
    /** What of a browser's beacon is counted for `client`. */
    report(batch: TelemetryBatch, client: ReportingClient): Admitted {
      const dropped: Admitted['dropped'] = { unassigned: 0, client_limit: 0 };
      const admitted: TelemetryBatch = { page_views: [], vitals: [], errors: [] };
      for (const view of batch.page_views ?? []) {
        // Outside the sample, or a view already counted reporting its further time: the dashboard's alone.
        if (view.sampled === false || view.analytics?.continued) continue;
        const releases = admitReleases(view.releases, client, dropped);
        if (releases) admitted.page_views!.push({ page: knownPage(view.page), releases });
      }
      for (const vital of batch.vitals ?? []) {
        const releases = admitReleases(vital.releases, client, dropped, vital.name);
        if (releases) admitted.vitals!.push({ ...vital, page: knownPage(vital.page), releases });
      }
      for (const error of batch.errors ?? []) {
        const kept = admitError(error, client, dropped);
        if (kept) admitted.errors!.push(kept);
      }
      if (batch.session) {
        if (sessions.take(client.id, batch.session.id)) admitted.session = batch.session;
        else dropped.client_limit += 1;
      }
      return { batch: admitted, dropped };
    },

    /** The app releases of a page sent to `client` that count as sent (within its allowance). */
    servedPage(releases: Readonly<Record<string, string>>, client: Pick<ReportingClient, 'id'>): Record<string, string> {
      const counted: Record<string, string> = {};
      for (const [app, release] of Object.entries(releases)) {
        if (served.take(`${client.id}\n${app}\n${release}`) === 1) counted[app] = release;
      }
      return counted;
    },
  };
}

export type ReportAdmission = ReturnType<typeof createReportAdmission>;
