import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../../platform/db/connection';
import { startSiteSchedule, type SiteSchedule } from '../../../platform/scheduling/site-schedule';
import { pruneNonceUses } from '../spam/spam-nonces';
import { purgeExpired, type PurgeReport } from './retention-purge';

/** How often the retention purge runs (also once at start). */
export const RETENTION_PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The lease that makes the purge one site's work, not each process's: held from run to run (a
 * little longer than the interval, renewed between batches), so the process holding it renews it
 * at its next run and purges every hour; if it dies, another process takes over at its first run
 * after the lease lapsed, within two hours of the last purge. Given up on close.
 */
const LEASE_NAME = 'retention-purge';
export const RETENTION_LEASE_TTL_MS = RETENTION_PURGE_INTERVAL_MS + 5 * 60 * 1000;

export type RetentionSchedule = SiteSchedule<PurgeReport>;

export interface RetentionScheduleOptions {
  intervalMs?: number;
  /** The clock (tests move it). */
  now?: () => number;
}

export function startRetentionPurge(db: Database, log: FastifyBaseLogger, options: RetentionScheduleOptions = {}): RetentionSchedule {
  const { intervalMs = RETENTION_PURGE_INTERVAL_MS, now = Date.now } = options;
  return startSiteSchedule(db, {
    lease: { name: LEASE_NAME, ttlMs: RETENTION_LEASE_TTL_MS },
    intervalMs,
    now,
    run: async (carryOn) => {
      const started = Date.now();
      const report = await purgeExpired(db, { now: new Date(now()), carryOn });
      // The spam defence's used tokens go with it: hourly, past the time a token is good.
      const spamNonces = await pruneNonceUses(db, now());
      // Counts only: what was removed is personal data.
      log.info({ ...report, spamNonces, ms: Date.now() - started }, 'privacy: retention purge ran');
      return report;
    },
    onError: (error) => log.warn({ err: error }, 'privacy: retention purge failed; tried again within the hour'),
  });
}
