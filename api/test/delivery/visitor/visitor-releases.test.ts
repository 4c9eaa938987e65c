import fs from 'node:fs';
import path from 'node:path';
import { PAGE_DATA_IDS, PREVIEW_BANNER, PREVIEW_COOKIE, RELEASE_BUCKET_COOKIE, RELEASE_BUCKETS, remotesForPage } from '@agency/shared';
import { loadPreviewSecret, previewUrl, signPreviewToken } from '../../../src/delivery/visitor/preview-token';
import { CANARY_PAGE_CACHE_CONTROL, PAGE_CACHE_CONTROL, PREVIEW_PAGE_CACHE_CONTROL } from '../../../src/site/pages/serve-page';
import { distDir, SHELL } from '../../../src/delivery/releases/apps';
import { abort, canary, stage } from '../../../src/delivery/releases/commands';
import { TEST_SITE_URL } from '../../helpers/app';
import { eventually } from '../../helpers/eventually';
import type { HttpResponse } from '../../helpers/http';
import { SHELL_BUNDLE, SHELL_TEMPLATE } from '../../helpers/page-builds';
import { publishFixture, setUpReleaseSuite } from '../../helpers/releases';
import { formatReleaseResult } from '../../../src/delivery/cli/release-text';

// How the server chooses each visitor's releases, over HTTP: the current ones; a canary's
// candidate for a browser whose bucket cookie falls in its share (a browser's first navigation is
// given its bucket then and there); a staged release for the one browser that opened a preview
// link. Pages (their remotes map, their cookies and Cache-Control) and /remotes.json must agree.
// The server re-reads releases about once a second: each change is waited for on /remotes.json.

const suite = setUpReleaseSuite();

interface Document {
  shell: { release: string };
  remotes: Record<string, { entry: string; release: string }>;
}

/** What a browser's navigation sends; a crawler, a link preview or a fetch does not. */
const NAVIGATE = { 'sec-fetch-mode': 'navigate' };
/** The attributes of every cookie of release delivery, over https (TEST_SITE_URL). */
const COOKIE_ATTRIBUTES = ['HttpOnly', 'Path=/', 'SameSite=Lax', 'Secure'];
const HOURS = 3_600_000;

let current: string;

const remotesResponse = (cookie?: string, query = '') =>
  suite.ctx.request('GET', `/remotes.json${query}`, { headers: { ...NAVIGATE, ...(cookie === undefined ? {} : { cookie }) } });
const remotesJson = async (cookie?: string, query?: string) => (await remotesResponse(cookie, query)).json<Document>();
const blogOf = async (cookie?: string) => (await remotesJson(cookie)).remotes.blog?.release;
const bucket = (value: number | string) => `${RELEASE_BUCKET_COOKIE}=${value}`;

const page = (url: string, headers: Record<string, string> = {}) => suite.ctx.request('GET', url, { headers: { accept: 'text/html', ...headers } });

/** The remotes map a page carries (script#agency-remotes), which the shell loads the remotes by. */
function pageRemotes(response: HttpResponse): Document {
  const json = new RegExp(`<script type="application/json" id="${PAGE_DATA_IDS.remotes}">(.*?)</script>`).exec(response.body)?.[1];
  if (json === undefined) throw new Error(`no remotes map in the page (status ${response.statusCode}): ${response.body.slice(0, 300)}`);
  return JSON.parse(json) as Document;
}

interface SetCookie {
  value: string;
  /** Every attribute but Max-Age and Expires, sorted. */
  attributes: string[];
  maxAge?: number;
  expires?: string;
}

