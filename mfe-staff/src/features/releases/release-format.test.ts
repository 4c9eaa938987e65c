import { actorText, bucketText, isHealthWindow, rateText, rulesText } from './release-format';

describe('release words', () => {
  it.each([
    ['site', 'сайт (за станом релізу)'],
    ['staff:rm@khvylia.example', 'rm@khvylia.example (консоль)'],
    ['token:ci-blog', 'токен ci-blog'],
    ['cli:deploy@build-01', 'командний рядок (deploy@build-01)'],
    ['import', 'імпорт старих релізів'],
    ['someone else', 'someone else'],
  ])('names the actor %j as %j', (actor, text) => {
    expect(actorText(actor)).toBe(text);
  });

  it("says a canary's rules", () => {
    expect(rulesText({ share: 12.5, minViews: 100, promoteAfter: null })).toBe('12,5 % відвідувачів, оцінюється після 100 переглядів, поточним його робить людина');
    expect(rulesText({ share: 50, minViews: 40, promoteAfter: 2000 })).toBe('50 % відвідувачів, оцінюється після 40 переглядів, поточним стає сам після 2\u00a0000 здорових переглядів');
  });

  it('labels buckets by Kyiv time, with the day past a day', () => {
    expect(bucketText('2026-12-02T09:10:00.000Z', 10, 37)).toBe('11:10');
    expect(bucketText('2026-12-02T09:00:00.000Z', 180, 57)).toBe('02.12, 11:00');
  });

  it('reads only the windows it offers, and errors per page view as a percentage', () => {
    expect(['1h', '6h', '24h', '7d', '2d', null].map(isHealthWindow)).toEqual([true, true, true, true, false, false]);
    expect([rateText(null), rateText(0.0056), rateText(0.6)]).toEqual(['–', '0,6 %', '60 %']);
  });
});
