/** Byte order mark: tells spreadsheets the file is UTF-8, so Ukrainian text opens intact. */
export const BOM = '\uFEFF';

/** Characters that start a formula in Excel, LibreOffice or Google Sheets. */
const FORMULA_START = '=+\\-@';

/**
 * Where a spreadsheet may begin a new cell: the start of the text, after a line break, or after
 * a separator it might split on whatever delimiter the file was written with (Ukrainian Excel
 * splits on `;`, others on `,`, tab or `|`). Spaces before a formula do not defuse it.
 */
const CELL_STARTS = (delimiter: string) =>
  new RegExp(`(^|[\\r\\n,;\\t|${escapeForClass(delimiter)}])([ \\t]*)(?=[${FORMULA_START}])`, 'g');

function escapeForClass(char: string): string {
  return char.replace(/[\\\]^-]/g, '\\$&');
}

/** C0 controls other than tab and line breaks, DEL and C1: a terminal or spreadsheet acts on them. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/**
 * One CSV cell (RFC 4180), always quoted, so no separator inside a value can split it in any
 * spreadsheet. Text a spreadsheet would run as a formula at any place where it may start a cell
 * gets an apostrophe before it (the usual defence against CSV injection, applied to the values
 * visitors type and to the stored User-Agent and Referer alike), and control characters are
 * written as visible `\xNN` escapes.
 */
export function csvCell(value: unknown, delimiter: string): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string') {
    text = text
      .replace(CONTROL, (char) => `\\x${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
      .replace(CELL_STARTS(delimiter), "$1$2'");
  }
  return `"${text.replace(/"/g, '""')}"`;
}