/** The response's Set-Cookie lines by cookie name. */
function setCookies(response: HttpResponse): Map<string, SetCookie> {
  const cookies = new Map<string, SetCookie>();
  for (const line of response.headers['set-cookie'] ?? []) {
    const [pair = '', ...parts] = line.split(/;\s*/);
    const split = pair.indexOf('=');
    const cookie: SetCookie = { value: pair.slice(split + 1), attributes: [] };
    for (const part of parts) {
      const [name = '', value] = part.split('=');
      if (name.toLowerCase() === 'max-age') cookie.maxAge = Number(value);
      else if (name.toLowerCase() === 'expires') cookie.expires = value;
      else cookie.attributes.push(part);
    }
    cookie.attributes.sort();
    cookies.set(pair.slice(0, split), cookie);
  }
  return cookies;
}

/** The bucket a page's Set-Cookie gives the browser (failing the test when there is none or it is not a bucket). */
function givenBucket(response: HttpResponse): number {
  const cookie = setCookies(response).get(RELEASE_BUCKET_COOKIE);
  expect(cookie).toEqual({ value: expect.stringMatching(/^\d+$/), attributes: COOKIE_ATTRIBUTES, maxAge: 30 * 86_400 });
  const value = Number(cookie?.value);
  expect(value).toBeGreaterThanOrEqual(0);
  expect(value).toBeLessThan(RELEASE_BUCKETS);
  return value;
}

function expectCleared(response: HttpResponse, name: string): void {
  expect(setCookies(response).get(name)).toEqual({ value: '', attributes: COOKIE_ATTRIBUTES, maxAge: 0, expires: 'Thu, 01 Jan 1970 00:00:00 GMT' });
}

beforeAll(async () => {
  // The fixture's shell template has no head and an attributed root, which the page renderer does
  // not fill: a shell as the build writes it (a template and a server bundle) renders real pages.
  const shell = distDir(suite.fixture.staticRoot, SHELL);
  fs.writeFileSync(path.join(shell, 'index.html'), SHELL_TEMPLATE);
  fs.mkdirSync(path.join(shell, 'server'), { recursive: true });
  fs.writeFileSync(path.join(shell, 'server', 'render.js'), SHELL_BUNDLE);
  current = await publishFixture(suite.fixture, 'blog', { label: 'v1' });
  await eventually(`blog release ${current} to become current`, () => blogOf(), (release) => release === current);
});

describe('with no canary', () => {
  it.each([['no cookie', undefined], ['bucket 0', bucket(0)], ['bucket 9999', bucket(9999)]])(
    '/remotes.json with %s names the current releases and sets no cookie',
    async (_name, cookie) => {
      const response = await remotesResponse(cookie);
      expect(response.statusCode).toBe(200);
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.json()).toEqual({
        shell: { release: 'dist' },
        remotes: {
          home: { entry: '/remotes/home/mf-manifest.json', release: 'dist' },
          blog: { entry: `/remotes/blog/${current}/mf-manifest.json`, release: current },
          forms: { entry: '/remotes/forms/mf-manifest.json', release: 'dist' },
          staff: { entry: '/remotes/staff/mf-manifest.json', release: 'dist' },
        },
      });
    },
  );

  it.each([
    ['a navigation', NAVIGATE],
    ['a request that is no navigation', {}],
    ['a navigation with a bucket', { ...NAVIGATE, cookie: bucket(0) }],
  ])('answers %s with a page of the current releases, no cookie and the public Cache-Control', async (_name, headers) => {
    const response = await page('/', headers);
    expect(response.statusCode).toBe(200);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.headers['cache-control']).toBe(PAGE_CACHE_CONTROL);
    expect(response.headers['x-robots-tag']).toBeUndefined();
    expect(pageRemotes(response)).toEqual(remotesForPage(await remotesJson(), '/'));
    expect(pageRemotes(response).remotes.blog?.release).toBe(current);
    expect(response.body).not.toContain('data-preview-banner');
  });
});

