import type { ChannelName } from '../../../platform/config/leads';
import type { Db } from '../../../platform/db/connection';
import type { FollowUpState, LeadFollowUp } from '../follow-up/lead-follow-up';
import { wasQueued } from '../outbox/outbox-repository';
import { siteSecret } from '../../../platform/db/site-secrets';
import { trustedSenderKeys } from '../spam/sender-keys';
import { SPAM_SECRET_NAMES } from '../spam/spam-defence';
import { readLeadPayload } from './submissions-repository';

/**
 * «Не спам»: what letting a held lead through does on the site's side, inside the caller's
 * transaction (which also moves its status and audits it): its e-mail and phone are trusted from
 * then on, so the defence never holds them again, and, unless it was queued before (a lead marked
 * spam by hand after it was sent is not sent twice), it is let through as a new lead is: joined to
 * the person, assigned in turn, queued to the channels, answered. Resolves to whether it was queued.
 */
export async function releaseHeldLead(db: Db, leadId: number, channels: readonly ChannelName[], followUp: LeadFollowUp, state: FollowUpState, at: Date): Promise<boolean> {
  const lead = await db.kysely.selectFrom('leads').select(['kind', 'submission_id', 'assignee_id', 'email_key', 'phone_key']).where('id', '=', leadId).executeTakeFirst();
  if (!lead) return false;
  const payload = await readLeadPayload(db, lead.kind, Number(lead.submission_id));
  if (!payload) return false;
  const secret = await siteSecret(db, SPAM_SECRET_NAMES.sender);
  const trusted = trustedSenderKeys(secret, payload.submission).map((sender_key) => ({ sender_key, trusted_at: at.toISOString() }));
  await db.kysely.insertInto('spam_trusted_senders').values(trusted).onConflict((conflict) => conflict.column('sender_key').doNothing()).execute();
  if (await wasQueued(db, payload.kind, payload.id)) return false;
  const assigneeId = lead.assignee_id === null ? null : Number(lead.assignee_id);
  await followUp.letThrough(db, { leadId, payload, keys: lead, assigneeId, channels, at, state });
  return channels.length > 0;
}

/**
 * Forgets that staff vouched for these senders (their leads are being removed: retention or an
 * erasure): a trust must not outlive the leads it was given for. Resolves to how many were kept.
 */
export async function forgetTrustedSenders(db: Db, senders: readonly { email: string; phone: string }[]): Promise<number> {
  if (senders.length === 0) return 0;
  const secret = await siteSecret(db, SPAM_SECRET_NAMES.sender);
  const keys = senders.flatMap((sender) => trustedSenderKeys(secret, sender));
  const result = await db.kysely.deleteFrom('spam_trusted_senders').where('sender_key', 'in', keys).executeTakeFirst();
  return Number(result.numDeletedRows);
}
