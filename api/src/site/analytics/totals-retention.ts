import { VISITOR_COUNTING } from '@agency/shared';
import type { Database } from '../../platform/db/connection';
import { toMinute } from '../../platform/lib/minutes';

/** How often the totals past their retention are deleted. */
export const TOTALS_PRUNE_INTERVAL_MS = 3_600_000;

/**
 * Deletes the dashboard's hourly and daily totals older than VISITOR_COUNTING.aggregateMonths
 * (what the privacy page promises). Any process may run it: a second run deletes nothing.
 */
export async function pruneOldTotals(db: Database, now: number): Promise<void> {
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - VISITOR_COUNTING.aggregateMonths);
  const before = toMinute(cutoff.getTime());
  for (const table of ['analytics_page_rollups', 'analytics_visit_rollups', 'analytics_form_rollups'] as const) {
    await db.kysely.deleteFrom(table).where('start', '<', before).execute();
  }
}
