import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * FROZEN once it has run on a live database: never edit it; add a new one.
 *
 * Services edited in the staff console.
 * - `unpublished_at`: set while a service is off the home page (a new one starts so); ISO 8601
 *   text in UTC, as the console's tables keep time.
 * - `version`: moved by every change, so a save made from an older version is refused instead of
 *   overwriting; `updated_at`, `updated_by`: the last change and who made it.
 * Every service so far is shown, at version 1.
 */

// Migrations must not depend on the application's schema types (Kysely docs).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.alterTable('services').addColumn('unpublished_at', 'text').execute();
  await db.schema.alterTable('services').addColumn('version', 'integer', (col) => col.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('services').addColumn('updated_at', 'text').execute();
  await db.schema.alterTable('services').addColumn('updated_by', 'integer', (col) => col.references('staff_members.id')).execute();
  await db.updateTable('services').set({ updated_at: pg ? sql`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : sql`created_at` }).execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const column of ['updated_by', 'updated_at', 'version', 'unpublished_at']) {
    await db.schema.alterTable('services').dropColumn(column).execute();
  }
}
