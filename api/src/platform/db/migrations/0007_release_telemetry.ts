import type { Kysely } from 'kysely';

/*
 * FROZEN once it has run on a live database: never edit it; add a new one.
 *
 * What visitors' browsers report per app release (POST /api/telemetry), kept as per-minute
 * aggregates, never as single events:
 * - telemetry_minutes: a count per minute, app, release, page (route pattern) and kind (page
 *   views, each error kind, each Web Vital). A vital is a log-linear histogram: one row per
 *   bucket; counts carry bucket -1.
 * - telemetry_errors: one sample of each distinct error (its fingerprint) per app release, with
 *   the message and stack as reported (already masked), counted per minute in
 *   telemetry_error_minutes.
 * Minutes are whole minutes since the Unix epoch (an integer, the same in both databases).
 * No IP address, cookie, query string or form content is stored.
 */

// Migrations must not depend on the application's schema types (Kysely docs).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('telemetry_minutes')
    .addColumn('minute', 'integer', (col) => col.notNull())
    .addColumn('app', 'text', (col) => col.notNull())
    .addColumn('release', 'text', (col) => col.notNull())
    .addColumn('page', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('bucket', 'integer', (col) => col.notNull())
    .addColumn('count', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('telemetry_minutes_pkey', ['app', 'release', 'minute', 'page', 'kind', 'bucket'])
    .execute();
  // Retention deletes by minute alone.
  await db.schema.createIndex('telemetry_minutes_minute_idx').on('telemetry_minutes').column('minute').execute();

  await db.schema
    .createTable('telemetry_errors')
    .addColumn('app', 'text', (col) => col.notNull())
    .addColumn('release', 'text', (col) => col.notNull())
    .addColumn('fingerprint', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('page', 'text', (col) => col.notNull())
    .addColumn('message', 'text', (col) => col.notNull())
    .addColumn('stack', 'text', (col) => col.notNull())
    .addColumn('first_minute', 'integer', (col) => col.notNull())
    .addColumn('last_minute', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('telemetry_errors_pkey', ['app', 'release', 'fingerprint'])
    .execute();
  await db.schema.createIndex('telemetry_errors_last_minute_idx').on('telemetry_errors').column('last_minute').execute();

  await db.schema
    .createTable('telemetry_error_minutes')
    .addColumn('app', 'text', (col) => col.notNull())
    .addColumn('release', 'text', (col) => col.notNull())
    .addColumn('fingerprint', 'text', (col) => col.notNull())
    .addColumn('minute', 'integer', (col) => col.notNull())
    .addColumn('count', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('telemetry_error_minutes_pkey', ['app', 'release', 'minute', 'fingerprint'])
    .execute();
  await db.schema.createIndex('telemetry_error_minutes_minute_idx').on('telemetry_error_minutes').column('minute').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('telemetry_error_minutes').execute();
  await db.schema.dropTable('telemetry_errors').execute();
  await db.schema.dropTable('telemetry_minutes').execute();
}
