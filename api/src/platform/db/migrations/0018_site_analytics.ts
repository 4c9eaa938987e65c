import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * FROZEN once it has run on a live database: never edit it; add a new one.
 *
 * The owner's dashboard, counted without cookies.
 * - analytics_salts: the salt of the Kyiv day visitors are hashed with; a new day's replaces it
 *   and the old one is deleted, with every row below keyed by it.
 * - analytics_visitors: the day's visitors by hash, with the visit's entry page, source, campaign
 *   and device (the first page view's); analytics_seen: what each of them has been counted for
 *   that day (a page, a form's step), so a visitor counts once per day and thing. Both hold the
 *   salt's day only.
 * - analytics_page_rollups, analytics_visit_rollups, analytics_form_rollups: anonymous totals per
 *   UTC hour, Kyiv day and Kyiv month (`grain`, `start` in whole minutes since the epoch) by page,
 *   source, campaign and device: views, distinct visitors and engaged time; visits by entry page;
 *   visitors who saw and who started each form. What the dashboard reads, by the primary key's
 *   order: on SQLite the rows are stored in it (without rowid), so a range is read in one pass.
 * - analytics_lead_visitors: a lead sent today by a visitor whose page views may not have arrived
 *   yet (they come when the page is hidden): its device is set from the visitor's row once there.
 *   Deleted with the day's salt, as are the visitors.
 * - analytics_weekly_reports: each week whose e-mail was queued, once.
 * - leads.device: the device class of the visit that sent the lead (null when it was not counted).
 * - staff_members.weekly_report: whether the member wants the weekly e-mail.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const DIMENSIONS = ['source', 'campaign', 'device'] as const;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('analytics_salts')
    .addColumn('day', 'text', (col) => col.primaryKey())
    .addColumn('salt', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('analytics_visitors')
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('visitor', 'text', (col) => col.notNull())
    .addColumn('entry_path', 'text', (col) => col.notNull())
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('campaign', 'text', (col) => col.notNull())
    .addColumn('device', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('analytics_visitors_pk', ['day', 'visitor'])
    .execute();
  await db.schema
    .createTable('analytics_seen')
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('visitor', 'text', (col) => col.notNull())
    .addColumn('item', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('analytics_seen_pk', ['day', 'visitor', 'item'])
    .execute();

  await db.schema
    .createTable('analytics_lead_visitors')
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('submission_id', 'integer', (col) => col.notNull())
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('visitor', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('analytics_lead_visitors_pk', ['kind', 'submission_id'])
    .execute();

  const rollup = (table: string, keys: string[], counts: string[]) => {
    let builder = db.schema.createTable(table).addColumn('grain', 'text', (col) => col.notNull()).addColumn('start', 'integer', (col) => col.notNull());
    for (const key of [...keys, ...DIMENSIONS]) builder = builder.addColumn(key, 'text', (col) => col.notNull());
    for (const count of counts) builder = builder.addColumn(count, 'bigint', (col) => col.notNull());
    // The builder types only the columns it has seen by name.
    const keyed = builder.addPrimaryKeyConstraint(`${table}_pk`, ['grain', 'start', ...keys, ...DIMENSIONS] as never[]);
    return (pg ? keyed : keyed.modifyEnd(sql`without rowid`)).execute();
  };
  await rollup('analytics_page_rollups', ['path'], ['views', 'visitors', 'engaged_ms']);
  await rollup('analytics_visit_rollups', ['entry_path'], ['visitors']);
  await rollup('analytics_form_rollups', ['form', 'step', 'path'], ['visitors']);
  // A page clicked on the dashboard: its rows of a period, wherever its sources put them in the key.
  await db.schema.createIndex('analytics_page_rollups_path_idx').on('analytics_page_rollups').columns(['path', 'grain', 'start']).execute();

  await db.schema
    .createTable('analytics_weekly_reports')
    .addColumn('week', 'text', (col) => col.primaryKey())
    .addColumn('queued_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.alterTable('leads').addColumn('device', 'text').execute();
  await db.schema.alterTable('staff_members').addColumn('weekly_report', 'integer', (col) => col.notNull().defaultTo(0)).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('staff_members').dropColumn('weekly_report').execute();
  await db.schema.alterTable('leads').dropColumn('device').execute();
  for (const table of ['analytics_weekly_reports', 'analytics_form_rollups', 'analytics_visit_rollups', 'analytics_page_rollups', 'analytics_lead_visitors', 'analytics_seen', 'analytics_visitors', 'analytics_salts']) {
    await db.schema.dropTable(table).execute();
  }
}
