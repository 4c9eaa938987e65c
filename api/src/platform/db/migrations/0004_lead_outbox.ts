import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * FROZEN once it has run on a live database: never edit it; add a new one.
 *
 * The lead outbox: one row per stored submission and notification channel, written in the same
 * transaction as the submission, so a notification is never lost and never sent for a
 * submission that was not stored. The delivery worker claims due rows with a lease
 * (`locked_until`), so a worker that dies mid-delivery only delays its rows until the lease ends.
 */

// Migrations must not depend on the application's schema types (Kysely docs).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const timestampType = pg ? 'timestamptz' : 'text';
  await db.schema
    .createTable('lead_outbox')
    .addColumn('id', pg ? 'serial' : 'integer', (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('submission_kind', 'text', (col) => col.notNull().check(sql`submission_kind in ('contact', 'applications')`))
    .addColumn('submission_id', 'integer', (col) => col.notNull())
    .addColumn('channel', 'text', (col) => col.notNull())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('pending').check(sql`status in ('pending', 'delivered', 'failed')`))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', timestampType, (col) => col.notNull())
    .addColumn('locked_until', timestampType)
    .addColumn('give_up_at', timestampType, (col) => col.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', timestampType, (col) => col.notNull())
    .addColumn('delivered_at', timestampType)
    .addUniqueConstraint('lead_outbox_submission_channel_key', ['submission_kind', 'submission_id', 'channel'])
    .execute();
  await db.schema.createIndex('lead_outbox_due_idx').on('lead_outbox').columns(['status', 'next_attempt_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('lead_outbox').execute();
}
