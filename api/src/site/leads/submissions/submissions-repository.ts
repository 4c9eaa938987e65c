import { ATTRIBUTION_KEYS, type Attribution, type AttributionKey, type ContactMessage } from '@agency/shared';
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../../platform/db/connection';
import type { ContactMessagesTable, JobApplicationsTable } from '../../../platform/db/schema';
import { idempotencyKey, type LeadPayload, type SubmissionKind } from '../lead/lead-payload';

/**
 * The leads the site's forms send, as stored: contact messages and job applications, with the
 * client's idempotency key and the visit's attribution beside each. Shared by both dialects (see
 * ../../../platform/db/dialect.ts for what differs).
 */

/** A row as the application sees it: a numeric id and an ISO 8601 `created_at` (dialects differ). */
type Stored<Table> = Omit<Selectable<Table>, 'id' | 'created_at'> & { id: number; created_at: string };

function stored<Row extends { id: number; created_at: unknown }>(db: Db, row: Row) {
  return { ...row, id: Number(row.id), created_at: db.dialect.readTimestamp(row.created_at) };
}

type SubmissionTable = 'contact_messages' | 'job_applications';

/** Who sent a submission, and where their visit came from (null when the form did not say); stored next to it. */
export type SubmissionMeta = Pick<Selectable<ContactMessagesTable>, 'user_agent' | 'referrer'> & { attribution: Attribution | null };

/** A client's own key for one submission (the Idempotency-Key header) and a hash of what it stored under it. */
export interface SubmissionKey {
  key: string;
  requestHash: string;
}

/** What a visitor submitted (every field, defaults filled in), without the columns the API adds. */
type NewSubmission<Table> = Omit<
  Insertable<Table>,
  'id' | 'created_at' | 'idempotency_key' | 'request_hash' | 'user_agent' | 'referrer' | AttributionKey
>;

function keyColumns(key: SubmissionKey | undefined) {
  return key ? { idempotency_key: key.key, request_hash: key.requestHash } : {};
}

/** The columns of what the API stores beside a submission: the sender's browser and page, and the attribution's keys (each, or null). */
function metaColumns({ user_agent, referrer, attribution }: SubmissionMeta) {
  const columns: Record<string, string | null> = { user_agent, referrer };
  for (const key of ATTRIBUTION_KEYS) columns[key] = attribution?.[key] ?? null;
  return columns as Pick<SubmissionMeta, 'user_agent' | 'referrer'> & Record<AttributionKey, string | null>;
}
export type NewContactMessage = NewSubmission<ContactMessagesTable>;
export type NewJobApplication = NewSubmission<JobApplicationsTable>;