describe('a canary', () => {
  let candidate: string;

  beforeAll(async () => {
    const output = await canary(suite.fixture.context, 'blog', { build: await suite.fixture.buildOf('blog', { label: 'v2' }), share: 100, minViews: 100, promoteAfter: null });
    candidate = /blog release (\S+) is the candidate/.exec(formatReleaseResult(output).join('\n'))?.[1] ?? '';
    expect(candidate).not.toBe('');
    expect(candidate).not.toBe(current);
    await eventually(`the candidate ${candidate} to reach the server`, () => blogOf(bucket(0)), (release) => release === candidate);
  });

  describe('at 100 %', () => {
    it.each([0, 42, 9999, '00042'])('gives /remotes.json the candidate for bucket %s', async (value) => {
      const response = await remotesResponse(bucket(value));
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(response.json<Document>().remotes.blog).toEqual({ entry: `/remotes/blog/${candidate}/mf-manifest.json`, release: candidate });
    });

    it('gives /remotes.json the current release without a bucket, and never sets one there', async () => {
      const response = await remotesResponse();
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(response.json<Document>().remotes.blog).toEqual({ entry: `/remotes/blog/${current}/mf-manifest.json`, release: current });
    });

    it.each(['abc', '10000', '-1', '1.5', '0x10', '123456', '', '%20'])('counts the bucket cookie %p as none: the current release', async (value) => {
      expect(await blogOf(bucket(value))).toBe(current);
    });

    it("gives a browser's first navigation a bucket and a page of the candidate, kept private", async () => {
      const response = await page('/', NAVIGATE);
      expect(response.statusCode).toBe(200);
      const given = givenBucket(response);
      expect(pageRemotes(response).remotes.blog).toEqual({ entry: `/remotes/blog/${candidate}/mf-manifest.json`, release: candidate });
      expect(response.headers['cache-control']).toBe(CANARY_PAGE_CACHE_CONTROL);
      // What the page asks after a failed load is answered from the same releases.
      expect(remotesForPage(await remotesJson(bucket(given)), '/')).toEqual(pageRemotes(response));
    });

    it('gives a new bucket on navigation when the cookie holds none', async () => {
      const response = await page('/', { ...NAVIGATE, cookie: bucket('abc') });
      givenBucket(response);
      expect(pageRemotes(response).remotes.blog?.release).toBe(candidate);
    });

    it('keeps the bucket a browser has: no new cookie', async () => {
      const response = await page('/', { ...NAVIGATE, cookie: bucket(17) });
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(pageRemotes(response).remotes.blog?.release).toBe(candidate);
      expect(response.headers['cache-control']).toBe(CANARY_PAGE_CACHE_CONTROL);
    });

    it.each([
      ['no sec-fetch-mode', {}],
      ['sec-fetch-mode: cors', { 'sec-fetch-mode': 'cors' }],
      ['sec-fetch-mode: no-cors', { 'sec-fetch-mode': 'no-cors' }],
    ])('answers a page request with %s and no bucket with the current releases and no cookie', async (_name, headers) => {
      const response = await page('/', headers);
      expect(response.statusCode).toBe(200);
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(pageRemotes(response).remotes.blog?.release).toBe(current);
      expect(response.headers['cache-control']).toBe(CANARY_PAGE_CACHE_CONTROL);
    });
  });

  describe('at 50 %', () => {
    beforeAll(async () => {
      await canary(suite.fixture.context, 'blog', { id: candidate, share: 50, minViews: 100, promoteAfter: null });
      await eventually('the share of 50 % to reach the server', () => blogOf(bucket(9999)), (release) => release === current);
    });

    it.each([
      [0, 'candidate'],
      [4999, 'candidate'],
      [5000, 'current'],
      [9999, 'current'],
    ] as const)('gives bucket %s the %s release', async (value, which) => {
      expect(await blogOf(bucket(value))).toBe(which === 'candidate' ? candidate : current);
    });

    it('serves each new browser the releases of the bucket it is given', async () => {
      for (let i = 0; i < 20; i += 1) {
        const response = await page('/', NAVIGATE);
        const given = givenBucket(response);
        const expected = given < RELEASE_BUCKETS / 2 ? candidate : current;
        expect([given, pageRemotes(response).remotes.blog?.release]).toEqual([given, expected]);
        expect(await blogOf(bucket(given))).toBe(expected);
      }
    });
  });

  describe('dropped', () => {
    beforeAll(async () => {
      await abort(suite.fixture.context, 'blog');
      await eventually('the dropped canary to reach the server', () => blogOf(bucket(0)), (release) => release === current);
    });

    it('serves everyone the current releases again, with no cookie and the public Cache-Control', async () => {
      for (const headers of [NAVIGATE, { ...NAVIGATE, cookie: bucket(0) }, {}]) {
        const response = await page('/', headers);
        expect(response.headers['set-cookie']).toBeUndefined();
        expect(response.headers['cache-control']).toBe(PAGE_CACHE_CONTROL);
        expect(pageRemotes(response).remotes.blog?.release).toBe(current);
      }
    });
  });
});

