import { sql } from 'kysely';
import type { Db } from '../../../platform/db/connection';
import { SUBMISSION_TABLES } from '../submissions/submissions-repository';
import type { SubmissionKind } from '../lead/lead-payload';
import { forgetTrustedSenders } from '../submissions/held-leads';

/** A lead as removal names it: its inbox id and the submission row it indexes. */
export interface LeadRef {
  id: number;
  kind: SubmissionKind;
  submission_id: number;
}

/** What a removal deleted, by table (rows). */
export type RemovedRows = Record<string, number>;

function count(result: { numDeletedRows: bigint } | undefined): number {
  return Number(result?.numDeletedRows ?? 0);
}

/**
 * Deletes leads whole: the submission as sent, its inbox row and searchable text, the staff's
 * notes and history on it, the notification outbox's rows for it (their copies of the lead), and
 * any trust staff gave its e-mail or phone («Не спам»). Call inside a transaction: a lead is
 * removed with everything that hangs off it, or not at all.
 */
export async function removeLeads(db: Db, leads: readonly LeadRef[]): Promise<RemovedRows> {
  const removed: RemovedRows = {};
  if (leads.length === 0) return removed;
  const ids = leads.map((lead) => lead.id);
  // The search index is raw SQL in both dialects (an FTS5 table keyed by rowid, a tsvector table).
  const searchKey = sql.ref(db.dialect.name === 'postgres' ? 'lead_id' : 'rowid');
  const { numAffectedRows } = await sql`delete from lead_search where ${searchKey} in (${sql.join(ids)})`.execute(db.kysely);
  removed.lead_search = Number(numAffectedRows ?? 0);
  removed.lead_notes = count(await db.kysely.deleteFrom('lead_notes').where('lead_id', 'in', ids).executeTakeFirst());
  removed.lead_history = count(await db.kysely.deleteFrom('lead_history').where('lead_id', 'in', ids).executeTakeFirst());
  removed.leads = count(await db.kysely.deleteFrom('leads').where('id', 'in', ids).executeTakeFirst());
  for (const kind of Object.keys(SUBMISSION_TABLES) as SubmissionKind[]) {
    const submissionIds = leads.filter((lead) => lead.kind === kind).map((lead) => lead.submission_id);
    if (submissionIds.length === 0) continue;
    const outbox = await db.kysely
      .deleteFrom('lead_outbox')
      .where('event', '=', 'lead.created')
      .where('submission_kind', '=', kind)
      .where('submission_id', 'in', submissionIds)
      .executeTakeFirst();
    removed.lead_outbox = (removed.lead_outbox ?? 0) + count(outbox);
    const table = SUBMISSION_TABLES[kind];
    const senders = await db.kysely.selectFrom(table).select(['email', 'phone']).where('id', 'in', submissionIds).execute();
    const trusts = await forgetTrustedSenders(db, senders);
    if (trusts > 0) removed.spam_trusted_senders = (removed.spam_trusted_senders ?? 0) + trusts;
    removed[table] = (removed[table] ?? 0) + count(await db.kysely.deleteFrom(table).where('id', 'in', submissionIds).executeTakeFirst());
  }
  return removed;
}

/** Adds one removal's counts to a running total. */
export function addRemoved(total: RemovedRows, more: RemovedRows): RemovedRows {
  for (const [table, rows] of Object.entries(more)) total[table] = (total[table] ?? 0) + rows;
  return total;
}
