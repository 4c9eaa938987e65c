import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * FROZEN once it has run on a live database: never edit it; add a new one.
 *
 * Release managers: a front-end team's people in the staff console, each given the apps whose
 * releases they may change.
 * - staff_members.role may be 'release_manager' too (its CHECK widened).
 * - staff_members.release_apps, staff_invitations.release_apps: the apps, as a JSON array of app
 *   names; '[]' for every other role.
 *
 * SQLite cannot alter a CHECK, and rebuilding staff_members the usual way (a new table, the old
 * one dropped) needs foreign keys off, which SQLite refuses inside the migration's transaction:
 * with them on, dropping the table would run its rows' ON DELETE SET NULL actions. So the column
 * is replaced in place: renamed aside, added anew with the wider CHECK (SQLite adds a NOT NULL
 * column only with a default: 'viewer', the least role, never used by the API's inserts), filled,
 * and the old one dropped. It ends last among the columns, which no query depends on.
 */

// Migrations must not depend on the application's schema types (Kysely docs).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const isPostgres = (db: AnyDb) => db.getExecutor().adapter instanceof PostgresAdapter;

async function setRoles(db: AnyDb, roles: readonly string[]): Promise<void> {
  const check = sql.raw(`role in (${roles.map((role) => `'${role}'`).join(', ')})`);
  if (isPostgres(db)) {
    // PostgreSQL named the column's CHECK `<table>_<column>_check` when 0012 created it.
    await sql`alter table staff_members drop constraint staff_members_role_check`.execute(db);
    await sql`alter table staff_members add constraint staff_members_role_check check (${check})`.execute(db);
    return;
  }
  await sql`alter table staff_members rename column role to role_before`.execute(db);
  await sql`alter table staff_members add column role text not null default 'viewer' check (${check})`.execute(db);
  await sql`update staff_members set role = role_before`.execute(db);
  await sql`alter table staff_members drop column role_before`.execute(db);
}

export async function up(db: AnyDb): Promise<void> {
  await setRoles(db, ['admin', 'editor', 'viewer', 'release_manager']);
  for (const table of ['staff_members', 'staff_invitations']) {
    await db.schema.alterTable(table).addColumn('release_apps', 'text', (col) => col.notNull().defaultTo('[]')).execute();
  }
}

/** Fails while a release manager exists: their role would be refused. */
export async function down(db: AnyDb): Promise<void> {
  for (const table of ['staff_invitations', 'staff_members']) await db.schema.alterTable(table).dropColumn('release_apps').execute();
  await setRoles(db, ['admin', 'editor', 'viewer']);
}
