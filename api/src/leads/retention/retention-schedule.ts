import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/connection';
import { SiteLease } from '../../db/site-lease';
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

export interface RetentionSchedule {
  /** A run now (or the one going), if this process holds the lease: what it removed; undefined when another process holds it. */
  runOnce(): Promise<PurgeReport | undefined>;
  stop(): Promise<void>;
}

export interface RetentionScheduleOptions {
  intervalMs?: number;
  /** The clock (tests move it). */
  now?: () => number;
}

export function startRetentionPurge(db: Database, log: FastifyBaseLogger, options: RetentionScheduleOptions = {}): RetentionSchedule {
  const { intervalMs = RETENTION_PURGE_INTERVAL_MS, now = Date.now } = options;
  const lease = new SiteLease(db, LEASE_NAME, RETENTION_LEASE_TTL_MS, now);
  let stopping = false;
  let running: Promise<PurgeReport | undefined> | undefined;

  const purge = async (): Promise<PurgeReport | undefined> => {
    if (stopping || !(await lease.acquire())) return undefined;
    const started = Date.now();
    const report = await purgeExpired(db, { now: new Date(now()), carryOn: async () => !stopping && (await lease.acquire()) });
    // Counts only: what was removed is personal data.
    log.info({ ...report, ms: Date.now() - started }, 'privacy: retention purge ran');
    return report;
  };
  // One run at a time: a run asked for while one is going joins it.
  const runOnce = () =>
    (running ??= purge()
      .catch((error: unknown) => {
        log.warn({ err: error }, 'privacy: retention purge failed; tried again within the hour');
        return undefined;
      })
      .finally(() => (running = undefined)));

  void runOnce();
  const timer = setInterval(() => void runOnce(), intervalMs).unref();
  return {
    runOnce,
    async stop() {
      stopping = true;
      clearInterval(timer);
      await running;
      await lease.release().catch(() => undefined);
    },
  };
}
