import type { OutboxBacklog } from '@agency/shared/contracts';
import type { Db } from '../../../platform/db/connection';
import type { ChannelName } from '../../../platform/config/leads';
import type { OutboxEvent } from '../../../platform/db/schema';
import type { LeadErasedMessage, LeadPayload, OutboxMessage, OutboxNotice, SubmissionKind, WeeklyReportMessage } from '../lead/lead-payload';
import { REPORT_CHANNEL } from './channels/lead-channel';
import { GIVE_UP_AFTER_MS } from './retry-schedule';

/** The outbox table's rows as the outbox worker, health and the CLI see them. */

export type OutboxStatus = 'pending' | 'delivered' | 'failed';

export interface OutboxEntry {
  id: number;
  submission_kind: SubmissionKind;
  submission_id: number;
  channel: string;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: string;
  give_up_at: string;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

export interface ClaimedLead {
  id: number;
  channel: string;
  attempts: number;
  give_up_at: string;
  payload: OutboxMessage;
}

/** Errors are stored for the staff to read; a receiver's whole HTML error page is not. */
const ERROR_TEXT_MAX = 500;

/**
 * One pending row per channel for a submission just stored. Call it inside the transaction that
 * stores the submission: both are committed, or neither. `queuedAt`: when the rows are due and
 * their 24 h of tries start (a held lead let through later is queued then, not when it arrived).
 */
export async function enqueueLead(db: Db, lead: LeadPayload, channels: readonly ChannelName[], queuedAt = new Date(lead.created_at)): Promise<void> {
  if (channels.length === 0) return;
  const created = queuedAt;
  await db.kysely
    .insertInto('lead_outbox')
    .values(
      channels.map((channel) => ({
        submission_kind: lead.kind,
        submission_id: lead.id,
        channel,
        payload: JSON.stringify(lead),
        next_attempt_at: db.dialect.timestamp(created),
        give_up_at: db.dialect.timestamp(new Date(created.getTime() + GIVE_UP_AFTER_MS)),
        created_at: db.dialect.timestamp(created),
      })),
    )
    .execute();
}

/**
 * One pending webhook row telling the receiver that these leads were erased. Call it inside the
 * erasure's transaction. The row is filed under the first lead (the outbox names a lead per row)
 * but is not one of its copies: removing that lead leaves it.
 */
export async function enqueueErasure(db: Db, message: LeadErasedMessage, now: Date): Promise<void> {
  const [first] = message.leads;
  if (!first) return;
  await db.kysely
    .insertInto('lead_outbox')
    .values({
      submission_kind: first.kind,
      submission_id: first.id,
      channel: 'webhook',
      event: 'lead.erased',
      payload: JSON.stringify(message),
      next_attempt_at: db.dialect.timestamp(now),
      give_up_at: db.dialect.timestamp(new Date(now.getTime() + GIVE_UP_AFTER_MS)),
      created_at: db.dialect.timestamp(now),
    })
    .execute();
}

/**
 * One pending row of a message about a lead that is not the lead itself (the visitor's reply, an
 * overdue alert) for one channel, due now. Call it inside the transaction that decided to send it.
 */
export async function enqueueNotice(db: Db, lead: { kind: SubmissionKind; id: number }, channel: string, message: OutboxNotice, now = new Date()): Promise<void> {
  await db.kysely
    .insertInto('lead_outbox')
    .values({
      submission_kind: lead.kind,
      submission_id: lead.id,
      channel,
      event: message.event,
      payload: JSON.stringify(message),
      next_attempt_at: db.dialect.timestamp(now),
      give_up_at: db.dialect.timestamp(new Date(now.getTime() + GIVE_UP_AFTER_MS)),
      created_at: db.dialect.timestamp(now),
    })
    .execute();
}

/** Members a week's report rows can tell apart (see reportRef). */
const REPORT_MEMBERS_MAX = 100_000;
const WEEK_MS = 7 * 86_400_000;

/**
 * Where a weekly report's row is filed. The outbox names a lead per row (kind and id, one row per
 * lead and channel); a report is about none, so it is filed under `contact` and a negative id no
 * lead has (their ids are positive), one per week and member: nothing that works a lead's rows
 * (its page, its removal, an erasure) ever sees it. Fits PostgreSQL's integer until the year 2381.
 */
function reportRef(week: string, memberId: number): { kind: SubmissionKind; id: number } {
  const weeks = Math.floor(Date.parse(`${week}T00:00:00Z`) / WEEK_MS);
  if (!Number.isInteger(weeks) || !Number.isInteger(memberId) || memberId < 1 || memberId >= REPORT_MEMBERS_MAX) {
    throw new Error(`no report row for week ${week} and member ${memberId}`);
  }
  return { kind: 'contact', id: -(weeks * REPORT_MEMBERS_MAX + memberId) };
}

/**
 * One pending row of a member's weekly report (its `week`: the Monday, `YYYY-MM-DD`), due now,
 * for the e-mail's `report` channel. Call it inside the transaction that marked the week queued.
 */
export async function enqueueWeeklyReport(db: Db, recipient: { week: string; memberId: number }, message: WeeklyReportMessage, now = new Date()): Promise<void> {
  await enqueueNotice(db, reportRef(recipient.week, recipient.memberId), REPORT_CHANNEL, message, now);
}

/** Whether a lead was ever queued to be sent (or, by `event`, its reply or alert); rows are deleted only with the lead. */
export async function wasQueued(db: Db, kind: SubmissionKind, submissionId: number, event: OutboxEvent = 'lead.created'): Promise<boolean> {
  const row = await db.kysely
    .selectFrom('lead_outbox')
    .select('id')
    .where('submission_kind', '=', kind)
    .where('submission_id', '=', submissionId)
    .where('event', '=', event)
    .executeTakeFirst();
  return row !== undefined;
}

/** Drops the visitor's reply to leads marked spam, when it is not sent yet: a bot is never answered. */
export async function cancelPendingReplies(db: Db, leads: readonly { kind: SubmissionKind; id: number }[]): Promise<void> {
  for (const lead of leads) {
    await db.kysely
      .deleteFrom('lead_outbox')
      .where('submission_kind', '=', lead.kind)
      .where('submission_id', '=', lead.id)
      .where('event', '=', 'lead.reply')
      .where('status', '!=', 'delivered')
      .execute();
  }
}

/** Pending rows of these channels that are due and that no worker holds. */
function dueRows(db: Db, channels: readonly string[], now: Date) {
  const at = db.dialect.timestamp(now);
  return db.kysely
    .selectFrom('lead_outbox')
    .where('status', '=', 'pending')
    .where('channel', 'in', channels)
    .where('next_attempt_at', '<=', at)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', at)]));
}

/** A cheap read before a claim, so an idle worker does not take SQLite's write lock every poll. */
export async function hasDueLeads(db: Db, channels: readonly string[], now: Date): Promise<boolean> {
  if (channels.length === 0) return false;
  const row = await dueRows(db, channels, now).select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}

/**
 * Takes up to `limit` due rows for this worker: each gets a claim lease (`locked_until`) until
 * `now + claimLeaseMs` and one more attempt. One UPDATE: on PostgreSQL the rows are picked
 * `FOR UPDATE SKIP LOCKED`, so workers of several processes never take the same row; on SQLite
 * the statement runs under the database's single write lock, which gives the same guarantee.
 */
export async function claimDueLeads(
  db: Db,
  channels: readonly string[],
  now: Date,
  { limit, claimLeaseMs }: { limit: number; claimLeaseMs: number },
): Promise<ClaimedLead[]> {
  if (channels.length === 0) return [];
  const picked = dueRows(db, channels, now)
    .select('id')
    .orderBy('id')
    .limit(limit)
    .$if(db.dialect.skipLocked, (query) => query.forUpdate().skipLocked());
  const rows = await db.kysely
    .updateTable('lead_outbox')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      locked_until: db.dialect.timestamp(new Date(now.getTime() + claimLeaseMs)),
    }))
    .where('id', 'in', picked)
    .returning(['id', 'channel', 'attempts', 'give_up_at', 'payload'])
    .execute();
  return rows
    .map((row) => ({
      id: Number(row.id),
      channel: row.channel,
      attempts: Number(row.attempts),
      give_up_at: db.dialect.readTimestamp(row.give_up_at),
      payload: JSON.parse(row.payload) as OutboxMessage,
    }))
    .sort((a, b) => a.id - b.id);
}

