import { insertContactMessage, insertJobApplication, type Db, type SubmissionMeta } from '../db/repository';
import type { ChannelName } from './leads-config';
import { idempotencyKey, type LeadPayload, type SubmittedLead } from './lead-payload';
import { enqueueLead } from './outbox-store';

function insert(db: Db, entry: SubmittedLead, meta: SubmissionMeta, receivedAt: Date): Promise<number> {
  return entry.kind === 'contact'
    ? insertContactMessage(db, entry.submission, meta, receivedAt)
    : insertJobApplication(db, entry.submission, meta, receivedAt);
}

/**
 * Stores a submission and its outbox rows (one per enabled channel) in one transaction: a
 * notification is never lost and never sent for a submission that was not stored. Resolves
 * with the submission's id once both are committed.
 */
export async function storeSubmission(
  db: Db,
  entry: SubmittedLead,
  meta: SubmissionMeta,
  channels: readonly ChannelName[],
): Promise<number> {
  const receivedAt = new Date();
  if (channels.length === 0) return insert(db, entry, meta, receivedAt);
  return db.kysely.transaction().execute(async (trx) => {
    const inTransaction: Db = { kysely: trx, dialect: db.dialect };
    const id = await insert(inTransaction, entry, meta, receivedAt);
    const lead = {
      ...entry,
      id,
      idempotency_key: idempotencyKey(entry.kind, id),
      created_at: receivedAt.toISOString(),
      referrer: meta.referrer,
    } as LeadPayload;
    await enqueueLead(inTransaction, lead, channels);
    return id;
  });
}
