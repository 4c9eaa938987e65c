import { SERVICE_TYPES, type LeadFilter, type LeadKind, type LeadPage, type LeadStatus, type LeadSummary, type SpamReasonCode } from '@agency/shared';
import type { SelectQueryBuilder } from 'kysely';
import type { Db } from '../../platform/db/connection';
import type { DatabaseSchema } from '../../platform/db/schema';
import { kyivDayStart } from './kyiv-days';
import { leadSearchCondition } from './lead-search-query';

/**
 * The staff inbox over the `leads` index: one list of both kinds, newest first, paged by id
 * (keyset: a page costs the same at any depth), each filter backed by an index on (column, id).
 * Names, e-mails and subjects are read from the submissions for the page's rows alone.
 */

type LeadQuery = SelectQueryBuilder<DatabaseSchema, 'leads' | 'staff_members', object>;

const SERVICE_LABELS: Record<string, string> = Object.fromEntries(SERVICE_TYPES.map((type) => [type.value, type.label]));

/** Narrows a query on leads to `filter`; spam is left out unless the filter asks for it. */
export function applyLeadFilter<Q extends LeadQuery>(db: Db, query: Q, filter: LeadFilter): Q {
  let narrowed = query;
  const where = (apply: (q: Q) => Q) => (narrowed = apply(narrowed));
  if (filter.status !== undefined) where((q) => q.where('leads.status', '=', filter.status!) as Q);
  else where((q) => q.where('leads.status', '!=', 'spam') as Q);
  if (filter.kind !== undefined) where((q) => q.where('leads.kind', '=', filter.kind!) as Q);
  if (filter.source !== undefined) where((q) => q.where('leads.source', '=', filter.source!) as Q);
  if (filter.assignee === 'none') where((q) => q.where('leads.assignee_id', 'is', null) as Q);
  else if (filter.assignee !== undefined) where((q) => q.where('leads.assignee_id', '=', Number(filter.assignee)) as Q);
  if (filter.from !== undefined) where((q) => q.where('leads.received_at', '>=', kyivDayStart(filter.from!)) as Q);
  if (filter.to !== undefined) where((q) => q.where('leads.received_at', '<', kyivDayStart(filter.to!, 1)) as Q);
  if (filter.q !== undefined) {
    const condition = leadSearchCondition(db.dialect.name, filter.q);
    if (condition) where((q) => q.where(condition) as Q);
  }
  return narrowed;
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

function summaryOf(row: LeadRow, facts: SubmissionFacts | undefined): LeadSummary {
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
  };
}

async function summaries(db: Db, rows: readonly LeadRow[]): Promise<LeadSummary[]> {
  const facts = await factsOf(db, rows);
  return rows.map((row) => summaryOf(row, facts.get(`${row.kind} ${row.submission_id}`)));
}

export interface LeadListOptions {
  filter: LeadFilter;
  /** Older than this id (the previous page's `next`). */
  before?: number;
  /** Newer than this id. */
  after?: number;
  limit: number;
}

export async function listLeads(db: Db, { filter, before, after, limit }: LeadListOptions, now = Date.now()): Promise<LeadPage> {
  let query = applyLeadFilter(db, leadsQuery(db), filter);
  if (before !== undefined) query = query.where('leads.id', '<', before);
  if (after !== undefined) query = query.where('leads.id', '>', after);
  const [rows, held] = await Promise.all([query.orderBy('leads.id', 'desc').limit(limit + 1).execute(), heldSince(db, new Date(now - HELD_WINDOW_MS))]);
  const leads = await summaries(db, rows.slice(0, limit));
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

export async function findLeadSummary(db: Db, id: number): Promise<LeadSummary | undefined> {
  const row = await leadsQuery(db).where('leads.id', '=', id).executeTakeFirst();
  return row && (await summaries(db, [row]))[0];
}

/** The lead's index row alone (kind and submission), for the page that shows it whole. */
export async function findLeadRow(db: Db, id: number) {
  return leadsQuery(db).where('leads.id', '=', id).executeTakeFirst();
}

export type { LeadRow, LeadStatus };
export { summaries as leadSummaries };
