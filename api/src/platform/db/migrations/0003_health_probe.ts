import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * FROZEN once it has run on a live database: never edit it; add a new one.
 *
 * One row the health check rewrites, so that health reports whether the database takes
 * writes (a full disk, a read-only file or a read-only replica), not only whether it answers.
 */

// Migrations must not depend on the application's schema types (Kysely docs).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('health_probe')
    .addColumn('id', 'integer', (col) => col.primaryKey().check(sql`id = 1`))
    .addColumn('checked_at', pg ? 'timestamptz' : 'text', (col) => col.notNull())
    .execute();
  await db
    .insertInto('health_probe')
    .values({ id: 1, checked_at: pg ? sql`now()` : new Date().toISOString() })
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('health_probe').execute();
}
