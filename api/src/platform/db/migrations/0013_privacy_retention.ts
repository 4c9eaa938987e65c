import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * FROZEN once it has run on a live database: never edit it; add a new one.
 *
 * Retention and a person's requests about their data.
 *
 * leads.last_activity_at: when a lead last arrived or was worked (a status change, an assignment,
 * a note, a correction), ISO 8601 text in UTC; what the retention periods count from. Backfilled
 * from the latest of the lead's update, history and notes.
 * lead_outbox.event: what a row delivers: `lead.created` (a new lead, as every row so far) or
 * `lead.erased` (the leads a person's erasure removed, named by id only, for the webhook).
 * lead_outbox.payload_removed_at: when a delivered or given-up row's copy of the lead was cut to
 * what names it (kind, id, key, time), its personal fields removed.
 * SQLite's search index (FTS5) deletes securely: a deleted or replaced lead's words leave the
 * index at once instead of lingering in older index segments until a merge; rebuilt once, so the
 * words of leads changed before this migration leave it too.
 */

// Migrations must not depend on the application's schema types (Kysely docs).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const isPostgres = (db: AnyDb) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('leads').addColumn('last_activity_at', 'text', (col) => col.notNull().defaultTo('')).execute();
  await sql`update leads set last_activity_at = (
      select max(at) from (
        select leads.updated_at as at
        union all select max(lead_history.at) from lead_history where lead_history.lead_id = leads.id
        union all select max(lead_notes.created_at) from lead_notes where lead_notes.lead_id = leads.id
      ) as activity
    )`.execute(db);
  await db.schema.createIndex('leads_last_activity_idx').on('leads').columns(['last_activity_at', 'id']).execute();

  await db.schema
    .alterTable('lead_outbox')
    .addColumn('event', 'text', (col) => col.notNull().defaultTo('lead.created'))
    .execute();
  await db.schema.alterTable('lead_outbox').addColumn('payload_removed_at', 'text').execute();

  if (!isPostgres(db)) {
    await sql`insert into lead_search (lead_search, rank) values ('secure-delete', 1)`.execute(db);
    await sql`insert into lead_search (lead_search) values ('rebuild')`.execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  if (!isPostgres(db)) await sql`insert into lead_search (lead_search, rank) values ('secure-delete', 0)`.execute(db);
  await db.schema.alterTable('lead_outbox').dropColumn('payload_removed_at').execute();
  await db.schema.alterTable('lead_outbox').dropColumn('event').execute();
  await db.schema.dropIndex('leads_last_activity_idx').execute();
  await db.schema.alterTable('leads').dropColumn('last_activity_at').execute();
}
