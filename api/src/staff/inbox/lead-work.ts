import { LEAD_STATUS_LABELS, type LeadSummary, type LeadUpdate, type StaffMember } from '@agency/shared';
import type { ChannelName } from '../../platform/config/leads';
import { workingMsBetween } from '@agency/shared';
import { cancelPendingReplies, releaseHeldLead, type LeadFollowUp } from '../../site/leads';
import type { Clock } from '../../platform/lib/clock';
import type { Db } from '../../platform/db/connection';
import type { AppKysely } from '../../platform/db/schema';
import { ApiError } from '../../platform/http/api-error';
import { recordAudit } from '../../platform/audit/audit-log';
import { ChangedError } from '../common/changed-error';
import { STAFF_MESSAGES } from '../common/staff-messages';
import { findLeadRow, findLeadSummary } from './inbox-repository';

/**
 * Working a lead: status, assignee, notes, and marking many as spam. Every change is written
 * with its history row and audit entry in one transaction. A change names the version it was
 * made from; when the lead moved on since, it is refused with what the lead is now (409), so
 * two people never silently overwrite each other.
 */

export class LeadChangedError extends ChangedError<LeadSummary> {
  constructor(current: LeadSummary) {
    super('LEAD_CHANGED', STAFF_MESSAGES.leadChanged, current);
  }
}

export interface Actor {
  member: StaffMember;
  address: string;
}

async function history(kysely: AppKysely, leadId: number, actor: Actor, change: string, oldValue: string | null, newValue: string | null, at: string) {
  await kysely.insertInto('lead_history').values({ lead_id: leadId, actor_id: actor.member.id, at, change, old_value: oldValue, new_value: newValue }).execute();
}

/**
 * Records the lead's first response, if it had none: a note, or a status change that is not about
 * spam (marking spam and «Не спам» are not answers). Its wait is kept in working minutes.
 */
async function firstResponse(kysely: AppKysely, leadId: number, receivedAt: string, actor: Actor, at: Date): Promise<void> {
  const minutes = Math.floor(workingMsBetween(new Date(receivedAt), at) / 60_000);
  await kysely
    .updateTable('leads')
    .set({ first_response_at: at.toISOString(), first_response_by: actor.member.id, first_response_minutes: minutes })
    .where('id', '=', leadId)
    .where('first_response_at', 'is', null)
    .execute();
}

const isAnswer = (from: string, to: string) => from !== 'spam' && to !== 'spam';

export async function updateLead(db: Db, id: number, update: LeadUpdate, actor: Actor, clock: Clock): Promise<LeadSummary> {
  const before = await findLeadSummary(db, id);
  if (!before) throw new ApiError(404, 'LEAD_NOT_FOUND', STAFF_MESSAGES.leadNotFound);
  if (before.version !== update.version) throw new LeadChangedError(before);
  const status = update.status !== undefined && update.status !== before.status ? update.status : undefined;
  const assigneeId = update.assigneeId !== undefined && update.assigneeId !== (before.assignee?.id ?? null) ? update.assigneeId : undefined;
  if (status === undefined && assigneeId === undefined) return before;

  let assigneeEmail: string | null = null;
  if (assigneeId !== undefined && assigneeId !== null) {
    // A release manager sees no leads, so takes none.
    const assignee = await db.kysely
      .selectFrom('staff_members')
      .select('email')
      .where('id', '=', assigneeId)
      .where('removed_at', 'is', null)
      .where('role', '!=', 'release_manager')
      .executeTakeFirst();
    if (!assignee) throw new ApiError(400, 'ASSIGNEE_UNKNOWN', STAFF_MESSAGES.assigneeUnknown);
    assigneeEmail = assignee.email;
  }
  const changed = await db.kysely.transaction().execute(async (trx) => {
    const now = clock.now();
    const at = now.toISOString();
    const result = await trx
      .updateTable('leads')
      .set((eb) => ({
        ...(status !== undefined && { status }),
        ...(assigneeId !== undefined && { assignee_id: assigneeId }),
        version: eb('version', '+', 1),
        updated_at: at,
        last_activity_at: at,
      }))
      .where('id', '=', id)
      .where('version', '=', update.version)
      .executeTakeFirst();
    // Another save came between the read above and this one.
    if (Number(result.numUpdatedRows) !== 1) return false;
    if (status !== undefined) {
      await history(trx, id, actor, 'status', before.status, status, at);
      if (isAnswer(before.status, status)) await firstResponse(trx, id, before.receivedAt, actor, now);
      await recordAudit(trx, { actorId: actor.member.id, actor: actor.member.email, action: 'lead-status-changed', target: `lead:${id}`, address: actor.address, detail: { from: before.status, to: status } });
    }
    if (assigneeId !== undefined) {
      await history(trx, id, actor, 'assignee', before.assignee?.email ?? null, assigneeEmail, at);
      await recordAudit(trx, { actorId: actor.member.id, actor: actor.member.email, action: 'lead-assigned', target: `lead:${id}`, address: actor.address, detail: { from: before.assignee?.id ?? null, to: assigneeId } });
    }
    return true;
  });
  const current = (await findLeadSummary(db, id))!;
  if (!changed) throw new LeadChangedError(current);
  return current;
}

