import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/*
 * FROZEN once it has run on a live database: never edit it; add a new one.
 *
 * The staff console: the agency's people, how they sign in, and the leads they work.
 * Every timestamp here is ISO 8601 text in UTC (sortable as text in both dialects).
 *
 * staff_members: one row per person; `removed_at` set when an admin removes them (the row stays,
 * so the audit log's actors keep their e-mail). One live member per e-mail.
 * staff_invitations: one-time links, by the SHA-256 of their token only; used once, then kept.
 * staff_passkeys: WebAuthn credentials (the public key, never a secret), by credential id.
 * staff_totp: a member's authenticator-app secret (RFC 6238; the server must read it to check a
 * code, so it cannot be a hash) and the last time step used, so one code never works twice.
 * staff_recovery_codes: one-time codes, by SHA-256 only.
 * staff_code_failures, staff_code_lockouts: each wrong code (by e-mail), and e-mails refusing codes
 * until a time after too many.
 * staff_sessions: signed-in browsers, by the SHA-256 of the cookie's id, with the CSRF token.
 * staff_challenges: WebAuthn challenges and TOTP secrets being confirmed, used once, short-lived.
 * staff_audit: append-only (triggers refuse UPDATE and DELETE); never a lead's contents.
 *
 * leads: the inbox: one row per contact message or job application (written in the submission's
 * own transaction), with its work state: status, assignee and a version that every change moves,
 * so a save made from an older version is refused instead of overwriting.
 * lead_search: the searchable text of each lead (SQLite FTS5; PostgreSQL a tsvector with a GIN
 * index, 'simple' configuration: no stemming, so Ukrainian and English words match alike).
 * lead_notes, lead_history: notes and every change, with who and when.
 */

