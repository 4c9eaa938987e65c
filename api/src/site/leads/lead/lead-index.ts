import { sql } from 'kysely';
import type { Db } from '../../../platform/db/connection';
import type { SubmittedLead } from './lead-payload';

/**
 * The staff inbox's row of each lead (table `leads`: kind, arrival, source, work state) and its
 * searchable text (`lead_search`), written in the submission's own transaction: a stored lead is
 * always in the inbox, and a lead the inbox shows is always stored.
 */

/**
 * The words of a text as the inbox's search sees them: letters and digits, lower case; anything
 * else (punctuation, @, apostrophes, the Ukrainian ʼ) separates words. Both dialects index these words, and a
 * search is cut into words the same way, so SQLite and PostgreSQL find the same leads.
 */
export function searchWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{Ll}\p{Lu}\p{Lt}\p{Lo}\p{N}]+/gu) ?? [];
}

/** How many of a phone's last digits tell numbers apart: a Ukrainian number without +380 or 0. */
export const PHONE_KEY_DIGITS = 9;

/** A phone number however it was typed (+380 67…, 067…, 67…, with spaces or dashes): its deciding digits. */
export function phoneKey(phone: string): string {
  return phone.replace(/\D/g, '').slice(-PHONE_KEY_DIGITS);
}

/** An e-mail as leads are told apart by it: case does not matter. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * What a search finds a lead by: name, e-mail, phone, company and the message or résumé. The
 * phone also as its digits alone and as its phoneKey, since visitors type it every way.
 */
export function leadSearchText(entry: SubmittedLead): string {
  const { submission } = entry;
  const fields = entry.kind === 'contact' ? [submission.name, submission.email, entry.submission.company, entry.submission.message] : [submission.name, submission.email, entry.submission.resume_text];
  const digits = submission.phone.replace(/\D/g, '');
  return searchWords([...fields, submission.phone, digits, phoneKey(submission.phone)].join(' ')).join(' ');
}

/** Where a lead came from, as the inbox shows and filters it: the campaign's source, else the referring site. */
export function leadSource(attribution: { utm_source?: string | null; referrer_host?: string | null } | null): string {
  return attribution?.utm_source || attribution?.referrer_host || '';
}

/** What the spam defence decided of a lead as it arrived, and what it counts the sender's leads by. */
export interface LeadArrival {
  /** Held: the lead arrives as «Спам» with the reasons (a JSON array); null when it was let through. */
  spam_reasons: string | null;
  email_key: string | null;
  phone_key: string | null;
  address_key: string | null;
  message_key: string | null;
}

/** A lead that arrived without the spam defence's judgement (a command, an import): let through, its keys from its fields. */
export function arrivalOf(entry: SubmittedLead): LeadArrival {
  return { spam_reasons: null, email_key: emailKey(entry.submission.email), phone_key: phoneKey(entry.submission.phone), address_key: null, message_key: null };
}

/** Indexes a stored submission; call inside the transaction that stored it. Resolves to the lead's id. */
export async function indexLead(db: Db, entry: SubmittedLead, submissionId: number, source: string, receivedAt: Date, arrival: LeadArrival = arrivalOf(entry)): Promise<number> {
  const at = receivedAt.toISOString();
  const status = arrival.spam_reasons === null ? ('new' as const) : ('spam' as const);
  const row = { kind: entry.kind, submission_id: submissionId, received_at: at, source, status, version: 1, updated_at: at, last_activity_at: at, ...arrival };
  const text = leadSearchText(entry);
  if (db.dialect.name === 'postgres') {
    // One round trip for both rows: each costs a submission as much as the insert itself.
    const { rows } = await sql<{ id: number }>`with lead as (
        insert into leads (kind, submission_id, received_at, source, status, version, updated_at, last_activity_at, spam_reasons, email_key, phone_key, address_key, message_key)
        values (${row.kind}, ${row.submission_id}, ${row.received_at}, ${row.source}, ${row.status}, ${row.version}, ${row.updated_at}, ${row.last_activity_at},
          ${row.spam_reasons}, ${row.email_key}, ${row.phone_key}, ${row.address_key}, ${row.message_key})
        returning id
      )
      insert into lead_search (lead_id, document) select id, to_tsvector('simple', ${text}) from lead returning lead_id as id`.execute(db.kysely);
    return Number(rows[0]!.id);
  }
  const { id } = await db.kysely.insertInto('leads').values(row).returning('id').executeTakeFirstOrThrow();
  await sql`insert into lead_search (rowid, text) values (${id}, ${text})`.execute(db.kysely);
  return Number(id);
}

/** Rewrites a lead's searchable text, and the e-mail and phone it is counted by, after a correction of what the visitor sent. */
export async function reindexLead(db: Db, leadId: number, entry: SubmittedLead): Promise<void> {
  const text = leadSearchText(entry);
  const { email_key, phone_key } = arrivalOf(entry);
  await db.kysely.updateTable('leads').set({ email_key, phone_key }).where('id', '=', leadId).execute();
  if (db.dialect.name === 'postgres') {
    await sql`update lead_search set document = to_tsvector('simple', ${text}) where lead_id = ${leadId}`.execute(db.kysely);
  } else {
    await sql`update lead_search set text = ${text} where rowid = ${leadId}`.execute(db.kysely);
  }
}
