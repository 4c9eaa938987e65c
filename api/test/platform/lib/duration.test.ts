import { parseDuration } from '../../../src/platform/lib/duration';

describe('parseDuration', () => {
  it.each([
    ['60000', 60_000],
    ['250ms', 250],
    ['1.5 s', 1_500],
    ['30 seconds', 30_000],
    ['1 minute', 60_000],
    ['5 MINS', 300_000],
    ['2h', 7_200_000],
    ['3 hrs', 10_800_000],
    ['7d', 604_800_000],
    [' 0m ', 0],
  ])('reads %j as %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', 'h', '1 minuet', '1w', '-1h', '1,5h', '.5h', '1 constructor', 'yesterday'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('takes only a whole number with its unit when asked to', () => {
    expect(parseDuration('30m', { wholeUnits: true })).toBe(1_800_000);
    expect(parseDuration('2 days', { wholeUnits: true })).toBe(172_800_000);
    for (const text of ['2026', '1.5h']) expect(parseDuration(text, { wholeUnits: true })).toBeUndefined();
  });
});
