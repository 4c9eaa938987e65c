import { sql, type Kysely } from 'kysely';

/*
 * FROZEN once it has run on a live database: never edit it; add a new one.
 *
 * The spam defence.
 * - leads.spam_reasons: why the defence held the lead (a JSON array of reason codes), or null
 *   when it let it through. A held lead arrives with status `spam` and nothing queued to send.
 * - leads.email_key, phone_key, address_key, message_key: what the defence counts recent leads
 *   by: the e-mail in lower case, the phone's deciding digits, a keyed hash of the sender's IP
 *   address (the address itself is never stored), a hash of the message's words. Null for leads
 *   that arrived before; each with an index over the time of arrival.
 * - spam_nonce_uses: the form tokens and proofs of work already used, by nonce (`token:…`,
 *   `proof:…`), each accepted once; kept as long as a token is good.
 * - spam_settings: the one row of what admins tuned (the threshold, the phrases), version-checked;
 *   none until the first change: the API's defaults hold.
 * - spam_trusted_senders: e-mails and phones staff vouched for («Не спам»), as keyed hashes: a
 *   lead from them is never held again.
 */

// Migrations must not depend on the application's schema types (Kysely docs).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const KEYS = ['email_key', 'phone_key', 'address_key', 'message_key'] as const;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('leads').addColumn('spam_reasons', 'text').execute();
  for (const key of KEYS) {
    await db.schema.alterTable('leads').addColumn(key, 'text').execute();
    await db.schema.createIndex(`leads_${key}_idx`).on('leads').columns([key, 'received_at']).execute();
  }
  // The inbox's "held this week".
  await db.schema.createIndex('leads_held_idx').on('leads').column('received_at').where(sql.ref('spam_reasons'), 'is not', null).execute();
  await db.schema
    .createTable('spam_nonce_uses')
    .addColumn('nonce', 'text', (col) => col.primaryKey())
    .addColumn('used_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('spam_nonce_uses_used_at_idx').on('spam_nonce_uses').column('used_at').execute();
  await db.schema
    .createTable('spam_settings')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('threshold', 'integer', (col) => col.notNull())
    .addColumn('phrases', 'text', (col) => col.notNull())
    .addColumn('version', 'integer', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('updated_by', 'integer', (col) => col.references('staff_members.id').onDelete('set null'))
    .execute();
  await db.schema
    .createTable('spam_trusted_senders')
    .addColumn('sender_key', 'text', (col) => col.primaryKey())
    .addColumn('trusted_at', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('spam_trusted_senders').execute();
  await db.schema.dropTable('spam_settings').execute();
  await db.schema.dropTable('spam_nonce_uses').execute();
  await db.schema.dropIndex('leads_held_idx').execute();
  for (const key of [...KEYS].reverse()) {
    await db.schema.dropIndex(`leads_${key}_idx`).execute();
    await db.schema.alterTable('leads').dropColumn(key).execute();
  }
  await db.schema.alterTable('leads').dropColumn('spam_reasons').execute();
}
