import type { Kysely } from 'kysely';

/*
 * FROZEN once it has run on a live database: never edit it; add a new one.
 *
 * Idempotent submissions: a client sends a key of its own with a submission (the Idempotency-Key
 * header) and the same key on every retry of it. The key is stored with the lead, unique per
 * table, so a retry whose first try was stored finds it instead of storing a second lead;
 * `request_hash` (of the stored fields) tells a true retry from another body under the same key.
 * Submissions without a key (older clients) have neither; unique indexes let any number of NULLs.
 */

// Migrations must not depend on the application's schema types (Kysely docs).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const TABLES = ['contact_messages', 'job_applications'] as const;

export async function up(db: AnyDb): Promise<void> {
  for (const table of TABLES) {
    await db.schema.alterTable(table).addColumn('idempotency_key', 'text').execute();
    await db.schema.alterTable(table).addColumn('request_hash', 'text').execute();
    await db.schema.createIndex(`${table}_idempotency_key_idx`).on(table).column('idempotency_key').unique().execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of TABLES) {
    await db.schema.dropIndex(`${table}_idempotency_key_idx`).execute();
    await db.schema.alterTable(table).dropColumn('request_hash').execute();
    await db.schema.alterTable(table).dropColumn('idempotency_key').execute();
  }
}
