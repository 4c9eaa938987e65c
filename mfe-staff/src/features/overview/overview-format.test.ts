import { changeText, pointLabel, pointRowLabel } from './overview-format';

describe('the overview’s figures in words', () => {
  it('says how a figure changed against the period before, and «—» with nothing before to compare with', () => {
    expect(changeText(112, 100)).toBe('+12 % до попереднього періоду');
    expect(changeText(50, 100)).toBe('-50 % до попереднього періоду');
    expect(changeText(100, 100)).toBe('Без змін');
    expect(changeText(10, 0)).toBe('—');
    expect(changeText(0.02, null)).toBe('—');
  });

  it('labels the chart’s points by the Kyiv hour or day, summer time included', () => {
    // 00:00 in Kyiv: 22:00 UTC in winter (UTC+2), 21:00 UTC in summer (UTC+3).
    expect(pointLabel(Date.parse('2026-11-29T22:00:00.000Z'), 'hour')).toBe('00:00');
    expect(pointLabel(Date.parse('2026-07-14T21:00:00.000Z'), 'day')).toBe('15.07');
    expect(pointRowLabel(Date.parse('2026-11-29T22:00:00.000Z'), 'day')).toMatch(/^30\.11\.(20)?26$/);
    // The first of a month in Kyiv is still the month before in UTC.
    expect(pointRowLabel(Date.parse('2026-10-31T22:00:00.000Z'), 'month')).toBe('листопад 2026 р.');
    expect(pointLabel(Date.parse('2026-10-31T22:00:00.000Z'), 'month')).toMatch(/^лист\.? 2026/);
  });
});
