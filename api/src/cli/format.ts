import type { StoredContactMessage, StoredJobApplication, SubmissionKind } from '../db/repository';

export const COLUMNS: Record<SubmissionKind, readonly string[]> = {
  contact: ['id', 'created_at', 'name', 'email', 'phone', 'company', 'service_type', 'message', 'user_agent', 'referrer'],
  applications: ['id', 'created_at', 'name', 'email', 'phone', 'city', 'position', 'resume_text', 'user_agent', 'referrer'],
};

/** Byte order mark: tells spreadsheets the file is UTF-8, so Ukrainian text opens intact. */
export const BOM = '\uFEFF';

type Row = StoredContactMessage | StoredJobApplication;

/**
 * One CSV cell (RFC 4180). Text that a spreadsheet would run as a formula (= + - @ at the
 * start) is prefixed with an apostrophe, the usual defence against CSV injection.
 */
export function csvCell(value: unknown, delimiter: string): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  const needsQuotes = text.includes(delimiter) || /["\r\n]/.test(text) || text !== text.trim();
  return needsQuotes ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(kind: SubmissionKind, rows: readonly Row[], delimiter = ','): string {
  const columns = COLUMNS[kind];
  const lines = [columns.join(delimiter)];
  for (const row of rows) {
    const record = row as unknown as Record<string, unknown>;
    lines.push(columns.map((column) => csvCell(record[column], delimiter)).join(delimiter));
  }
  return `${BOM}${lines.join('\r\n')}\r\n`;
}

export function toJson(kind: SubmissionKind, rows: readonly Row[]): string {
  const columns = COLUMNS[kind];
  const ordered = rows.map((row) => {
    const record = row as unknown as Record<string, unknown>;
    return Object.fromEntries(columns.map((column) => [column, record[column] ?? null]));
  });
  return `${JSON.stringify(ordered, null, 2)}\n`;
}