// Migrations must not depend on the application's schema types (Kysely docs).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const isPostgres = (db: AnyDb) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: AnyDb): Promise<void> {
  const pg = isPostgres(db);
  const serial = pg ? 'serial' : 'integer';
  const autoId = (col: ColumnDefinitionBuilder) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement());

  await db.schema
    .createTable('staff_members')
    .addColumn('id', serial, autoId)
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('admin', 'editor', 'viewer')`))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('removed_at', 'text')
    .execute();
  await db.schema.createIndex('staff_members_live_email_idx').on('staff_members').column('email').unique().where(sql.ref('removed_at'), 'is', null).execute();

  await db.schema
    .createTable('staff_invitations')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('role', 'text', (col) => col.notNull())
    .addColumn('invited_by', 'integer', (col) => col.references('staff_members.id'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text')
    .execute();

  await db.schema
    .createTable('staff_passkeys')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('member_id', 'integer', (col) => col.notNull().references('staff_members.id'))
    .addColumn('public_key', 'text', (col) => col.notNull())
    .addColumn('counter', 'bigint', (col) => col.notNull())
    .addColumn('transports', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('staff_passkeys_member_idx').on('staff_passkeys').column('member_id').execute();

  await db.schema
    .createTable('staff_totp')
    .addColumn('member_id', 'integer', (col) => col.primaryKey().references('staff_members.id'))
    .addColumn('secret', 'text', (col) => col.notNull())
    .addColumn('last_step', 'bigint', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('staff_recovery_codes')
    .addColumn('code_hash', 'text', (col) => col.primaryKey())
    .addColumn('member_id', 'integer', (col) => col.notNull().references('staff_members.id'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('staff_recovery_codes_member_idx').on('staff_recovery_codes').column('member_id').execute();

  // By e-mail, not member: an address without an account is locked out alike, so the answer
  // never tells whether it has one.
  await db.schema
    .createTable('staff_code_failures')
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('staff_code_failures_email_idx').on('staff_code_failures').columns(['email', 'at']).execute();
  await db.schema
    .createTable('staff_code_lockouts')
    .addColumn('email', 'text', (col) => col.primaryKey())
    .addColumn('until', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('staff_sessions')
    .addColumn('id_hash', 'text', (col) => col.primaryKey())
    .addColumn('member_id', 'integer', (col) => col.notNull().references('staff_members.id'))
    .addColumn('csrf_token', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('last_seen_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('user_agent', 'text', (col) => col.notNull())
    .addColumn('address', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('staff_sessions_member_idx').on('staff_sessions').column('member_id').execute();

  await db.schema
    .createTable('staff_challenges')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('purpose', 'text', (col) => col.notNull())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('staff_audit')
    .addColumn('seq', serial, autoId)
    .addColumn('at', 'text', (col) => col.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('actor', 'text', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('target', 'text', (col) => col.notNull())
    .addColumn('address', 'text', (col) => col.notNull())
    .addColumn('detail', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('staff_audit_at_idx').on('staff_audit').column('at').execute();
  if (pg) {
    await sql`create function staff_audit_append_only() returns trigger language plpgsql as $$
      begin raise exception 'staff_audit is append-only'; end $$`.execute(db);
    await sql`create trigger staff_audit_append_only before update or delete on staff_audit
      for each statement execute function staff_audit_append_only()`.execute(db);
  } else {
    await sql`create trigger staff_audit_no_update before update on staff_audit
      begin select raise(abort, 'staff_audit is append-only'); end`.execute(db);
    await sql`create trigger staff_audit_no_delete before delete on staff_audit
      begin select raise(abort, 'staff_audit is append-only'); end`.execute(db);
  }

  await db.schema
    .createTable('leads')
    .addColumn('id', serial, autoId)
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('contact', 'applications')`))
    .addColumn('submission_id', 'integer', (col) => col.notNull())
    .addColumn('received_at', 'text', (col) => col.notNull())
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('new', 'in_progress', 'won', 'lost', 'spam')`))
    .addColumn('assignee_id', 'integer', (col) => col.references('staff_members.id'))
    .addColumn('version', 'integer', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('leads_submission_unique', ['kind', 'submission_id'])
    .execute();
  // The inbox pages newest first (by id) within each filter.
  for (const column of ['status', 'kind', 'source', 'assignee_id', 'received_at']) {
    await db.schema.createIndex(`leads_${column}_idx`).on('leads').columns([column, 'id']).execute();
  }

  if (pg) {
    await db.schema
      .createTable('lead_search')
      .addColumn('lead_id', 'integer', (col) => col.primaryKey().references('leads.id'))
      .addColumn('document', sql`tsvector`, (col) => col.notNull())
      .execute();
    await sql`create index lead_search_document_idx on lead_search using gin (document)`.execute(db);
  } else {
    await sql`create virtual table lead_search using fts5(text, tokenize = 'unicode61 remove_diacritics 2')`.execute(db);
  }

  await db.schema
    .createTable('lead_notes')
    .addColumn('id', serial, autoId)
    .addColumn('lead_id', 'integer', (col) => col.notNull().references('leads.id'))
    .addColumn('author_id', 'integer', (col) => col.notNull().references('staff_members.id'))
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('lead_notes_lead_idx').on('lead_notes').columns(['lead_id', 'id']).execute();

  await db.schema
    .createTable('lead_history')
    .addColumn('id', serial, autoId)
    .addColumn('lead_id', 'integer', (col) => col.notNull().references('leads.id'))
    .addColumn('actor_id', 'integer', (col) => col.references('staff_members.id'))
    .addColumn('at', 'text', (col) => col.notNull())
    .addColumn('change', 'text', (col) => col.notNull())
    .addColumn('old_value', 'text')
    .addColumn('new_value', 'text')
    .execute();
  await db.schema.createIndex('lead_history_lead_idx').on('lead_history').columns(['lead_id', 'id']).execute();

  await backfillLeads(db, pg);
}

/** A frozen copy of the inbox's searchable text of a lead (see leads/inbox/lead-search-text.ts). */
function searchText(fields: readonly (string | null | undefined)[], phone: string): string {
  const digits = phone.replace(/\D/g, '');
  const text = [...fields, phone, digits, digits.slice(-9)].filter((value) => value !== null && value !== undefined).join(' ');
  return (text.toLowerCase().match(/[\p{Ll}\p{Lu}\p{Lt}\p{Lo}\p{N}]+/gu) ?? []).join(' ');
}

const toIso = (value: unknown) => (value instanceof Date ? value : new Date(String(value).replace(' ', 'T') + (/[zZ]|[+-]\d\d:?\d\d$/.test(String(value)) ? '' : 'Z'))).toISOString();

/** Leads stored before the inbox existed: indexed in the order they arrived, all «Нова». */
async function backfillLeads(db: AnyDb, pg: boolean): Promise<void> {
  type Row = Record<string, string | null> & { id: number; created_at: unknown; phone: string };
  const contact = (await db.selectFrom('contact_messages').selectAll().execute()) as Row[];
  const applications = (await db.selectFrom('job_applications').selectAll().execute()) as Row[];
  const all = [
    ...contact.map((row) => ({ kind: 'contact', row, text: searchText([row.name, row.email, row.company, row.message], row.phone) })),
    ...applications.map((row) => ({ kind: 'applications', row, text: searchText([row.name, row.email, row.resume_text], row.phone) })),
  ]
    .map((lead) => ({ ...lead, receivedAt: toIso(lead.row.created_at) }))
    .sort((a, b) => (a.receivedAt < b.receivedAt ? -1 : a.receivedAt > b.receivedAt ? 1 : a.row.id - b.row.id));
  for (let start = 0; start < all.length; start += 500) {
    const batch = all.slice(start, start + 500);
    const ids = await db
      .insertInto('leads')
      .values(
        batch.map(({ kind, row, receivedAt }) => ({
          kind,
          submission_id: row.id,
          received_at: receivedAt,
          source: row.utm_source || row.referrer_host || '',
          status: 'new',
          version: 1,
          updated_at: receivedAt,
        })),
      )
      .returning(['id', 'kind', 'submission_id'])
      .execute();
    const idOf = new Map(ids.map((lead) => [`${lead.kind} ${lead.submission_id}`, Number(lead.id)]));
    const rows = batch.map(({ kind, row, text }) => ({ id: idOf.get(`${kind} ${row.id}`)!, text }));
    if (pg) {
      for (const { id, text } of rows) await sql`insert into lead_search (lead_id, document) values (${id}, to_tsvector('simple', ${text}))`.execute(db);
    } else {
      for (const { id, text } of rows) await sql`insert into lead_search (rowid, text) values (${id}, ${text})`.execute(db);
    }
  }
}

export async function down(db: AnyDb): Promise<void> {
  const pg = isPostgres(db);
  for (const table of ['lead_history', 'lead_notes', 'lead_search', 'leads']) await db.schema.dropTable(table).execute();
  await db.schema.dropTable('staff_audit').execute();
  if (pg) await sql`drop function staff_audit_append_only()`.execute(db);
  for (const table of [
    'staff_challenges',
    'staff_sessions',
    'staff_code_lockouts',
    'staff_code_failures',
    'staff_recovery_codes',
    'staff_totp',
    'staff_passkeys',
    'staff_invitations',
    'staff_members',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