export async function addNote(db: Db, id: number, text: string, actor: Actor, clock: Clock): Promise<{ id: number; author: string; text: string; createdAt: string }> {
  const lead = await findLeadRow(db, id);
  if (!lead) throw new ApiError(404, 'LEAD_NOT_FOUND', STAFF_MESSAGES.leadNotFound);
  return db.kysely.transaction().execute(async (trx) => {
    const now = clock.now();
    const at = now.toISOString();
    const note = await trx.insertInto('lead_notes').values({ lead_id: id, author_id: actor.member.id, text, created_at: at }).returning('id').executeTakeFirstOrThrow();
    // A note is work on the lead (retention counts from it) but not a change of its state: the version stays.
    await trx.updateTable('leads').set({ last_activity_at: at }).where('id', '=', id).execute();
    await history(trx, id, actor, 'note', null, null, at);
    await firstResponse(trx, id, lead.received_at, actor, now);
    await recordAudit(trx, { actorId: actor.member.id, actor: actor.member.email, action: 'lead-note-added', target: `lead:${id}`, address: actor.address, detail: { note: Number(note.id) } });
    return { id: Number(note.id), author: actor.member.email, text, createdAt: at };
  });
}

/** Marks the leads «Спам» (those not already); resolves to how many changed. */
export async function markSpam(db: Db, ids: readonly number[], actor: Actor): Promise<number> {
  return db.kysely.transaction().execute(async (trx) => {
    const at = new Date().toISOString();
    const leads = await trx.selectFrom('leads').select(['id', 'status', 'kind', 'submission_id']).where('id', 'in', [...ids]).where('status', '!=', 'spam').execute();
    if (leads.length === 0) return 0;
    await trx
      .updateTable('leads')
      .set((eb) => ({ status: 'spam', version: eb('version', '+', 1), updated_at: at, last_activity_at: at }))
      .where('id', 'in', leads.map((lead) => Number(lead.id)))
      .execute();
    for (const lead of leads) await history(trx, Number(lead.id), actor, 'status', lead.status, 'spam', at);
    await cancelPendingReplies({ kysely: trx, dialect: db.dialect }, leads.map((lead) => ({ kind: lead.kind, id: Number(lead.submission_id) })));
    await recordAudit(trx, {
      actorId: actor.member.id,
      actor: actor.member.email,
      action: 'leads-marked-spam',
      target: 'leads',
      address: actor.address,
      detail: { ids: leads.map((lead) => Number(lead.id)), to: LEAD_STATUS_LABELS.spam },
    });
    return leads.length;
  });
}

export interface NotSpamOptions {
  /** The channels a lead is sent to. */
  channels: readonly ChannelName[];
  followUp: LeadFollowUp;
}

/**
 * «Не спам»: a lead marked spam (by the defence or by hand) back to «Нова», from `version`; its
 * notifications are sent now (unless it was sent before) and its e-mail and phone are trusted
 * from then on. With its history row and audit entry, in one transaction.
 */
export async function markNotSpam(db: Db, id: number, version: number, actor: Actor, options: NotSpamOptions): Promise<LeadSummary> {
  const before = await findLeadSummary(db, id);
  if (!before) throw new ApiError(404, 'LEAD_NOT_FOUND', STAFF_MESSAGES.leadNotFound);
  if (before.version !== version) throw new LeadChangedError(before);
  if (before.status !== 'spam') return before;
  const state = await options.followUp.state();
  const queued = await db.kysely.transaction().execute(async (trx) => {
    const at = options.followUp.clock.now();
    const iso = at.toISOString();
    const result = await trx
      .updateTable('leads')
      .set((eb) => ({ status: 'new', version: eb('version', '+', 1), updated_at: iso, last_activity_at: iso }))
      .where('id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return undefined;
    const sent = await releaseHeldLead({ kysely: trx, dialect: db.dialect }, id, options.channels, options.followUp, state, at);
    await history(trx, id, actor, 'status', 'spam', 'new', iso);
    await recordAudit(trx, { actorId: actor.member.id, actor: actor.member.email, action: 'lead-not-spam', target: `lead:${id}`, address: actor.address, detail: { reasons: before.spamReasons, notified: sent } });
    return sent;
  });
  const current = (await findLeadSummary(db, id))!;
  // Queued rows are the outbox worker's at its next poll (within a second).
  if (queued === undefined) throw new LeadChangedError(current);
  return current;
}

/**
 * Unlinks a lead from the person it was joined to (they were not the same person), from `version`:
 * it stands alone from then on, with its history row and audit entry. A lead of nobody else's is
 * returned as it is.
 */
export async function unlinkLead(db: Db, id: number, version: number, actor: Actor, clock: Clock): Promise<LeadSummary> {
  const before = await findLeadRow(db, id);
  if (!before) throw new ApiError(404, 'LEAD_NOT_FOUND', STAFF_MESSAGES.leadNotFound);
  if (Number(before.version) !== version) throw new LeadChangedError((await findLeadSummary(db, id))!);
  if (before.person_id === null) return (await findLeadSummary(db, id))!;
  const changed = await db.kysely.transaction().execute(async (trx) => {
    const at = clock.now().toISOString();
    const result = await trx
      .updateTable('leads')
      .set((eb) => ({ person_id: null, version: eb('version', '+', 1), updated_at: at }))
      .where('id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await history(trx, id, actor, 'person', String(before.person_id), null, at);
    await recordAudit(trx, { actorId: actor.member.id, actor: actor.member.email, action: 'lead-unlinked', target: `lead:${id}`, address: actor.address, detail: { person: Number(before.person_id) } });
    return true;
  });
  const current = (await findLeadSummary(db, id))!;
  if (!changed) throw new LeadChangedError(current);
  return current;
}
