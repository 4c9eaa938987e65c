import { ATTRIBUTION_VALUE_MAX } from '@agency/shared';
import { readAttribution } from '../../../../src/site/leads/submissions/attribution-input';

const VALID = { utm_source: 'facebook', utm_medium: 'cpc', landing_path: '/', landed_at: '2026-11-24T08:30:00.000Z' };

describe('readAttribution', () => {
  it('accepts known keys, normalised like every other field', () => {
    expect(readAttribution({ ...VALID, utm_campaign: ' ча\u0438\u0306 ', utm_term: '   ' })).toEqual({
      attribution: { ...VALID, utm_campaign: 'чай' },
    });
    expect(readAttribution({ utm_campaign: 'x'.repeat(ATTRIBUTION_VALUE_MAX) }).attribution?.utm_campaign).toHaveLength(ATTRIBUTION_VALUE_MAX);
  });

  it('takes none, null or nothing but empty values as no attribution, without a complaint', () => {
    expect(readAttribution(undefined)).toEqual({ attribution: null });
    expect(readAttribution(null)).toEqual({ attribution: null });
    expect(readAttribution({ utm_source: ' ' })).toEqual({ attribution: null });
  });

  it.each<[string, unknown, RegExp]>([
    ['an unknown key', { ...VALID, utm_id: '1' }, /^unknown key "utm_id"$/],
    ['a value over the limit', { utm_source: 'x'.repeat(ATTRIBUTION_VALUE_MAX + 1) }, /^\/utm_source: /],
    ['a control character', { utm_source: 'a\u0007b' }, /^\/utm_source: /],
    ['a NUL', { utm_source: 'a\u0000b' }, /^\/utm_source: nul$/],
    ['a lone surrogate', { utm_source: 'a\uD800b' }, /^\/utm_source: invalid-unicode$/],
    ['a number', { utm_source: 7 }, /^\/utm_source: /],
    ['a host with a path', { referrer_host: 'evil.example/x' }, /^\/referrer_host: /],
    ['a time in another form', { landed_at: '24.11.2026' }, /^\/landed_at: /],
    ['a list', [VALID], /^not an object$/],
    ['text', 'facebook', /^not an object$/],
  ])('drops an attribution with %s, saying why', (_what, value, reason) => {
    const result = readAttribution(value);
    expect(result.attribution).toBeNull();
    expect(result.dropped).toMatch(reason);
  });

  it('keeps the reason short whatever key was sent', () => {
    expect(readAttribution({ ['k'.repeat(10_000)]: 'x' }).dropped!.length).toBeLessThanOrEqual(200);
  });
});
