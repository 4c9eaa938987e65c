import type { Kysely } from 'kysely';

/*
 * FROZEN once it has run on a live database: never edit it; add a new one.
 *
 * Campaign attribution:
 * - each lead keeps where its visitor came from, as the shell recorded it on landing: the
 *   campaign tags (utm_*), the ad click ids, the referring site's host, the landing page's path
 *   and time. NULL where the visit did not say, and for every column of leads sent without one.
 * - visit_sessions: one row per browser session the page-view beacon reported, by the session's
 *   random id (kept in the visitor's sessionStorage, no cookie), with the source, medium and
 *   campaign it came from and the minute it was first reported (whole minutes since the epoch, as
 *   the telemetry tables count them). Sessions set against leads give conversion by source.
 */

// Migrations must not depend on the application's schema types (Kysely docs).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const LEAD_TABLES = ['contact_messages', 'job_applications'] as const;
const ATTRIBUTION_COLUMNS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'gclid',
  'fbclid',
  'referrer_host',
  'landing_path',
  'landed_at',
] as const;

export async function up(db: AnyDb): Promise<void> {
  for (const table of LEAD_TABLES) {
    for (const column of ATTRIBUTION_COLUMNS) await db.schema.alterTable(table).addColumn(column, 'text').execute();
  }
  await db.schema
    .createTable('visit_sessions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('first_minute', 'integer', (col) => col.notNull())
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('medium', 'text', (col) => col.notNull())
    .addColumn('campaign', 'text', (col) => col.notNull())
    .execute();
  // The report counts by date range; retention deletes by it too.
  await db.schema.createIndex('visit_sessions_first_minute_idx').on('visit_sessions').column('first_minute').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('visit_sessions').execute();
  for (const table of LEAD_TABLES) {
    for (const column of [...ATTRIBUTION_COLUMNS].reverse()) await db.schema.alterTable(table).dropColumn(column).execute();
  }
}