describe('a preview link', () => {
  let secret: string;
  let staged: string;
  let token: string;
  const previewCookie = () => `${PREVIEW_COOKIE}=${token}`;
  const banner = (response: HttpResponse) => /<aside data-preview-banner[^>]*><span>([^<]*)<\/span><a href="([^"]*)"[^>]*>([^<]*)<\/a><\/aside><div id="root">/.exec(response.body)?.slice(1);

  /** A page only its browser gets, and no search engine indexes. */
  function expectPreviewPage(response: HttpResponse): void {
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe(PREVIEW_PAGE_CACHE_CONTROL);
    expect(response.headers['x-robots-tag']).toBe('noindex');
    expect(response.body).toContain('<meta name="robots" content="noindex">');
  }

  /** A page as every other visitor gets it. */
  function expectPublicPage(response: HttpResponse): void {
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe(PAGE_CACHE_CONTROL);
    expect(response.headers['x-robots-tag']).toBeUndefined();
    expect(response.body).not.toContain('data-preview-banner');
    expect(response.body).not.toContain('noindex');
  }

  beforeAll(async () => {
    // The server reads the same one from the database: RELEASE_PREVIEW_SECRET is not set in the test config.
    secret = await loadPreviewSecret(undefined, suite.fixture.db);
    const output = await stage(suite.fixture.context, 'blog', await suite.fixture.buildOf('blog', { label: 'v3' }), (release) =>
      previewUrl(TEST_SITE_URL, signPreviewToken({ app: 'blog', release }, secret)),
    );
    staged = /blog release (\S+) is staged/.exec(formatReleaseResult(output).join('\n'))?.[1] ?? '';
    expect(staged).not.toBe('');
    // The link the release command prints, as the team would open it.
    const link = new URL(/https:\S+/.exec(formatReleaseResult(output).join('\n'))?.[0] ?? '');
    expect(link.origin).toBe(TEST_SITE_URL);
    token = link.searchParams.get('preview') ?? '';
    await eventually(`the staged release ${staged} to reach the server`, () => blogOf(previewCookie()), (release) => release === staged);
  });

  it('pins the browser that opens it to the staged release, with a cookie, a banner and noindex', async () => {
    const response = await page(`/?preview=${encodeURIComponent(token)}`, NAVIGATE);
    expectPreviewPage(response);
    const remotes = pageRemotes(response);
    expect(remotes.remotes.blog).toEqual({ entry: `/remotes/blog/${staged}/mf-manifest.json`, release: staged });
    // Only the previewed app is pinned: the others are everyone's.
    const everyone = remotesForPage(await remotesJson(), '/');
    expect(remotes).toEqual({ ...everyone, remotes: { ...everyone.remotes, blog: remotes.remotes.blog } });
    expect(banner(response)).toEqual([PREVIEW_BANNER.pinned('blog', staged), '/preview/exit?to=%2F', PREVIEW_BANNER.exit]);
    const cookie = setCookies(response);
    expect([...cookie.keys()]).toEqual([PREVIEW_COOKIE]);
    expect(cookie.get(PREVIEW_COOKIE)).toEqual({ value: token, attributes: COOKIE_ATTRIBUTES, maxAge: expect.any(Number) });
    expect(cookie.get(PREVIEW_COOKIE)?.maxAge).toBeGreaterThan(24 * 3600 - 60);
    expect(cookie.get(PREVIEW_COOKIE)?.maxAge).toBeLessThanOrEqual(24 * 3600);
  });

  it('keeps the pin through the cookie alone, setting nothing again', async () => {
    const response = await page('/blog', { ...NAVIGATE, cookie: previewCookie() });
    expectPreviewPage(response);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(pageRemotes(response).remotes.blog?.release).toBe(staged);
    expect(banner(response)).toEqual([PREVIEW_BANNER.pinned('blog', staged), '/preview/exit?to=%2Fblog', PREVIEW_BANNER.exit]);
    expect(await blogOf(previewCookie())).toBe(staged);
  });

  it('pins /remotes.json from the query too, without setting a cookie', async () => {
    const response = await remotesResponse(undefined, `?preview=${encodeURIComponent(token)}`);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.json<Document>().remotes.blog?.release).toBe(staged);
  });

  it('leads the exit link back to the address without the token', async () => {
    const response = await page(`/blog/7?preview=${encodeURIComponent(token)}&utm_source=mail`);
    expectPreviewPage(response);
    expect(banner(response)?.[1]).toBe('/preview/exit?to=%2Fblog%2F7%3Futm_source%3Dmail');
    expect(response.body).not.toContain(token);
  });

  it('leaves a browser without the cookie on the current release', async () => {
    const response = await page('/', NAVIGATE);
    expectPublicPage(response);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(pageRemotes(response).remotes.blog?.release).toBe(current);
    expect(await blogOf()).toBe(current);
  });

  it.each([
    ['garbage', () => 'garbage'],
    ['signed with another secret', () => signPreviewToken({ app: 'blog', release: staged }, 'another-secret-of-32-characters!')],
    ['with another payload under its signature', () => `${Buffer.from(JSON.stringify({ app: 'blog', release: current, exp: Date.now() + HOURS })).toString('base64url')}.${token.split('.')[1]}`],
  ])('answers a link %s with the banner of an invalid link and the current release', async (_name, made) => {
    const response = await page(`/?preview=${encodeURIComponent(made())}`, NAVIGATE);
    expectPreviewPage(response);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(pageRemotes(response).remotes.blog?.release).toBe(current);
    expect(banner(response)).toEqual([PREVIEW_BANNER.invalid, '/preview/exit?to=%2F', PREVIEW_BANNER.close]);
  });

  it('clears an invalid preview cookie', async () => {
    const response = await page('/', { ...NAVIGATE, cookie: `${PREVIEW_COOKIE}=garbage` });
    expectPreviewPage(response);
    expect(banner(response)?.[0]).toBe(PREVIEW_BANNER.invalid);
    expectCleared(response, PREVIEW_COOKIE);
    expect(await blogOf(`${PREVIEW_COOKIE}=garbage`)).toBe(current);
  });

  it('answers an expired link with its banner, the current release, and clears its cookie', async () => {
    const expired = signPreviewToken({ app: 'blog', release: staged }, secret, Date.now() - 25 * HOURS);
    const response = await page(`/?preview=${encodeURIComponent(expired)}`, { ...NAVIGATE, cookie: `${PREVIEW_COOKIE}=${expired}` });
    expectPreviewPage(response);
    expect(banner(response)).toEqual([PREVIEW_BANNER.expired, '/preview/exit?to=%2F', PREVIEW_BANNER.close]);
    expect(pageRemotes(response).remotes.blog?.release).toBe(current);
    expectCleared(response, PREVIEW_COOKIE);
    expect(await blogOf(`${PREVIEW_COOKIE}=${expired}`)).toBe(current);
  });

  it('answers a link to a release no longer kept with its banner and the current release', async () => {
    const gone = signPreviewToken({ app: 'blog', release: '0.0.1-0000000-20200101T000000Z' }, secret);
    const response = await page('/', { ...NAVIGATE, cookie: `${PREVIEW_COOKIE}=${gone}` });
    expectPreviewPage(response);
    expect(banner(response)).toEqual([PREVIEW_BANNER.missing, '/preview/exit?to=%2F', PREVIEW_BANNER.close]);
    expect(pageRemotes(response).remotes.blog?.release).toBe(current);
    expectCleared(response, PREVIEW_COOKIE);
  });

  describe('during a canary', () => {
    let candidate: string;

    beforeAll(async () => {
      const output = await canary(suite.fixture.context, 'blog', { build: await suite.fixture.buildOf('blog', { label: 'v4' }), share: 100, minViews: 100, promoteAfter: null });
      candidate = /blog release (\S+) is the candidate/.exec(formatReleaseResult(output).join('\n'))?.[1] ?? '';
      await eventually('the canary to reach the server', () => blogOf(bucket(0)), (release) => release === candidate);
    });

    afterAll(async () => {
      await abort(suite.fixture.context, 'blog');
      await eventually('the dropped canary to reach the server', () => blogOf(bucket(0)), (release) => release === current);
    });

    it("pins the preview's app over the candidate of the browser's bucket", async () => {
      expect(await blogOf(`${bucket(0)}; ${previewCookie()}`)).toBe(staged);
      const pinned = await page('/', { ...NAVIGATE, cookie: `${bucket(0)}; ${previewCookie()}` });
      expectPreviewPage(pinned);
      expect(pageRemotes(pinned).remotes.blog?.release).toBe(staged);
      const unpinned = await page('/', { ...NAVIGATE, cookie: bucket(0) });
      expect(pageRemotes(unpinned).remotes.blog?.release).toBe(candidate);
      expect(unpinned.headers['cache-control']).toBe(CANARY_PAGE_CACHE_CONTROL);
    });
  });
});

