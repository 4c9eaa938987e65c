import { SERVICE_TYPES, workingMsBetween, type LeadFilter, type LeadKind, type LeadPage, type LeadStatus, type LeadSummary, type SpamReasonCode } from '@agency/shared';
import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../../platform/db/connection';
import type { DatabaseSchema } from '../../platform/db/schema';
import { kyivDayStart } from '@agency/shared';
import { leadSearchCondition } from './lead-search-query';

/**
 * The staff inbox over the `leads` index: one list of both kinds, newest first, paged by id
 * (keyset: a page costs the same at any depth), each filter backed by an index on (column, id).
 * Names, e-mails and subjects are read from the submissions for the page's rows alone.
 */

type LeadQuery = SelectQueryBuilder<DatabaseSchema, 'leads' | 'staff_members', object>;

const SERVICE_LABELS: Record<string, string> = Object.fromEntries(SERVICE_TYPES.map((type) => [type.value, type.label]));

/** `filter` as conditions on `table` (leads, or an alias of it); spam is left out unless the filter asks for it. */
function filterConditions(db: Db, filter: LeadFilter, table: string): RawBuilder<boolean>[] {
  const column = (name: string) => sql.ref(`${table}.${name}`);
  const conditions: RawBuilder<boolean>[] = [];
  const where = (condition: RawBuilder<boolean>) => conditions.push(condition);
  where(filter.status !== undefined ? sql`${column('status')} = ${filter.status}` : sql`${column('status')} != 'spam'`);
  if (filter.kind !== undefined) where(sql`${column('kind')} = ${filter.kind}`);
  if (filter.source !== undefined) where(sql`${column('source')} = ${filter.source}`);
  if (filter.assignee === 'none') where(sql`${column('assignee_id')} is null`);
  else if (filter.assignee !== undefined) where(sql`${column('assignee_id')} = ${Number(filter.assignee)}`);
  if (filter.from !== undefined) where(sql`${column('received_at')} >= ${kyivDayStart(filter.from)}`);
  if (filter.to !== undefined) where(sql`${column('received_at')} < ${kyivDayStart(filter.to, 1)}`);
  if (filter.q !== undefined) {
    const condition = leadSearchCondition(db.dialect.name, filter.q, table);
    if (condition) where(condition);
  }
  return conditions;
}

/** Narrows a query on leads to `filter`; spam is left out unless the filter asks for it. */
export function applyLeadFilter<Q extends LeadQuery>(db: Db, query: Q, filter: LeadFilter): Q {
  return filterConditions(db, filter, 'leads').reduce((narrowed, condition) => narrowed.where(condition) as Q, query);
}

/**
 * A person once: a lead is left out of the list when a newer lead of the same person matches the
 * filter too (that one's row shows how many leads the person has). Probed by (person_id, id). A
 * search lists every lead it finds: it looks for one lead, not for a person.
 */
function newestOfPerson(db: Db, filter: LeadFilter): RawBuilder<boolean> {
  const newer = sql.join(filterConditions(db, filter, 'newer'), sql` and `);
  return sql<boolean>`not exists (select 1 from leads as newer where newer.person_id = leads.person_id and newer.id > leads.id and ${newer})`;
}

function leadsQuery(db: Db) {
  return db.kysely
    .selectFrom('leads')
    .leftJoin('staff_members', 'staff_members.id', 'leads.assignee_id')
    .select([
      'leads.id',
      'leads.kind',
      'leads.submission_id',
      'leads.received_at',
      'leads.source',
      'leads.status',
      'leads.version',
      'leads.assignee_id',
      'leads.spam_reasons',
      'leads.person_id',
      'leads.first_response_at',
      'leads.first_response_minutes',
      'leads.overdue_at',
      'staff_members.email as assignee_email',
      'staff_members.role as assignee_role',
    ]);
}

type LeadRow = Awaited<ReturnType<ReturnType<typeof leadsQuery>['execute']>>[number];

interface SubmissionFacts {
  name: string;
  email: string;
  subject: string;
}

/** Name, e-mail and subject of each row's submission, read in one query per kind. */
async function factsOf(db: Db, rows: readonly LeadRow[]): Promise<Map<string, SubmissionFacts>> {
  const facts = new Map<string, SubmissionFacts>();
  const idsOf = (kind: LeadKind) => rows.filter((row) => row.kind === kind).map((row) => Number(row.submission_id));
  const contactIds = idsOf('contact');
  const applicationIds = idsOf('applications');
  if (contactIds.length > 0) {
    const found = await db.kysely.selectFrom('contact_messages').select(['id', 'name', 'email', 'service_type']).where('id', 'in', contactIds).execute();
    for (const row of found) facts.set(`contact ${row.id}`, { name: row.name, email: row.email, subject: SERVICE_LABELS[row.service_type] ?? '' });
  }
  if (applicationIds.length > 0) {
    const found = await db.kysely.selectFrom('job_applications').select(['id', 'name', 'email', 'position']).where('id', 'in', applicationIds).execute();
    for (const row of found) facts.set(`applications ${row.id}`, { name: row.name, email: row.email, subject: row.position });
  }
  return facts;
}

