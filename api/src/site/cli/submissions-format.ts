import type { ConversionRow } from '../leads/submissions/conversion-report';
import type { SubmissionKind } from '../leads/lead/lead-payload';
import type { StoredContactMessage, StoredJobApplication } from '../leads/submissions/submissions-repository';
import type { OutboxEntry } from '../leads/outbox/outbox-repository';
import { BOM, csvCell } from '../../platform/lib/csv-cell';
import { SUBMISSION_COLUMNS } from '../leads/submissions/submission-columns';

export { BOM, csvCell };

/** What the CLI lists: submissions of one kind, the lead outbox's undelivered rows, or conversion by source. */
export type ListKind = SubmissionKind | 'outbox' | 'report';

export const COLUMNS: Record<ListKind, readonly string[]> = {
  ...SUBMISSION_COLUMNS,
  report: ['source', 'medium', 'campaign', 'sessions', 'contact', 'applications', 'conversion_rate'] satisfies (keyof ConversionRow)[],
  outbox: [
    'id',
    'status',
    'channel',
    'submission_kind',
    'submission_id',
    'attempts',
    'last_error',
    'next_attempt_at',
    'give_up_at',
    'created_at',
  ],
};

type Row = StoredContactMessage | StoredJobApplication | OutboxEntry | ConversionRow;

export function toCsv(kind: ListKind, rows: readonly Row[], delimiter = ','): string {
  const columns = COLUMNS[kind];
  const lines = [columns.map((column) => csvCell(column, delimiter)).join(delimiter)];
  for (const row of rows) {
    const record = row as unknown as Record<string, unknown>;
    lines.push(columns.map((column) => csvCell(record[column], delimiter)).join(delimiter));
  }
  return `${BOM}${lines.join('\r\n')}\r\n`;
}

export function toJson(kind: ListKind, rows: readonly Row[]): string {
  const columns = COLUMNS[kind];
  const ordered = rows.map((row) => {
    const record = row as unknown as Record<string, unknown>;
    return Object.fromEntries(columns.map((column) => [column, record[column] ?? null]));
  });
  return `${JSON.stringify(ordered, null, 2)}\n`;
}