describe('leaving a preview', () => {
  it.each([
    ['?to=/blog', '/blog'],
    [`?to=${encodeURIComponent('/blog?category=smm')}`, '/blog?category=smm'],
    // A Location header carries ASCII only: what the path says otherwise is percent-encoded.
    [`?to=${encodeURIComponent('/блог/a b')}`, '/%D0%B1%D0%BB%D0%BE%D0%B3/a%20b'],
    ['', '/'],
  ])('answers /preview/exit%s with 303 to %s and clears the cookie', async (query, location) => {
    const response = await suite.ctx.request('GET', `/preview/exit${query}`, { headers: { cookie: `${PREVIEW_COOKIE}=anything` } });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(location);
    expect(response.headers['cache-control']).toBe('no-store');
    expectCleared(response, PREVIEW_COOKIE);
  });

  // The raw value passes the pattern; resolved (dot segments, percent-encoding) it would leave the site.
  it.each(['/.//evil.example', '/..//evil.example', '/%2e%2e//evil.example', '/./%2Fevil.example', '/blog/../%5Cevil.example', '/%2F%2Fevil.example'])(
    'sends to=%p to the home page, never off the site',
    async (to) => {
      const response = await suite.ctx.request('GET', `/preview/exit?to=${encodeURIComponent(to)}`);
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe('/');
    },
  );

  it.each(['//evil.example', '//evil.example/blog', '/\\evil.example', 'https://evil.example', 'evil.example', '/blog\r\nset-cookie: a=b', ''])(
    'refuses to=%p with 400 and no redirect',
    async (to) => {
      const response = await suite.ctx.request('GET', `/preview/exit?to=${encodeURIComponent(to)}`);
      expect(response.statusCode).toBe(400);
      expect(response.headers.location).toBeUndefined();
    },
  );
});
