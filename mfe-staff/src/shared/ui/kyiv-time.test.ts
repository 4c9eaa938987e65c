import { isoToKyivWallTime, kyivDate, kyivWallTimeToIso, kyivZoneLabel } from './kyiv-time';

describe('Kyiv wall time', () => {
  it.each([
    ['2026-12-01T09:00', '2026-12-01T07:00:00.000Z', 'UTC+2'],
    ['2026-07-01T09:00', '2026-07-01T06:00:00.000Z', 'UTC+3'],
    // The first hour of summer time (clocks go 03:00 → 04:00 on 29 March 2026).
    ['2026-03-29T04:30', '2026-03-29T01:30:00.000Z', 'UTC+3'],
  ])('%s in Kyiv is %s (%s), and back', (wall, iso, zone) => {
    expect(kyivWallTimeToIso(wall)).toBe(iso);
    expect(isoToKyivWallTime(iso)).toBe(wall);
    expect(kyivZoneLabel(iso)).toBe(`за київським часом, ${zone}`);
  });
});

describe('a Kyiv day', () => {
  it('is the day in Kyiv, though UTC is still on the day before', () => {
    // Monday 00:00 in Kyiv (UTC+2) is Sunday 22:00 in UTC.
    expect(kyivDate('2026-11-22T22:00:00.000Z')).toMatch(/^23\.11\.(20)?26$/);
  });
});
