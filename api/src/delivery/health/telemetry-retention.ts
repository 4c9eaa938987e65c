import { TELEMETRY_CLIENT_RETENTION_DAYS, VISIT_SESSION_RETENTION_MONTHS } from '@agency/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../platform/db/connection';
import { daysBefore, monthsBefore } from '../../platform/lib/calendar';
import { toMinute } from '../../platform/lib/minutes';

/** How often old telemetry is deleted (also once at start). */
export const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/** How often every telemetry table is counted against its budget (each process also checks what it writes). */
export const BUDGET_INTERVAL_MS = 60 * 1000;

/**
 * Deletes telemetry older than `retentionDays` before `now`, visits older than the privacy page's
 * VISIT_SESSION_RETENTION_MONTHS and clients' fingerprints older than its
 * TELEMETRY_CLIENT_RETENTION_DAYS; resolves with the rows deleted.
 */
export async function pruneTelemetry(db: Database, retentionDays: number, now = Date.now()): Promise<number> {
  const cutoff = toMinute(daysBefore(now, retentionDays));
  const visitCutoff = toMinute(monthsBefore(now, VISIT_SESSION_RETENTION_MONTHS));
  const clientCutoff = toMinute(daysBefore(now, TELEMETRY_CLIENT_RETENTION_DAYS));
  return db.kysely.transaction().execute(async (trx) => {
    const results = [
      await trx.deleteFrom('telemetry_minutes').where('minute', '<', cutoff).executeTakeFirst(),
      await trx.deleteFrom('telemetry_error_minutes').where('minute', '<', cutoff).executeTakeFirst(),
      await trx.deleteFrom('telemetry_errors').where('last_minute', '<', cutoff).executeTakeFirst(),
      await trx.deleteFrom('visit_sessions').where('first_minute', '<', visitCutoff).executeTakeFirst(),
      await trx.deleteFrom('telemetry_clients').where('last_minute', '<', clientCutoff).executeTakeFirst(),
    ];
    return results.reduce((sum, result) => sum + Number(result.numDeletedRows), 0);
  });
}

/**
 * Prunes past retention at start and then every hour, and keeps every table within its budget
 * (`enforceBudget`: the recorder's) every minute, until stopped. Runs one at a time.
 */
export function startTelemetryPruning(
  db: Database,
  retentionDays: number,
  enforceBudget: () => Promise<number>,
  log: FastifyBaseLogger,
): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  // One pass of each kind waits at most: a pass that takes longer than its interval queues no more.
  const waiting = new Set<() => Promise<void>>();
  const after = (work: () => Promise<void>) => {
    if (waiting.has(work)) return;
    waiting.add(work);
    running = running.then(() => {
      waiting.delete(work);
      return work();
    });
  };
  const pruneOnce = () =>
    pruneTelemetry(db, retentionDays).then(
      (deleted) => {
        if (deleted > 0) log.info({ deleted, retentionDays }, 'telemetry: deleted rows past retention');
      },
      (error: unknown) => log.warn({ err: error }, 'telemetry: pruning failed; tried again within the hour'),
    );
  const keepBudgetOnce = () =>
    enforceBudget().then(
      (deleted) => {
        if (deleted > 0) log.warn({ deleted }, 'telemetry: deleted the oldest rows to stay within the budget');
      },
      (error: unknown) => log.warn({ err: error }, 'telemetry: keeping the budget failed; tried again within a minute'),
    );
  const prune = () => after(pruneOnce);
  const keepBudget = () => after(keepBudgetOnce);
  prune();
  const timers = [setInterval(prune, PRUNE_INTERVAL_MS).unref(), setInterval(keepBudget, BUDGET_INTERVAL_MS).unref()];
  return {
    async stop() {
      timers.forEach((timer) => clearInterval(timer));
      await running;
    },
  };
}
