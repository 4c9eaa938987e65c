import { VISIT_SESSION_RETENTION_MONTHS } from '@agency/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/connection';
import { toMinute } from './telemetry-kinds';

/** How often old telemetry is deleted (also once at start). */
export const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

const MS_PER_DAY = 24 * 60 * 60 * 1000;

/** `months` calendar months before `now`, in ms. */
function monthsBefore(now: number, months: number): number {
  const date = new Date(now);
  date.setUTCMonth(date.getUTCMonth() - months);
  return date.getTime();
}

/**
 * Deletes telemetry older than `retentionDays` before `now`, and visits older than the privacy
 * page's VISIT_SESSION_RETENTION_MONTHS; resolves with the rows deleted.
 */
export async function pruneTelemetry(db: Database, retentionDays: number, now = Date.now()): Promise<number> {
  const cutoff = toMinute(now - retentionDays * MS_PER_DAY);
  const visitCutoff = toMinute(monthsBefore(now, VISIT_SESSION_RETENTION_MONTHS));
  return db.kysely.transaction().execute(async (trx) => {
    const results = [
      await trx.deleteFrom('telemetry_minutes').where('minute', '<', cutoff).executeTakeFirst(),
      await trx.deleteFrom('telemetry_error_minutes').where('minute', '<', cutoff).executeTakeFirst(),
      await trx.deleteFrom('telemetry_errors').where('last_minute', '<', cutoff).executeTakeFirst(),
      await trx.deleteFrom('visit_sessions').where('first_minute', '<', visitCutoff).executeTakeFirst(),
    ];
    return results.reduce((sum, result) => sum + Number(result.numDeletedRows), 0);
  });
}

/** Prunes at start and then every hour until stopped. */
export function startTelemetryPruning(db: Database, retentionDays: number, log: FastifyBaseLogger): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const prune = () => {
    running = pruneTelemetry(db, retentionDays).then(
      (deleted) => {
        if (deleted > 0) log.info({ deleted, retentionDays }, 'telemetry: deleted rows past retention');
      },
      (error: unknown) => log.warn({ err: error }, 'telemetry: pruning failed; tried again within the hour'),
    );
  };
  prune();
  const timer = setInterval(prune, PRUNE_INTERVAL_MS).unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
