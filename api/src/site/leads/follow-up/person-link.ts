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

/** The person's latest lead with this e-mail or phone key (each looked up by its own index). */
async function latestBy(db: Db, column: 'email_key' | 'phone_key', key: string | null, since: string, leadId: number) {
  if (!key) return undefined;
  return db.kysely
    .selectFrom('leads')
    .select(['id', 'person_id', 'kind', 'submission_id', 'received_at'])
    .where(column, '=', key)
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
  const byEmail = await latestBy(db, 'email_key', keys.email_key, since, leadId);
  const byPhone = await latestBy(db, 'phone_key', keys.phone_key, since, leadId);
  const latest = [byEmail, byPhone].filter((row) => row !== undefined).sort((a, b) => Number(b.id) - Number(a.id))[0];
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
