import { formatAmount, formatPriceFrom, formatSalaryRange } from './money';

// ICU versions differ in the space they group with (U+00A0 or U+202F); visitors see a space either way.
const normalise = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, ' ');

describe('money formatting', () => {
  it('groups thousands the uk-UA way', () => {
    expect(normalise(formatAmount(12500))).toBe('12 500');
    expect(normalise(formatAmount(900))).toBe('900');
    expect(normalise(formatAmount(1250000))).toBe('1 250 000');
  });

  it('never breaks a line inside an amount', () => {
    expect(formatPriceFrom(12500).split(' ')).toEqual(['від', expect.stringContaining('₴')]);
    expect(formatSalaryRange(20000, 30000).split(' ')).toHaveLength(3);
  });

  it('writes a starting price as "від N ₴"', () => {
    expect(normalise(formatPriceFrom(12500))).toBe('від 12 500 ₴');
  });

  it('writes a salary range with an en dash', () => {
    expect(normalise(formatSalaryRange(20000, 30000))).toBe('20 000 – 30 000 ₴');
    expect(normalise(formatSalaryRange(22000, 35000))).toBe('22 000 – 35 000 ₴');
  });
});
