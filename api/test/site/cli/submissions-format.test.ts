import { ATTRIBUTION_KEYS, type AttributionKey } from '@agency/shared';
import { csvCell, toCsv } from '../../../src/site/cli/submissions-format';
import type { StoredContactMessage } from '../../../src/site/leads/submissions/submissions-repository';
import { parseCsv } from '../../helpers/csv';

// What a spreadsheet does with the export: it splits on its own list separator (`;` in
// Ukrainian Excel, whatever delimiter the file was written with) and runs any cell that
// starts with = + - @ as a formula.

const runsAsFormula = (cell: string) => /^[ \t]*[=+\-@]/.test(cell);

function contact(overrides: Partial<StoredContactMessage>): StoredContactMessage {
  return {
    id: 7,
    created_at: '2026-11-22T10:00:00.000Z',
    name: 'Олена',
    email: 'olena@example.com',
    phone: '0671234567',
    company: '',
    service_type: '',
    message: 'Добрий день',
    user_agent: null,
    referrer: null,
    ...(Object.fromEntries(ATTRIBUTION_KEYS.map((key) => [key, null])) as Record<AttributionKey, null>),
    ...overrides,
  };
}

describe('csvCell', () => {
  it('quotes every cell, so a separator inside a value never splits it', () => {
    expect(csvCell('Іван', ',')).toBe('"Іван"');
    expect(csvCell(12, ',')).toBe('"12"');
    expect(csvCell('', ',')).toBe('""');
    expect(csvCell(null, ',')).toBe('');
    for (const separator of [',', ';', '\t', '|']) {
      expect(parseCsv(csvCell('Ivan;=1+2,x|y\tz', ','), separator)).toEqual([["Ivan;'=1+2,x|y\tz"]]);
    }
  });

  it.each([
    ['a formula after the other separator', 'Ivan;=1+2', "Ivan;'=1+2"],
    ['a formula after a comma', 'Ivan,+1', "Ivan,'+1"],
    ['a formula on a new line', 'Привіт\n=HYPERLINK("http://evil")', 'Привіт\n\'=HYPERLINK(""http://evil"")'],
    ['a formula after a carriage return and spaces', 'a\r  @SUM(1)', "a\r  '@SUM(1)"],
    ['a formula after a tab', 'a\t-2+3', "a\t'-2+3"],
    ['a formula after a pipe', 'a|=1', "a|'=1"],
    ['a formula at the start', '=1+2', "'=1+2"],
  ])('neutralises %s', (_case, value, expected) => {
    expect(csvCell(value, ',')).toBe(`"${expected}"`);
  });

  it('neutralises a formula after the chosen delimiter too', () => {
    expect(csvCell('a#=1', '#')).toBe(`"a#'=1"`);
  });

  it('writes control characters (ESC and the like) as visible escapes', () => {
    expect(csvCell('red\u001b[31m text\u0007\u007f', ',')).toBe('"red\\x1B[31m text\\x07\\x7F"');
    expect(csvCell('рядок 1\nрядок 2\tтаб', ',')).toBe('"рядок 1\nрядок 2\tтаб"');
  });
});

describe('toCsv', () => {
  it('leaves no cell a spreadsheet would run as a formula, whichever separator it splits on', () => {
    const csv = toCsv('contact', [
      contact({
        name: 'Ivan;=1+2',
        message: 'Рядок\n=cmd|" /C calc"!A0',
        user_agent: 'Mozilla;=HYPERLINK("http://evil","x")',
        referrer: 'http://a.example/?q=1;@SUM(1)',
        // Campaign tags come from whoever wrote the link.
        utm_source: '@SUM(1)',
        utm_campaign: '=HYPERLINK("http://evil","x")',
        utm_content: 'ad;-2+3',
      }),
    ]);
    const text = csv.replace(/^\uFEFF/, '');
    for (const separator of [',', ';', '\t', '|']) {
      // A spreadsheet that ignores the quoting and splits the raw line.
      const cells = text.split(/\r\n|\n|\r/).flatMap((line) => line.split(separator));
      expect(cells.filter((cell) => runsAsFormula(cell.replace(/^"/, '')))).toEqual([]);
      // One that honours the quotes.
      const quotedCells = parseCsv(text, separator).flat();
      expect(quotedCells.filter(runsAsFormula)).toEqual([]);
    }
  });

  it('quotes the header too and ends every line with CRLF after a BOM', () => {
    const csv = toCsv('contact', [contact({})], ';');
    expect(csv.startsWith('\uFEFF"id";"created_at";"name"')).toBe(true);
    expect(csv.endsWith('\r\n')).toBe(true);
  });
});
