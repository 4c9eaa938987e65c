import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * FROZEN once it has run on a live database: never edit it; add a new one.
 *
 * Releases move from a folder (`RELEASES_DIR/<app>/state.json` and a file lock) into the site's
 * database, so any number of API processes on any number of machines share them; their files live
 * in an object store (platform/object-store).
 *
 * release_revision: one row whose counter every change of the release state moves: servers poll it
 * to see a change within a second. `imported_at` records the one-time import of a
 * RELEASES_DIR folder.
 *
 * releases: every release of every app whose files are in the store. `status` is `uploading` while
 * its files are being stored (the id is taken so no second upload writes under it) and `stored`
 * once every file is stored and checked: only stored releases exist for visitors and commands.
 * `current_until` is when it stopped being current, for the skew window pruning keeps.
 *
 * release_apps: per app, the ids made current oldest first (JSON array; the last is current), the
 * canary's candidate (JSON, null when none runs) and the app's own revision: a change of one app
 * is refused when another change of that app came first.
 *
 * release_events: every decision (who, what, when), with the revision it was made at.
 *
 * release_tokens: the tokens teams' CI authenticate with, as SHA-256 hashes only, each naming the
 * apps it may release.
 */

// Migrations must not depend on the application's schema types (Kysely docs).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('release_revision')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('revision', 'bigint', (col) => col.notNull())
    .addColumn('imported_at', 'text')
    .execute();
  await db.insertInto('release_revision').values({ id: 1, revision: 0 }).execute();

  await db.schema
    .createTable('releases')
    .addColumn('app', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('uploading', 'stored')`))
    .addColumn('version', 'text', (col) => col.notNull())
    .addColumn('revision', 'text', (col) => col.notNull())
    .addColumn('built_at', 'text', (col) => col.notNull())
    .addColumn('published_at', 'text', (col) => col.notNull())
    .addColumn('digest', 'text', (col) => col.notNull())
    .addColumn('file_count', 'integer', (col) => col.notNull())
    .addColumn('total_bytes', 'bigint', (col) => col.notNull())
    .addColumn('published_by', 'text', (col) => col.notNull())
    .addColumn('current_until', 'text')
    .addPrimaryKeyConstraint('releases_pkey', ['app', 'id'])
    .execute();

  await db.schema
    .createTable('release_apps')
    .addColumn('app', 'text', (col) => col.primaryKey())
    .addColumn('history', 'text', (col) => col.notNull())
    .addColumn('candidate', 'text')
    .addColumn('revision', 'bigint', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('release_events')
    .addColumn('seq', pg ? 'serial' : 'integer', (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('app', 'text', (col) => col.notNull())
    .addColumn('release', 'text', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('actor', 'text', (col) => col.notNull())
    .addColumn('at', 'text', (col) => col.notNull())
    .addColumn('revision', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('release_events_app_idx').on('release_events').columns(['app', 'seq']).execute();

  await db.schema
    .createTable('release_tokens')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('apps', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('last_used_at', 'text')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('release_tokens').execute();
  await db.schema.dropTable('release_events').execute();
  await db.schema.dropTable('release_apps').execute();
  await db.schema.dropTable('releases').execute();
  await db.schema.dropTable('release_revision').execute();
}
