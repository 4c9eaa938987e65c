import { ATTRIBUTION_VALUE_MAX } from '../contracts/limits';
import { MASKED_EMAIL } from '../telemetry/mask-personal-data';
import { trafficSource } from './traffic-source';

describe('trafficSource', () => {
  it('takes a tagged link at its word', () => {
    expect(trafficSource({ utm_source: 'facebook', utm_medium: 'cpc', utm_campaign: 'black-friday', referrer_host: 'l.facebook.com' })).toEqual({
      source: 'facebook',
      medium: 'cpc',
      campaign: 'black-friday',
    });
    expect(trafficSource({ utm_source: 'newsletter' })).toEqual({ source: 'newsletter', medium: '(not set)', campaign: '(not set)' });
  });

  it('counts an untagged Google Ads click as google / cpc', () => {
    expect(trafficSource({ gclid: 'Cj0KCQiA', referrer_host: 'www.google.com' })).toEqual({ source: 'google', medium: 'cpc', campaign: '(not set)' });
  });

  it('counts a link from another site as a referral from its host', () => {
    expect(trafficSource({ referrer_host: 'news.example.org', landing_path: '/blog/6' })).toEqual({
      source: 'news.example.org',
      medium: 'referral',
      campaign: '(not set)',
    });
  });

  it('counts anything else as direct', () => {
    expect(trafficSource({ landing_path: '/', landed_at: '2026-11-24T08:30:00.000Z' })).toEqual({
      source: '(direct)',
      medium: '(none)',
      campaign: '(not set)',
    });
    expect(trafficSource({ fbclid: 'IwAR0' })).toMatchObject({ source: '(direct)' });
  });

  it('says nothing of a lead that came without attribution', () => {
    expect(trafficSource(null)).toEqual({ source: '(not set)', medium: '(not set)', campaign: '(not set)' });
    expect(trafficSource(undefined)).toEqual(trafficSource(null));
  });

  it('masks an e-mail address put in a tag, and stays within the value limit', () => {
    expect(trafficSource({ utm_source: 'mail', utm_campaign: 'for olena@example.com' }).campaign).toBe(`for ${MASKED_EMAIL}`);
    const crowded = Array.from({ length: 40 }, () => 'a@b.c').join(' ').slice(0, ATTRIBUTION_VALUE_MAX);
    expect(trafficSource({ utm_source: crowded }).source.length).toBeLessThanOrEqual(ATTRIBUTION_VALUE_MAX);
  });
});
