import type { Kysely } from 'kysely';

/*
 * FROZEN once it has run on a live database: never edit it; add a new one.
 *
 * release_leases: which API process makes the site's automatic release decisions (a canary's
 * rollback or promotion) for now. One row per kind of work; a process holds it while `expires_at`
 * (milliseconds since the Unix epoch) is ahead and renews it; another takes it over once it has
 * lapsed. So with any number of processes on one database, one of them decides.
 */

// Migrations must not depend on the application's schema types (Kysely docs).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('release_leases')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('holder', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('release_leases').execute();
}
