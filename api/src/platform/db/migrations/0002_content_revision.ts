import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * FROZEN once it has run on a live database: never edit it; add a new one.
 *
 * One counter that every change of the published content (services, blog posts) moves, by
 * triggers, so whatever writes the content (the seed, a content sync in another process, a
 * hand-run SQL statement) tells every API process that its in-memory copy is stale.
 */

// Migrations must not depend on the application's schema types (Kysely docs).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const CONTENT_TABLES = ['services', 'blog_posts'] as const;
const SQLITE_EVENTS = ['insert', 'update', 'delete'] as const;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('content_revision')
    .addColumn('id', 'integer', (col) => col.primaryKey().check(sql`id = 1`))
    .addColumn('revision', pg ? 'bigint' : 'integer', (col) => col.notNull())
    .execute();
  await db.insertInto('content_revision').values({ id: 1, revision: 0 }).execute();

  const bump = sql`update content_revision set revision = revision + 1 where id = 1`;
  if (pg) {
    await sql`create function bump_content_revision() returns trigger language plpgsql as $$
      begin update content_revision set revision = revision + 1 where id = 1; return null; end $$`.execute(db);
    for (const table of CONTENT_TABLES) {
      await sql`create trigger ${sql.id(`${table}_content_revision`)}
        after insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function bump_content_revision()`.execute(db);
    }
    return;
  }
  for (const table of CONTENT_TABLES) {
    for (const event of SQLITE_EVENTS) {
      await sql`create trigger ${sql.id(`${table}_${event}_content_revision`)}
        after ${sql.raw(event)} on ${sql.table(table)} begin ${bump}; end`.execute(db);
    }
  }
}

export async function down(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const table of CONTENT_TABLES) {
    if (pg) await sql`drop trigger ${sql.id(`${table}_content_revision`)} on ${sql.table(table)}`.execute(db);
    else for (const event of SQLITE_EVENTS) await sql`drop trigger ${sql.id(`${table}_${event}_content_revision`)}`.execute(db);
  }
  if (pg) await sql`drop function bump_content_revision()`.execute(db);
  await db.schema.dropTable('content_revision').execute();
}
