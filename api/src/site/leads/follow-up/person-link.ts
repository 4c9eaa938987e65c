import { FOLLOW_UP_LIMITS } from '@agency/shared';
import type { Db } from '../../../platform/db/connection';
import type { SubmissionKind } from '../lead/lead-payload';

/**
 * People who write again: a new lead with the e-mail (any case) or phone (any spelling) of a lead
 * of the last 90 days, spam aside, is the same person's. Their leads share a `person_id` (the first
 * lead's id); staff may unlink one that is not.
 */

export interface EarlierLead {
  /** The inbox's id. */
  leadId: number;
  /** The person's id the new lead takes. */
  personId: number;
  kind: SubmissionKind;
  submissionId: number;
  receivedAt: string;
  /** The person's leads before the new one. */
  leads: number;
}

const WINDOW_MS = FOLLOW_UP_LIMITS.duplicateWindowDays * 86_400_000;

/** The latest lead before `leadId` with this e-mail or phone key (each side of the OR has its index). */
async function latestOf(db: Db, keys: { email_key: string | null; phone_key: string | null }, since: string, leadId: number) {
  const { email_key: email, phone_key: phone } = keys;
  if (!email && !phone) return undefined;
  return db.kysely
    .selectFrom('leads')
    .select(['id', 'person_id', 'kind', 'submission_id', 'received_at'])
    .where((eb) => eb.or([...(email ? [eb('email_key', '=', email)] : []), ...(phone ? [eb('phone_key', '=', phone)] : [])]))
    .where('received_at', '>=', since)
    .where('status', '!=', 'spam')
    .where('id', '<', leadId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The earlier lead (before `leadId`) the lead with these keys joins, or undefined for a first. Call inside the transaction that lets it through. */
export async function findEarlierLead(db: Db, keys: { email_key: string | null; phone_key: string | null }, at: Date, leadId: number): Promise<EarlierLead | undefined> {
  const since = new Date(at.getTime() - WINDOW_MS).toISOString();
  const latest = await latestOf(db, keys, since, leadId);
  if (!latest) return undefined;
  const earlierId = Number(latest.id);
  const personId = latest.person_id === null ? earlierId : Number(latest.person_id);
  let leads = 1;
  if (latest.person_id === null) {
    // The person's first lead joins its own person as the second arrives.
    await db.kysely.updateTable('leads').set({ person_id: earlierId }).where('id', '=', earlierId).execute();
  } else {
    const row = await db.kysely.selectFrom('leads').select((eb) => eb.fn.countAll<number | string>().as('n')).where('person_id', '=', personId).where('status', '!=', 'spam').executeTakeFirstOrThrow();
    leads = Number(row.n);
  }
  return { leadId: earlierId, personId, kind: latest.kind, submissionId: Number(latest.submission_id), receivedAt: latest.received_at, leads };
}
