import { kyivDayStart } from './kyiv-calendar';

/** An instant as a Kyiv wall clock reads it: `YYYY-MM-DD HH:MM:SS`. */
const inKyiv = (iso: string) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Kyiv', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(new Date(iso));

describe('a Kyiv calendar day in UTC', () => {
  // Winter, summer, and the days around both changes of summer time (whatever the time zone data says of them).
  const DAYS = ['2026-01-11', '2026-07-01', '2026-03-28', '2026-03-29', '2026-03-30', '2026-10-24', '2026-10-25', '2026-10-26', '2026-12-31'];

  it.each(DAYS)('begins at Kyiv’s midnight of %s: that instant reads 00:00:00 there, the millisecond before the day before', (day) => {
    const start = kyivDayStart(day);
    expect(inKyiv(start)).toBe(`${day} 00:00:00`);
    expect(inKyiv(new Date(Date.parse(start) - 1).toISOString()).slice(0, 10) < day).toBe(true);
  });

  it('moves by whole calendar days', () => {
    expect(kyivDayStart('2026-03-29', 1)).toBe(kyivDayStart('2026-03-30'));
    expect(kyivDayStart('2026-10-25', 1)).toBe(kyivDayStart('2026-10-26'));
    expect(kyivDayStart('2026-12-31', 1)).toBe(kyivDayStart('2027-01-01'));
  });
});