/** Marks rows delivered, in one statement (one commit for a whole batch). */
export async function markDelivered(db: Db, ids: readonly number[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.kysely
    .updateTable('lead_outbox')
    .set({ status: 'delivered', delivered_at: db.dialect.timestamp(now), locked_until: null, last_error: null })
    .where('id', 'in', ids)
    .execute();
}

/** Records a failed attempt: due again at `retryAt`, or `failed` for good when there is none. */
export async function markAttemptFailed(db: Db, id: number, error: string, retryAt: Date | undefined): Promise<void> {
  await db.kysely
    .updateTable('lead_outbox')
    .set({
      ...(retryAt ? { next_attempt_at: db.dialect.timestamp(retryAt) } : { status: 'failed' as const }),
      locked_until: null,
      last_error: error.slice(0, ERROR_TEXT_MAX),
    })
    .where('id', '=', id)
    .execute();
}

function entry(db: Db, row: Record<string, unknown>): OutboxEntry {
  const time = (value: unknown) => (value === null || value === undefined ? null : db.dialect.readTimestamp(value));
  return {
    id: Number(row.id),
    submission_kind: row.submission_kind as SubmissionKind,
    submission_id: Number(row.submission_id),
    channel: String(row.channel),
    status: row.status as OutboxStatus,
    attempts: Number(row.attempts),
    next_attempt_at: db.dialect.readTimestamp(row.next_attempt_at),
    give_up_at: db.dialect.readTimestamp(row.give_up_at),
    last_error: (row.last_error as string | null) ?? null,
    created_at: db.dialect.readTimestamp(row.created_at),
    delivered_at: time(row.delivered_at),
  };
}

const ENTRY_COLUMNS = [
  'id',
  'submission_kind',
  'submission_id',
  'channel',
  'status',
  'attempts',
  'next_attempt_at',
  'give_up_at',
  'last_error',
  'created_at',
  'delivered_at',
] as const;

/** Every delivery not done yet (pending, then failed), oldest first. */
export async function listUndelivered(db: Db): Promise<OutboxEntry[]> {
  const rows = await db.kysely
    .selectFrom('lead_outbox')
    .select(ENTRY_COLUMNS)
    .where('status', 'in', ['pending', 'failed'])
    .orderBy('status', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((row) => entry(db, row));
}

export async function getOutboxEntry(db: Db, id: number): Promise<OutboxEntry | undefined> {
  const row = await db.kysely.selectFrom('lead_outbox').select(ENTRY_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row && entry(db, row);
}

/**
 * Puts a failed (or waiting) delivery back in the queue, due now, with a fresh 24 h to succeed.
 * Delivered rows are left alone: re-sending a lead someone already has is not a retry. A claim
 * lease is kept: a worker in the middle of delivering the row finishes first.
 */
export async function requeueLead(db: Db, id: number, now: Date): Promise<OutboxEntry | undefined> {
  await db.kysely
    .updateTable('lead_outbox')
    .set({
      status: 'pending',
      next_attempt_at: db.dialect.timestamp(now),
      give_up_at: db.dialect.timestamp(new Date(now.getTime() + GIVE_UP_AFTER_MS)),
    })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'failed'])
    .execute();
  return getOutboxEntry(db, id);
}

export async function outboxBacklog(db: Db): Promise<OutboxBacklog> {
  const rows = await db.kysely
    .selectFrom('lead_outbox')
    .select((eb) => ['status', eb.fn.countAll().as('count'), eb.fn.min('created_at').as('oldest')])
    .where('status', 'in', ['pending', 'failed'])
    .groupBy('status')
    .execute();
  const pending = rows.find((row) => row.status === 'pending');
  const failed = rows.find((row) => row.status === 'failed');
  return {
    pending: pending ? db.dialect.readCount(pending.count) : 0,
    failed: failed ? db.dialect.readCount(failed.count) : 0,
    oldest_pending_at: pending?.oldest ? db.dialect.readTimestamp(pending.oldest) : null,
  };
}
