import { ATTRIBUTION_VALUE_MAX, readSessionAttribution, SESSION_ATTRIBUTION_KEY, writeSessionAttribution } from '@agency/shared';
import { addressWithoutCampaignParams, captureLanding, cleanValue, landingAttribution } from './attribution-capture';

const NOW = new Date('2026-11-24T08:30:00.000Z');
const SITE = 'http://localhost';

/** A page load of `path` on this site, reached from `referrer`, as `navigationType` says. */
function load(path: string, referrer = '', navigationType = 'navigate'): void {
  window.history.replaceState(null, '', path);
  Object.defineProperty(document, 'referrer', { configurable: true, value: referrer });
  // jsdom has no navigation timing: the browser's entry, as far as it is read.
  Object.defineProperty(performance, 'getEntriesByType', { configurable: true, value: () => [{ type: navigationType }] });
  captureLanding(NOW);
}

afterEach(() => {
  jest.restoreAllMocks();
  sessionStorage.clear();
  delete (document as { referrer?: unknown }).referrer;
  delete (performance as { getEntriesByType?: unknown }).getEntriesByType;
  window.history.replaceState(null, '', '/');
});

describe('landingAttribution', () => {
  it('reads the campaign tags and click ids, the landing page and time', () => {
    const { attribution, replaces } = landingAttribution({
      href: `${SITE}/blog/6?utm_source=facebook&utm_medium=cpc&utm_campaign=black-friday&utm_term=%D1%81%D0%BC%D0%BC&utm_content=carousel&fbclid=IwAR0&gclid=Cj0&category=x`,
      referrer: '',
      navigationType: 'navigate',
      now: NOW,
    });
    expect(attribution).toEqual({
      utm_source: 'facebook',
      utm_medium: 'cpc',
      utm_campaign: 'black-friday',
      utm_term: 'смм',
      utm_content: 'carousel',
      gclid: 'Cj0',
      fbclid: 'IwAR0',
      landing_path: '/blog/6',
      landed_at: '2026-11-24T08:30:00.000Z',
    });
    expect(replaces).toBe(true);
  });

  it('names another site that linked here by its host, never this site or a page that is not on the web', () => {
    const from = (referrer: string) => landingAttribution({ href: `${SITE}/`, referrer, navigationType: 'navigate', now: NOW });
    expect(from('https://news.example.org/articles/42?ref=x')).toMatchObject({ attribution: { referrer_host: 'news.example.org' }, replaces: true });
    expect(from(`${SITE}/blog`)).toEqual({ attribution: { landing_path: '/', landed_at: NOW.toISOString() }, replaces: false });
    expect(from('android-app://com.google.android.gm/').attribution.referrer_host).toBeUndefined();
    expect(from('not a url').attribution.referrer_host).toBeUndefined();
  });

  it('is no new landing when the page was reloaded or reached by Back or Forward', () => {
    for (const navigationType of ['reload', 'back_forward']) {
      const landing = landingAttribution({ href: `${SITE}/?utm_source=x`, referrer: 'https://news.example.org/', navigationType, now: NOW });
      expect(landing.replaces).toBe(false);
    }
  });

  it('clips long values and takes control characters out; an empty tag is no tag', () => {
    const long = encodeURIComponent(`${'я'.repeat(ATTRIBUTION_VALUE_MAX - 1)}😀`);
    const { attribution, replaces } = landingAttribution({
      href: `${SITE}/?utm_campaign=${long}&utm_source=%0Aface%1Bbook%00&utm_medium=%20%20`,
      referrer: '',
      navigationType: 'navigate',
      now: NOW,
    });
    // The emoji's pair does not fit whole: it is left out, not cut in half.
    expect(attribution.utm_campaign).toBe('я'.repeat(ATTRIBUTION_VALUE_MAX - 1));
    expect(attribution.utm_source).toBe('facebook');
    expect(attribution.utm_medium).toBeUndefined();
    expect(replaces).toBe(true);
    expect(cleanValue(' ча\u0438\u0306 ')).toBe('чай');
  });
});

describe('addressWithoutCampaignParams', () => {
  it('takes out the campaign parameters and keeps every other one and the hash', () => {
    expect(addressWithoutCampaignParams(`${SITE}/?utm_source=fb&position=smm&gclid=1#vacancies`)).toBe('/?position=smm#vacancies');
    expect(addressWithoutCampaignParams(`${SITE}/blog?utm_campaign=x`)).toBe('/blog');
    expect(addressWithoutCampaignParams(`${SITE}/blog?page=2`)).toBeUndefined();
  });
});

describe('captureLanding', () => {
  it('remembers the first landing for the session with a new visit id, and takes the tags out of the address', () => {
    load('/blog/6?utm_source=facebook&utm_medium=cpc&utm_campaign=black-friday&page=1#comments');
    const kept = readSessionAttribution();
    expect(kept?.sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(kept?.attribution).toEqual({
      utm_source: 'facebook',
      utm_medium: 'cpc',
      utm_campaign: 'black-friday',
      landing_path: '/blog/6',
      landed_at: NOW.toISOString(),
    });
    expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe('/blog/6?page=1#comments');
  });

  it('keeps the session’s attribution through reloads, internal links and typed addresses', () => {
    load('/?utm_source=facebook', 'https://l.facebook.com/');
    const first = readSessionAttribution();
    load('/', 'https://l.facebook.com/', 'reload');
    load('/blog', `${SITE}/`);
    load('/privacy');
    expect(readSessionAttribution()).toEqual(first);
  });

  it('replaces it at a new landing with tags or from another site, with a new visit id (the last touch counts)', () => {
    load('/?utm_source=facebook&utm_campaign=black-friday');
    const first = readSessionAttribution()!;
    load('/blog/6?utm_source=google&utm_medium=cpc');
    const second = readSessionAttribution()!;
    expect(second.attribution).toMatchObject({ utm_source: 'google', utm_medium: 'cpc', landing_path: '/blog/6' });
    expect(second.attribution.utm_campaign).toBeUndefined();
    expect(second.sessionId).not.toBe(first.sessionId);
    load('/', 'https://news.example.org/');
    expect(readSessionAttribution()?.attribution).toEqual({ referrer_host: 'news.example.org', landing_path: '/', landed_at: NOW.toISOString() });
  });

  it('remembers a direct visit as one', () => {
    load('/');
    expect(readSessionAttribution()?.attribution).toEqual({ landing_path: '/', landed_at: NOW.toISOString() });
  });

  it('still cleans the address where the browser refuses session storage', () => {
    jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('refused', 'SecurityError');
    });
    expect(() => load('/?utm_source=facebook')).not.toThrow();
    expect(window.location.search).toBe('');
    expect(readSessionAttribution()).toBeUndefined();
  });

  it('ignores what it cannot read back, and starts over', () => {
    sessionStorage.setItem(SESSION_ATTRIBUTION_KEY, '{"sessionId": "../../x", "attribution": {}}');
    expect(readSessionAttribution()).toBeUndefined();
    sessionStorage.setItem(SESSION_ATTRIBUTION_KEY, 'not json');
    load('/');
    expect(readSessionAttribution()?.sessionId).toMatch(/^[0-9a-f]{32}$/);
    writeSessionAttribution({ sessionId: 'b'.repeat(32), attribution: { utm_source: 'x', bogus: 'y' } as never });
    expect(readSessionAttribution()?.attribution).toEqual({ utm_source: 'x' });
  });
});
