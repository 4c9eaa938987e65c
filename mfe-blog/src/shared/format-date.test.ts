import { formatPostDate } from './format-date';

describe('formatPostDate', () => {
  it('writes the day, the month name in the genitive and the year in the uk-UA style', () => {
    expect(formatPostDate('2026-03-15T10:00:00Z')).toBe('15 березня 2026 р.');
    expect(formatPostDate('2026-01-01T12:00:00Z')).toBe('1 січня 2026 р.');
    expect(formatPostDate('2025-12-31T12:00:00Z')).toBe('31 грудня 2025 р.');
  });

  it('dates a post on the agency clock (Kyiv time), not the visitor one', () => {
    // 23:30 UTC on 14 March is already 15 March in Lviv.
    expect(formatPostDate('2026-03-14T23:30:00Z')).toBe('15 березня 2026 р.');
  });

  it('returns an empty string for a value that is not a date', () => {
    expect(formatPostDate('not a date')).toBe('');
  });
});
