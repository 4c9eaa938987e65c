import type { ContactMessage, JobApplication } from '@agency/shared';
import { insertContactMessage, insertJobApplication, type Db, type SubmissionMeta } from '../db/repository';
import type { ChannelName } from './leads-config';
import { idempotencyKey, type LeadPayload } from './lead-payload';
import { enqueueLead } from './outbox-store';

/**
 * Stores a submission and its outbox rows (one per enabled channel) in one transaction: a
 * notification is never lost and never sent for a submission that was not stored. Resolves
 * with the submission's id once both are committed.
 */
async function storeWithOutbox(
  db: Db,
  channels: readonly ChannelName[],
  insert: (trx: Db, receivedAt: Date) => Promise<number>,
  payload: (id: number, receivedAt: Date) => LeadPayload,
): Promise<number> {
  const receivedAt = new Date();
  if (channels.length === 0) return insert(db, receivedAt);
  return db.kysely.transaction().execute(async (trx) => {
    const inTransaction: Db = { kysely: trx, dialect: db.dialect };
    const id = await insert(inTransaction, receivedAt);
    await enqueueLead(inTransaction, payload(id, receivedAt), channels);
    return id;
  });
}

function base(kind: LeadPayload['kind'], id: number, receivedAt: Date, meta: SubmissionMeta) {
  return { id, idempotency_key: idempotencyKey(kind, id), created_at: receivedAt.toISOString(), referrer: meta.referrer };
}

export function storeContactMessage(
  db: Db,
  message: ContactMessage,
  meta: SubmissionMeta,
  channels: readonly ChannelName[],
): Promise<number> {
  return storeWithOutbox(
    db,
    channels,
    (trx, receivedAt) => insertContactMessage(trx, message, meta, receivedAt),
    (id, receivedAt) => ({ kind: 'contact', ...base('contact', id, receivedAt, meta), submission: message }),
  );
}

export function storeJobApplication(
  db: Db,
  application: JobApplication,
  meta: SubmissionMeta,
  channels: readonly ChannelName[],
): Promise<number> {
  return storeWithOutbox(
    db,
    channels,
    (trx, receivedAt) => insertJobApplication(trx, application, meta, receivedAt),
    (id, receivedAt) => ({ kind: 'applications', ...base('applications', id, receivedAt, meta), submission: application }),
  );
}