/** How many leads (spam aside) each person of these rows has. */
async function personCounts(db: Db, rows: readonly LeadRow[]): Promise<Map<number, number>> {
  const people = [...new Set(rows.filter((row) => row.person_id !== null).map((row) => Number(row.person_id)))];
  if (people.length === 0) return new Map();
  const counts = await db.kysely
    .selectFrom('leads')
    .select((eb) => ['person_id', eb.fn.countAll<number | string>().as('n')])
    .where('person_id', 'in', people)
    .where('status', '!=', 'spam')
    .groupBy('person_id')
    .execute();
  return new Map(counts.map((row) => [Number(row.person_id), Number(row.n)]));
}

function summaryOf(row: LeadRow, facts: SubmissionFacts | undefined, personLeads: number, now: Date): LeadSummary {
  const waiting = row.first_response_at === null && row.status !== 'spam';
  return {
    id: Number(row.id),
    kind: row.kind,
    receivedAt: row.received_at,
    name: facts?.name ?? '',
    email: facts?.email ?? '',
    subject: facts?.subject ?? '',
    source: row.source,
    status: row.status,
    assignee: row.assignee_id === null ? null : { id: Number(row.assignee_id), email: row.assignee_email ?? '', role: row.assignee_role ?? 'viewer' },
    version: Number(row.version),
    spamReasons: row.spam_reasons === null ? [] : (JSON.parse(row.spam_reasons) as SpamReasonCode[]),
    personLeads,
    firstResponseAt: row.first_response_at,
    waitedMinutes: waiting ? Math.floor(workingMsBetween(new Date(row.received_at), now) / 60_000) : (row.first_response_minutes ?? 0),
    // Set by the overdue check (within a minute of the target passing), which also sends its alert.
    overdue: waiting && row.status === 'new' && row.overdue_at !== null,
  };
}

async function summaries(db: Db, rows: readonly LeadRow[], now = new Date()): Promise<LeadSummary[]> {
  const [facts, people] = await Promise.all([factsOf(db, rows), personCounts(db, rows)]);
  return rows.map((row) => summaryOf(row, facts.get(`${row.kind} ${row.submission_id}`), row.person_id === null ? 1 : (people.get(Number(row.person_id)) ?? 1), now));
}

export interface LeadListOptions {
  filter: LeadFilter;
  /** Older than this id (the previous page's `next`). */
  before?: number;
  /** Newer than this id. */
  after?: number;
  limit: number;
}

export async function listLeads(db: Db, { filter, before, after, limit }: LeadListOptions, now = new Date()): Promise<LeadPage> {
  let query = applyLeadFilter(db, leadsQuery(db), filter);
  if (filter.q === undefined) query = query.where(newestOfPerson(db, filter));
  if (before !== undefined) query = query.where('leads.id', '<', before);
  if (after !== undefined) query = query.where('leads.id', '>', after);
  const [rows, held] = await Promise.all([query.orderBy('leads.id', 'desc').limit(limit + 1).execute(), heldSince(db, new Date(now.getTime() - HELD_WINDOW_MS))]);
  const leads = await summaries(db, rows.slice(0, limit), now);
  return { leads, next: rows.length > limit ? leads[leads.length - 1]!.id : null, heldThisWeek: held };
}

/** The window of the inbox's "held this week". */
const HELD_WINDOW_MS = 7 * 24 * 3_600_000;

/** Leads the spam defence held that arrived from `since` on (let through since or not). */
async function heldSince(db: Db, since: Date): Promise<number> {
  const row = await db.kysely
    .selectFrom('leads')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('received_at', '>=', since.toISOString())
    .where('spam_reasons', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findLeadSummary(db: Db, id: number, now = new Date()): Promise<LeadSummary | undefined> {
  const row = await leadsQuery(db).where('leads.id', '=', id).executeTakeFirst();
  return row && (await summaries(db, [row], now))[0];
}

/** Index rows of leads `narrow` picks (with the columns summaries need). */
export async function findLeadRows(db: Db, narrow: (query: ReturnType<typeof leadsQuery>) => ReturnType<typeof leadsQuery>): Promise<LeadRow[]> {
  return narrow(leadsQuery(db)).execute();
}

/** The lead's index row alone (kind and submission), for the page that shows it whole. */
export async function findLeadRow(db: Db, id: number) {
  return leadsQuery(db).where('leads.id', '=', id).executeTakeFirst();
}

export type { LeadRow, LeadStatus };
export { summaries as leadSummaries };
