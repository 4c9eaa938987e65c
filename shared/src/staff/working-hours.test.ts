import { addWorkingMs, formatWorkingMinutes, workingMsBetween } from './working-hours';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** A Kyiv wall time in winter (UTC+2), as an instant. */
const kyiv = (wall: string) => new Date(`${wall}+02:00`);

describe('working hours: Monday to Friday, 09:00–18:00 in Kyiv', () => {
  // 2026-12-04 is a Friday; 2026-12-07 the Monday after.
  it('counts the time inside one working day as it is', () => {
    expect(workingMsBetween(kyiv('2026-12-01T10:00:00'), kyiv('2026-12-01T11:30:00'))).toBe(90 * MINUTE);
  });

  it('does not count the evening and the night', () => {
    expect(workingMsBetween(kyiv('2026-12-01T17:00:00'), kyiv('2026-12-02T10:00:00'))).toBe(2 * HOUR);
    expect(workingMsBetween(kyiv('2026-12-01T19:00:00'), kyiv('2026-12-02T08:59:00'))).toBe(0);
  });

  it('does not count the weekend: a lead at 17:59 on Friday has waited 61 minutes at 10:00 on Monday', () => {
    expect(workingMsBetween(kyiv('2026-12-04T17:59:00'), kyiv('2026-12-07T10:00:00'))).toBe(61 * MINUTE);
    expect(workingMsBetween(kyiv('2026-12-05T10:00:00'), kyiv('2026-12-06T16:00:00'))).toBe(0);
  });

  it('counts whole weeks as 45 hours', () => {
    expect(workingMsBetween(kyiv('2026-11-30T09:00:00'), kyiv('2026-12-07T09:00:00'))).toBe(45 * HOUR);
  });

  it('is zero for an end before the start', () => {
    expect(workingMsBetween(kyiv('2026-12-02T12:00:00'), kyiv('2026-12-01T12:00:00'))).toBe(0);
  });

  it('knows summer time: a summer working day is 9 hours too', () => {
    expect(workingMsBetween(new Date('2026-07-01T09:00:00+03:00'), new Date('2026-07-01T18:00:00+03:00'))).toBe(9 * HOUR);
    expect(workingMsBetween(new Date('2026-07-01T05:00:00Z'), new Date('2026-07-01T06:00:00Z'))).toBe(0);
  });

  it('finds when something due in working time is due', () => {
    expect(addWorkingMs(kyiv('2026-12-01T10:00:00'), 2 * HOUR)).toEqual(kyiv('2026-12-01T12:00:00'));
    // At 17:59 on Friday: one minute that day, the rest on Monday.
    expect(addWorkingMs(kyiv('2026-12-04T17:59:00'), 2 * HOUR)).toEqual(kyiv('2026-12-07T10:59:00'));
    // On a Saturday night: from Monday's opening.
    expect(addWorkingMs(kyiv('2026-12-05T23:00:00'), 30 * MINUTE)).toEqual(kyiv('2026-12-07T09:30:00'));
    expect(addWorkingMs(kyiv('2026-12-01T20:00:00'), 0)).toEqual(kyiv('2026-12-02T09:00:00'));
  });

  it('adds and counts alike', () => {
    const start = kyiv('2026-12-03T16:20:00');
    for (const minutes of [1, 59, 100, 540, 2000]) expect(workingMsBetween(start, addWorkingMs(start, minutes * MINUTE))).toBe(minutes * MINUTE);
  });
});

describe('formatWorkingMinutes', () => {
  it('says minutes, hours, or both', () => {
    expect(formatWorkingMinutes(45)).toBe('45 хв');
    expect(formatWorkingMinutes(120)).toBe('2 год');
    expect(formatWorkingMinutes(125)).toBe('2 год 5 хв');
  });
});
