import { changePercentText, dayText, daysText, durationText, rateText, shareText } from './dashboard-format';

describe('the dashboard’s figures in words', () => {
  it.each([
    [0, '0 с'],
    [45, '45 с'],
    [125, '2 хв 5 с'],
    [180, '3 хв'],
    [3600, '1 год'],
    [3_780, '1 год 3 хв'],
  ])('%i seconds on the site read «%s»', (seconds, text) => {
    expect(durationText(seconds)).toBe(text);
  });

  it('says how a figure changed in whole percent, nothing with nothing before to compare with', () => {
    expect(changePercentText(112, 100)).toBe('+12 %');
    expect(changePercentText(50, 100)).toBe('-50 %');
    expect(changePercentText(100, 100)).toBe('0 %');
    expect(changePercentText(10, 0)).toBeUndefined();
    expect(changePercentText(0.02, null)).toBeUndefined();
  });

  it('writes a conversion rate as a percent, «—» without visitors', () => {
    expect(rateText(0.0123)).toBe('1,23 %');
    expect(rateText(1)).toBe('100 %');
    expect(rateText(null)).toBe('—');
  });

  it('writes a funnel step’s share to a tenth of a percent', () => {
    expect(shareText(0.225)).toBe('22,5 %');
    expect(shareText(1 / 3)).toBe('33,3 %');
  });

  it('writes Kyiv days as people do', () => {
    expect(dayText('2026-11-05')).toBe('05.11.2026');
    expect(daysText('2026-11-05', '2026-11-05')).toBe('05.11.2026');
    expect(daysText('2026-11-01', '2026-11-05')).toBe('01.11.2026 – 05.11.2026');
  });
});
