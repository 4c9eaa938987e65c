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

  it('writes every month and every hour of the day exactly as Intl does for uk-UA on Kyiv time', () => {
    const intl = new Intl.DateTimeFormat('uk-UA', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Kyiv' });
    // The first of every month, the days clocks change (29 March, 25 October 2026) and New Year's Eve.
    const days = [...Array.from({ length: 12 }, (_, month) => [2026, month, 1]), [2026, 2, 29], [2026, 9, 25], [2025, 11, 31]];
    for (const [year, month, day] of days) {
      for (let hour = 0; hour < 24; hour++) {
        const date = new Date(Date.UTC(year!, month!, day!, hour, 30));
        expect(formatPostDate(date.toISOString())).toBe(intl.format(date));
      }
    }
  });

  it('returns an empty string for a value that is not a date', () => {
    expect(formatPostDate('not a date')).toBe('');
  });
});
