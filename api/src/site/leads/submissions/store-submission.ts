import { createHash } from 'node:crypto';
import { isUniqueViolation } from '../../../platform/db/database-errors';
import type { Db } from '../../../platform/db/connection';
import type { ChannelName } from '../../../platform/config/leads';
import { idempotencyKey, type LeadPayload, type SubmittedLead } from '../lead/lead-payload';
import { indexLead, leadSource } from '../lead/lead-index';
import { enqueueLead } from '../outbox/outbox-repository';
import {
  findSubmissionByKey,
  insertContactMessage,
  insertJobApplication,
  type SubmissionKey,
  type SubmissionMeta,
} from './submissions-repository';

/**
 * What became of a submission: stored now, found stored under its idempotency key by an earlier
 * try of it (`replayed`, nothing stored or queued again), or refused because the key was used
 * for a different submission (`key-reused`).
 */
export type StoreOutcome = { outcome: 'stored' | 'replayed'; id: number } | { outcome: 'key-reused' };

function insert(db: Db, entry: SubmittedLead, meta: SubmissionMeta, receivedAt: Date, key?: SubmissionKey): Promise<number> {
  return entry.kind === 'contact'
    ? insertContactMessage(db, entry.submission, meta, receivedAt, key)
    : insertJobApplication(db, entry.submission, meta, receivedAt, key);
}

/** A hash of the stored fields, the same whatever order the client sent them in. */
export function requestHash(entry: SubmittedLead): string {
  const fields = Object.entries(entry.submission).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(JSON.stringify([entry.kind, fields])).digest('base64url');
}

/**
 * Stores a submission, its row of the staff inbox and its outbox rows (one per enabled channel)
 * in one transaction: a notification is never lost and never sent for a submission that was not
 * stored, and every stored lead is in the inbox. Resolves once all are committed.
 */
async function storeNew(db: Db, entry: SubmittedLead, meta: SubmissionMeta, channels: readonly ChannelName[], key?: SubmissionKey): Promise<number> {
  const receivedAt = new Date();
  return db.kysely.transaction().execute(async (trx) => {
    const inTransaction: Db = { kysely: trx, dialect: db.dialect };
    const id = await insert(inTransaction, entry, meta, receivedAt, key);
    await indexLead(inTransaction, entry, id, leadSource(meta.attribution), receivedAt);
    if (channels.length === 0) return id;
    const lead = {
      ...entry,
      id,
      idempotency_key: idempotencyKey(entry.kind, id),
      created_at: receivedAt.toISOString(),
      referrer: meta.referrer,
      attribution: meta.attribution,
    } as LeadPayload;
    await enqueueLead(inTransaction, lead, channels);
    return id;
  });
}

async function earlierTry(db: Db, entry: SubmittedLead, key: SubmissionKey): Promise<StoreOutcome | undefined> {
  const stored = await findSubmissionByKey(db, entry.kind, key.key);
  if (!stored) return undefined;
  return stored.request_hash === key.requestHash ? { outcome: 'replayed', id: stored.id } : { outcome: 'key-reused' };
}

/**
 * Stores a submission once per idempotency key (`key`, when the client sent one). A retry whose
 * first try is stored, even one still being committed by another process when the retry arrives,
 * gets the first try's id: the unique index on the key makes the second insert wait for the
 * first and then fail, and the stored row is read instead. Nearly every submission is a first
 * try, so the insert is tried first and the key looked up only when it fails.
 */
export async function storeSubmission(
  db: Db,
  entry: SubmittedLead,
  meta: SubmissionMeta,
  channels: readonly ChannelName[],
  key?: string,
): Promise<StoreOutcome> {
  if (key === undefined) return { outcome: 'stored', id: await storeNew(db, entry, meta, channels) };
  const submissionKey = { key, requestHash: requestHash(entry) };
  try {
    return { outcome: 'stored', id: await storeNew(db, entry, meta, channels, submissionKey) };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const stored = await earlierTry(db, entry, submissionKey);
    if (!stored) throw error;
    return stored;
  }
}
