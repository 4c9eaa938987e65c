import { createHmac } from 'node:crypto';
import { EMAIL_PATTERN } from '@agency/shared/contracts';
import type { Db } from '../../platform/db/connection';
import { siteSecret } from '../../platform/db/site-secrets';
import { type LeadRef, PHONE_KEY_DIGITS, phoneKey, SUBMISSION_TABLES } from '../../site/leads';
import { leadSearchCondition } from '../inbox/lead-search-query';

/**
 * The person a request is about, named as they name themselves: an e-mail (any case) or a phone
 * number with at least nine digits (any spelling: its phoneKey decides, as in the inbox's search,
 * so +380 67…, 067… and 67… are one number).
 */
export type DataSubject = { matchedBy: 'email'; email: string } | { matchedBy: 'phone'; digits: string };

const EMAIL = new RegExp(EMAIL_PATTERN);

export function parseDataSubject(input: string): DataSubject | undefined {
  const text = input.trim();
  if (text.includes('@')) return EMAIL.test(text) ? { matchedBy: 'email', email: text.toLowerCase() } : undefined;
  if (/[^\d\s()+-]/.test(text)) return undefined;
  const digits = text.replace(/\D/g, '');
  return digits.length >= PHONE_KEY_DIGITS && digits.length <= 20 ? { matchedBy: 'phone', digits: phoneKey(text) } : undefined;
}

/** The subject as searched for and shown: the e-mail in lower case, or the phone's deciding digits. */
export function subjectText(subject: DataSubject): string {
  return subject.matchedBy === 'email' ? subject.email : subject.digits;
}

function matches(subject: DataSubject, row: { email: string; phone: string }): boolean {
  if (subject.matchedBy === 'email') return row.email.trim().toLowerCase() === subject.email;
  return phoneKey(row.phone) === subject.digits;
}

/**
 * Every lead of the person, of both kinds and any status (spam too). The search index narrows
 * the leads to look at; the e-mail or phone stored with each decides.
 */
export async function findSubjectLeads(db: Db, subject: DataSubject): Promise<LeadRef[]> {
  const condition = leadSearchCondition(db.dialect.name, subjectText(subject));
  if (!condition) return [];
  const candidates = await db.kysely.selectFrom('leads').select(['id', 'kind', 'submission_id']).where(condition).orderBy('id').execute();
  const found: LeadRef[] = [];
  for (const kind of Object.keys(SUBMISSION_TABLES) as (keyof typeof SUBMISSION_TABLES)[]) {
    const ofKind = candidates.filter((lead) => lead.kind === kind);
    if (ofKind.length === 0) continue;
    const rows = await db.kysely
      .selectFrom(SUBMISSION_TABLES[kind])
      .select(['id', 'email', 'phone'])
      .where(
        'id',
        'in',
        ofKind.map((lead) => Number(lead.submission_id)),
      )
      .execute();
    const theirs = new Set(rows.filter((row) => matches(subject, row)).map((row) => Number(row.id)));
    for (const lead of ofKind) if (theirs.has(Number(lead.submission_id))) found.push({ id: Number(lead.id), kind, submission_id: Number(lead.submission_id) });
  }
  return found.sort((a, b) => a.id - b.id);
}

/**
 * A keyed hash of the subject (HMAC-SHA256 with a secret of the site's database): the audit log
 * keeps it instead of the e-mail or phone, so "did you erase me?" can be answered by hashing the
 * question's address, while the log itself names nobody.
 */
export async function subjectHash(db: Db, subject: DataSubject): Promise<string> {
  return (await subjectHasher(db))(subject);
}

/** subjectHash for many subjects: the key read once. */
export async function subjectHasher(db: Db): Promise<(subject: DataSubject) => string> {
  const key = await subjectHashKey(db);
  return (subject) => createHmac('sha256', key).update(`${subject.matchedBy}:${subjectText(subject)}`).digest('base64url');
}

const SUBJECT_HASH_SECRET = 'data-subject-hash';

/**
 * The key of subjectHash, made when the console starts rather than at the first erasure: every
 * backup then holds it, so a restore recognises the people the erasure journal names.
 */
export function subjectHashKey(db: Db): Promise<string> {
  return siteSecret(db, SUBJECT_HASH_SECRET);
}

/** Whether the database holds the key already (a restored copy taken before it was made does not). */
export async function hasSubjectHashKey(db: Db): Promise<boolean> {
  return (await db.kysely.selectFrom('site_secrets').select('name').where('name', '=', SUBJECT_HASH_SECRET).executeTakeFirst()) !== undefined;
}
