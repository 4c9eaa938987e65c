import type { Kysely } from 'kysely';

/*
 * FROZEN once it has run on a live database: never edit it; add a new one.
 *
 * telemetry_clients: which distinct clients gave the evidence about an app release while a canary
 * judged it (its candidate and the current release), so that a decision rests on several clients,
 * never on one that sends many requests. One row per app, release, kind of evidence (`served`: the
 * server sent it a page of the release; `error`, `load_failure`, `vitals`: it reported them while
 * assigned the release) and client, with how often and the last minute it was seen (whole minutes
 * since the epoch). A client is a keyed hash of its address, never the address.
 *
 * site_secrets: random secrets every API process of the site shares through its database, made by
 * whichever process needs one first (the key of those hashes), so no process needs a writable
 * folder or a setting for them.
 */

// Migrations must not depend on the application's schema types (Kysely docs).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('telemetry_clients')
    .addColumn('app', 'text', (col) => col.notNull())
    .addColumn('release', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('client', 'text', (col) => col.notNull())
    .addColumn('count', 'integer', (col) => col.notNull())
    .addColumn('last_minute', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('telemetry_clients_pkey', ['app', 'release', 'kind', 'client'])
    .execute();
  // Retention and the row budget delete by age.
  await db.schema.createIndex('telemetry_clients_last_minute_idx').on('telemetry_clients').column('last_minute').execute();

  await db.schema
    .createTable('site_secrets')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('site_secrets').execute();
  await db.schema.dropTable('telemetry_clients').execute();
}