/** Resolves only after the row is committed (or, inside a transaction, is part of it). */
export async function insertContactMessage(
  db: Db,
  message: NewContactMessage,
  meta: SubmissionMeta,
  receivedAt = new Date(),
  key?: SubmissionKey,
): Promise<number> {
  const row = await db.kysely
    .insertInto('contact_messages')
    .values({ ...message, ...metaColumns(meta), ...keyColumns(key), created_at: db.dialect.timestamp(receivedAt) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function insertJobApplication(
  db: Db,
  application: NewJobApplication,
  meta: SubmissionMeta,
  receivedAt = new Date(),
  key?: SubmissionKey,
): Promise<number> {
  const row = await db.kysely
    .insertInto('job_applications')
    .values({ ...application, ...metaColumns(meta), ...keyColumns(key), created_at: db.dialect.timestamp(receivedAt) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A believable id for a submission we do not store (honeypot): the next id the table would give. */
export async function plausibleNextId(db: Db, table: SubmissionTable): Promise<number> {
  const row = await db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0) + 1;
}

export const SUBMISSION_TABLES = { contact: 'contact_messages', applications: 'job_applications' } as const satisfies Record<SubmissionKind, SubmissionTable>;

/** The submission stored under a client's key, if any: its id and the hash of what was sent. */
export async function findSubmissionByKey(
  db: Db,
  kind: SubmissionKind,
  key: string,
): Promise<{ id: number; request_hash: string | null } | undefined> {
  const row = await db.kysely
    .selectFrom(SUBMISSION_TABLES[kind])
    .select(['id', 'request_hash'])
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  return row && { id: Number(row.id), request_hash: row.request_hash };
}

/** The key columns are the API's bookkeeping, not part of the lead the staff read. */
type KeyColumn = 'idempotency_key' | 'request_hash';
export type StoredContactMessage = Omit<Stored<ContactMessagesTable>, KeyColumn>;
export type StoredJobApplication = Omit<Stored<JobApplicationsTable>, KeyColumn>;

function withoutKey<Row extends Record<KeyColumn, unknown>>(row: Row): Omit<Row, KeyColumn> {
  const lead: Partial<Row> = { ...row };
  delete lead.idempotency_key;
  delete lead.request_hash;
  return lead as Omit<Row, KeyColumn>;
}

/** Stored contact messages, oldest first, optionally from a date on. */
export async function listContactMessages(db: Db, since?: Date): Promise<StoredContactMessage[]> {
  let query = db.kysely.selectFrom('contact_messages').selectAll();
  if (since) query = query.where('created_at', '>=', db.dialect.timestamp(since));
  const rows = await query.orderBy('created_at').orderBy('id').execute();
  return rows.map((row) => withoutKey(stored(db, row)));
}

/** Stored job applications, oldest first, optionally from a date on. */
export async function listJobApplications(db: Db, since?: Date): Promise<StoredJobApplication[]> {
  let query = db.kysely.selectFrom('job_applications').selectAll();
  if (since) query = query.where('created_at', '>=', db.dialect.timestamp(since));
  const rows = await query.orderBy('created_at').orderBy('id').execute();
  return rows.map((row) => withoutKey(stored(db, row)));
}

/** A lead's stored attribution columns as an attribution; null when the lead came without one. */
export function storedAttribution(row: Partial<Record<AttributionKey, string | null>>): Attribution | null {
  const attribution: Attribution = {};
  for (const key of ATTRIBUTION_KEYS) {
    const value = row[key];
    if (value !== null && value !== undefined) attribution[key] = value;
  }
  return Object.keys(attribution).length > 0 ? attribution : null;
}

/** The attribution of every lead of one kind received from `since` on (null for leads without one). */
export async function listLeadAttributions(db: Db, kind: SubmissionKind, since: Date): Promise<(Attribution | null)[]> {
  const rows = await db.kysely
    .selectFrom(SUBMISSION_TABLES[kind])
    .select(ATTRIBUTION_KEYS)
    .where('created_at', '>=', db.dialect.timestamp(since))
    .execute();
  return rows.map(storedAttribution);
}

/** The lead a stored submission is, as its notifications carry it (the payload its outbox rows freeze). */
export async function readLeadPayload(db: Db, kind: SubmissionKind, id: number): Promise<LeadPayload | undefined> {
  if (kind === 'contact') {
    const row = await db.kysely.selectFrom('contact_messages').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const { name, email, phone, company, service_type, message } = row;
    // The column holds what the contract allowed when it was stored.
    return { kind, submission: { name, email, phone, company, service_type: service_type as ContactMessage['service_type'], message }, ...leadBase(db, kind, row) };
  }
  const row = await db.kysely.selectFrom('job_applications').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const { name, email, phone, city, position, resume_text } = row;
  return { kind, submission: { name, email, phone, city, position, resume_text }, ...leadBase(db, kind, row) };
}

function leadBase(db: Db, kind: SubmissionKind, row: { id: number; created_at: unknown; referrer: string | null } & Partial<Record<AttributionKey, string | null>>) {
  const id = Number(row.id);
  return { id, idempotency_key: idempotencyKey(kind, id), created_at: db.dialect.readTimestamp(row.created_at), referrer: row.referrer, attribution: storedAttribution(row) };
}
