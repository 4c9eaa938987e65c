import { LEAD_KINDS, type LeadFilter, type LeadKind } from '@agency/shared';
import type { Db } from '../../platform/db/connection';
import { SUBMISSION_COLUMNS } from '../../site/leads';
import { BOM, csvCell } from '../../platform/lib/csv-cell';
import { applyLeadFilter } from './inbox-repository';

/**
 * «Експорт CSV»: the inbox's filtered list as the CLI exports leads (the same columns, the same
 * formula-safe cells, UTF-8 with a byte-order mark) plus each lead's kind, status and assignee.
 * `;` separates cells: what Excel expects on a Ukrainian Windows. Read and written in batches,
 * so an export of every lead never holds them all in memory.
 */
export const EXPORT_DELIMITER = ';';
const BATCH = 1000;

/** The kinds' columns merged in order: a filter on one kind gets exactly that kind's columns. */
export function exportColumns(kind: LeadKind | undefined): string[] {
  const columns = ['lead_id', 'kind', 'status', 'assignee'];
  for (const each of kind ? [kind] : LEAD_KINDS) {
    for (const column of SUBMISSION_COLUMNS[each]) if (!columns.includes(column)) columns.push(column);
  }
  return columns;
}

const line = (values: readonly unknown[]) => `${values.map((value) => csvCell(value, EXPORT_DELIMITER)).join(EXPORT_DELIMITER)}\r\n`;

/** How many leads an export of `filter` holds (what the audit log records before the file is sent). */
export async function countLeads(db: Db, filter: LeadFilter): Promise<number> {
  const { count } = await applyLeadFilter(db, db.kysely.selectFrom('leads').leftJoin('staff_members', 'staff_members.id', 'leads.assignee_id').select((eb) => eb.fn.countAll().as('count')), filter).executeTakeFirstOrThrow();
  return Number(count);
}

/** The CSV's text in pieces. */
export async function* leadCsv(db: Db, filter: LeadFilter): AsyncGenerator<string> {
  const columns = exportColumns(filter.kind);
  yield BOM + line(columns);
  let before: number | undefined;
  for (;;) {
    let query = applyLeadFilter(
      db,
      db.kysely
        .selectFrom('leads')
        .leftJoin('staff_members', 'staff_members.id', 'leads.assignee_id')
        .select(['leads.id', 'leads.kind', 'leads.submission_id', 'leads.status', 'staff_members.email as assignee']),
      filter,
    );
    if (before !== undefined) query = query.where('leads.id', '<', before);
    const leads = await query.orderBy('leads.id', 'desc').limit(BATCH).execute();
    if (leads.length === 0) break;
    const rowsOf = async (kind: LeadKind) => {
      const ids = leads.filter((lead) => lead.kind === kind).map((lead) => Number(lead.submission_id));
      if (ids.length === 0) return new Map<number, Record<string, unknown>>();
      const table = kind === 'contact' ? 'contact_messages' : 'job_applications';
      const rows = (await db.kysely.selectFrom(table).selectAll().where('id', 'in', ids).execute()) as Record<string, unknown>[];
      return new Map(rows.map((row) => [Number(row.id), { ...row, created_at: db.dialect.readTimestamp(row.created_at) }]));
    };
    const submissions = { contact: await rowsOf('contact'), applications: await rowsOf('applications') };
    let text = '';
    for (const lead of leads) {
      const submission = submissions[lead.kind].get(Number(lead.submission_id)) ?? {};
      const record: Record<string, unknown> = { ...submission, lead_id: Number(lead.id), kind: lead.kind, status: lead.status, assignee: lead.assignee ?? '' };
      text += line(columns.map((column) => record[column]));
    }
    yield text;
    before = Number(leads[leads.length - 1]!.id);
  }
}
