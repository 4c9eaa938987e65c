import { createHash } from 'node:crypto';
import { isUniqueViolation } from '../../../platform/db/database-errors';
import type { Db } from '../../../platform/db/connection';
import type { ChannelName } from '../../../platform/config/leads';
import { idempotencyKey, type LeadPayload, type SubmittedLead } from '../lead/lead-payload';
import type { SpamReasonCode } from '@agency/shared';
import { arrivalOf, indexLead, leadSource, type LeadArrival } from '../lead/lead-index';
import type { SenderKeys } from '../spam/sender-keys';
import { isHeld, orderedReasons } from '../spam/spam-judge';
import { claimNonces } from '../spam/spam-nonces';
import { enqueueLead } from '../outbox/outbox-repository';
import type { LeadFollowUp } from '../follow-up/lead-follow-up';
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
export type StoreOutcome = { outcome: 'stored'; id: number; held: boolean } | { outcome: 'replayed'; id: number } | { outcome: 'key-reused' };

/**
 * What the spam defence found before the submission's transaction (spam-defence.ts); the
 * transaction adds a token or proof already used, then holds the lead or lets it through.
 */
export interface Screening {
  reasons: readonly SpamReasonCode[];
  keys: SenderKeys;
  nonces: { token?: string; proof?: string };
  threshold: number;
  trusted: boolean;
}

/** Claims the screening's nonces and decides: the lead's arrival row values. */
async function arrivalAfter(db: Db, entry: SubmittedLead, screening: Screening | undefined, at: Date): Promise<LeadArrival> {
  if (!screening) return arrivalOf(entry);
  const reasons = orderedReasons([...screening.reasons, ...(await claimNonces(db, screening.nonces, at))]);
  const held = isHeld(reasons, screening, screening.trusted);
  return { spam_reasons: held ? JSON.stringify(reasons) : null, ...screening.keys };
}

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

/** How a submission is stored beside its fields. */
export interface StoreOptions {
  /** Channels a lead let through is queued for (in the same transaction). */
  channels: readonly ChannelName[];
  /** The client's idempotency key. */
  key?: string;
  /** The spam defence's judgement; none for a lead that is not judged (a command, an import). */
  screening?: Screening;
  /** The work that starts as a lead is let through (person, assignee, reply); without it, only its notifications are queued. */
  followUp?: LeadFollowUp;
}

/**
 * Stores a submission, its row of the staff inbox and its outbox rows (one per enabled channel,
 * and the visitor's reply) in one transaction: a notification is never lost and never sent for a
 * submission that was not stored, and every stored lead is in the inbox. A lead the spam defence
 * holds gets no outbox rows, no person and no assignee: «Не спам» does that later. Resolves once
 * all are committed.
 */
async function storeNew(db: Db, entry: SubmittedLead, meta: SubmissionMeta, { channels, screening, followUp }: StoreOptions, key?: SubmissionKey): Promise<{ id: number; held: boolean }> {
  const receivedAt = followUp?.clock.now() ?? new Date();
  const state = await followUp?.state();
  return db.kysely.transaction().execute(async (trx) => {
    const inTransaction: Db = { kysely: trx, dialect: db.dialect };
    const id = await insert(inTransaction, entry, meta, receivedAt, key);
    const arrival = await arrivalAfter(inTransaction, entry, screening, receivedAt);
    const held = arrival.spam_reasons !== null;
    const leadId = await indexLead(inTransaction, entry, id, leadSource(meta.attribution), receivedAt, arrival);
    if (held) return { id, held };
    const payload = {
      ...entry,
      id,
      idempotency_key: idempotencyKey(entry.kind, id),
      created_at: receivedAt.toISOString(),
      referrer: meta.referrer,
      attribution: meta.attribution,
    } as LeadPayload;
    if (followUp && state) await followUp.letThrough(inTransaction, { leadId, payload, keys: arrival, assigneeId: null, channels, at: receivedAt, state });
    else await enqueueLead(inTransaction, payload, channels);
    return { id, held };
  });
}

async function earlierTry(db: Db, entry: SubmittedLead, key: SubmissionKey): Promise<StoreOutcome | undefined> {
  const stored = await findSubmissionByKey(db, entry.kind, key.key);
  if (!stored) return undefined;
  return stored.request_hash === key.requestHash ? { outcome: 'replayed', id: stored.id } : { outcome: 'key-reused' };
}

/**
 * Stores a submission once per idempotency key (`options.key`, when the client sent one). A retry
 * whose first try is stored, even one still being committed by another process when the retry
 * arrives, gets the first try's id: the unique index on the key makes the second insert wait for
 * the first and then fail, and the stored row is read instead. Nearly every submission is a first
 * try, so the insert is tried first and the key looked up only when it fails.
 */
export async function storeSubmission(db: Db, entry: SubmittedLead, meta: SubmissionMeta, options: StoreOptions): Promise<StoreOutcome> {
  const { key } = options;
  if (key === undefined) return { outcome: 'stored', ...(await storeNew(db, entry, meta, options)) };
  const submissionKey = { key, requestHash: requestHash(entry) };
  try {
    return { outcome: 'stored', ...(await storeNew(db, entry, meta, options, submissionKey)) };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const stored = await earlierTry(db, entry, submissionKey);
    if (!stored) throw error;
    return stored;
  }
}
