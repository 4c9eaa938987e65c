import fs from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { insertService } from '../../../src/site/content/content-repository';
import { FORM_TOKEN_FIELD, PREVIEW_BANNER } from '@agency/shared';
import { CANONICAL_REDIRECT_CACHE_CONTROL, FORM_PAGE_CACHE_CONTROL, PAGE_CACHE_CONTROL, PREVIEW_PAGE_CACHE_CONTROL } from '../../../src/site/pages/serve-page';
import { rollback } from '../../../src/delivery/releases/commands';
import { startTestApp, TEST_SITE_URL, type TestContext } from '../../helpers/app';
import { eventually } from '../../helpers/eventually';
import { privacySpellings } from '../../helpers/page-spellings';
import { openRawClient } from '../../helpers/raw-socket';
import type { HttpResponse } from '../../helpers/http';
import { writeBuilds } from '../../helpers/page-builds';
import { publishFixture, setUpReleaseSuite } from '../../helpers/releases';

// Server-rendered pages as a client sees them over HTTP: validators and encodings, one render kept
// in memory for every request (and every campaign-tagged address) until a release, a rollback or
// a content change makes a new page, and nothing of a request in the page another visitor gets.
// With AGENCY_TEST_COUNT_RENDERS set, the fixture shell stamps each render with its own number
// (helpers/page-builds.ts): two answers with the same bytes come from one render.

/** Headers a client chooses, none of which may reach a page's bytes. */
const FORGED_HEADERS = {
  host: 'evil.example',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-proto': 'http',
  cookie: 'session=secret-cookie-value',
  'accept-language': 'en-GB,en;q=0.9',
  'user-agent': 'Forger/1.0 (evil.example)',
};

function expectNothingForged(response: HttpResponse): void {
  expect(response.body).not.toContain('evil.example');
  expect(response.body).not.toContain('secret-cookie-value');
  expect(response.body).not.toContain('Forger');
  expect(response.headers['set-cookie']).toBeUndefined();
}

/** The hero's heading (`Послуг: N`) of a page. */
const heading = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1];

describe('pages served from the page cache', () => {
  let ctx: TestContext;
  let root: string;
  const get = (url: string, headers: Record<string, string> = {}) => ctx.request('GET', url, { headers: { accept: 'text/html', ...headers } });

  beforeAll(async () => {
    process.env.AGENCY_TEST_COUNT_RENDERS = '1';
    root = writeBuilds();
    ctx = await startTestApp({ staticRoot: root });
  });

  afterAll(async () => {
    delete process.env.AGENCY_TEST_COUNT_RENDERS;
    delete process.env.AGENCY_TEST_BREAK_HERO;
    await ctx?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  describe('validators and encodings', () => {
    it('answers a page 200 as HTML with a strong ETag, the page Cache-Control and Vary: Accept-Encoding', async () => {
      const response = await get('/');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers.etag).toMatch(/^"[^"]+"$/);
      expect(response.headers['cache-control']).toBe(PAGE_CACHE_CONTROL);
      expect(response.headers.vary).toBe('accept-encoding');
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.body).toContain('<div data-remote-module="home/Hero" data-remote-release="dist"><h1>Послуг: ');
    });

    it.each([
      ['br', (raw: Buffer) => brotliDecompressSync(raw)],
      ['gzip', (raw: Buffer) => gunzipSync(raw)],
    ])('sends the page %s-encoded to a client that accepts it, decoding to exactly the identity body', async (encoding, decode) => {
      const identity = await get('/');
      const encoded = await get('/', { 'accept-encoding': encoding });
      expect(encoded.statusCode).toBe(200);
      expect(encoded.headers['content-encoding']).toBe(encoding);
      expect(encoded.headers.vary).toBe('accept-encoding');
      expect(encoded.headers['cache-control']).toBe(PAGE_CACHE_CONTROL);
      expect(encoded.raw.length).toBeLessThan(identity.raw.length);
      expect(decode(encoded.raw).equals(identity.raw)).toBe(true);
    });

    it.each([
      ['the ETag', (etag: string) => etag],
      ['the ETag as a weak one', (etag: string) => `W/${etag}`],
      ['the ETag inside a list', (etag: string) => `"older", ${etag}, W/"other"`],
      ['*', () => '*'],
    ])('answers 304 with an empty body to If-None-Match holding %s', async (_name, ifNoneMatch) => {
      const page = await get('/', { 'accept-encoding': 'gzip' });
      const etag = String(page.headers.etag);
      const revalidated = await get('/', { 'if-none-match': ifNoneMatch(etag), 'accept-encoding': 'gzip' });
      expect(revalidated.statusCode).toBe(304);
      expect(revalidated.raw.length).toBe(0);
      expect(revalidated.headers.etag).toBe(etag);
      expect(revalidated.headers['cache-control']).toBe(PAGE_CACHE_CONTROL);
    });

    it.each([
      ['identity', (raw: Buffer) => raw],
      ['br', (raw: Buffer) => brotliDecompressSync(raw)],
      ['gzip', (raw: Buffer) => gunzipSync(raw)],
    ])('sends a page with forms (%s) with a form token of its own in each response, for the browser alone', async (encoding, decode) => {
      const tokenField = new RegExp(`<input type="hidden" form="contact-form" name="${FORM_TOKEN_FIELD}" value="(contact\\.[^"]+)">`);
      const headers: Record<string, string> = encoding === 'identity' ? {} : { 'accept-encoding': encoding };
      const pages = [await get('/hero/with-form', headers), await get('/hero/with-form', headers)];
      for (const page of pages) {
        expect([page.statusCode, page.headers['cache-control'], page.headers.etag]).toEqual([200, FORM_PAGE_CACHE_CONTROL, undefined]);
        expect(page.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
      }
      const [first, second] = pages.map((page) => decode(page.raw).toString('utf8'));
      const [firstToken, secondToken] = [tokenField.exec(first!)?.[1], tokenField.exec(second!)?.[1]];
      expect(firstToken).toBeDefined();
      expect(secondToken).not.toBe(firstToken);
      // The rest of the page is the one kept render, and the token sits inside the document.
      expect(first!.replace(firstToken!, '')).toBe(second!.replace(secondToken!, ''));
      expect(first).toMatch(new RegExp(`${firstToken!.replace(/\./g, '\\.')}"></body></html>$`));
      // An If-None-Match never turns such a page into a 304 of another visitor's token.
      expect((await get('/hero/with-form', { ...headers, 'if-none-match': '*' })).statusCode).toBe(200);
    });

    it('sends the better brotli copy made in the background under the same ETag, the first one marked for nginx not to keep', async () => {
      // An address no other test asks for: its first answer is the copy made with the render.
      const address = '/blog?page=977';
      const first = await get(address, { 'accept-encoding': 'br' });
      expect(first.headers['x-accel-expires']).toBe('0');
      const better = await eventually(
        'the better copy',
        () => get(address, { 'accept-encoding': 'br' }),
        (response) => response.headers['x-accel-expires'] === undefined,
      );
      expect(better.headers.etag).toBe(first.headers.etag);
      expect(better.raw.length).toBeLessThanOrEqual(first.raw.length);
      expect(brotliDecompressSync(better.raw).equals(brotliDecompressSync(first.raw))).toBe(true);
      const revalidated = await get(address, { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) });
      expect([revalidated.statusCode, revalidated.headers.etag]).toEqual([304, first.headers.etag]);
      const gzipped = await get('/blog?page=978', { 'accept-encoding': 'gzip' });
      expect([gzipped.statusCode, gzipped.headers['x-accel-expires']]).toEqual([200, undefined]);
    });

    it('answers 200 with the whole page to an ETag the page no longer has', async () => {
      const page = await get('/');
      const stale = await get('/', { 'if-none-match': '"an-older-page"' });
      expect(stale.statusCode).toBe(200);
      expect(stale.body).toBe(page.body);
      expect(stale.headers.etag).toBe(page.headers.etag);
    });

    it('gives a 404 page an ETag but never answers it 304', async () => {
      const missing = await get('/no/such/page');
      expect(missing.statusCode).toBe(404);
      expect(missing.headers.etag).toMatch(/^"[^"]+"$/);
      expect(missing.body).toContain('<h1>Сторінку не знайдено</h1>');
      for (const ifNoneMatch of [String(missing.headers.etag), '*']) {
        const again = await get('/no/such/page', { 'if-none-match': ifNoneMatch });
        expect(again.statusCode).toBe(404);
        expect(again.body).toBe(missing.body);
      }
    });

    it('answers HEAD of a page 200 with the same ETag and no body', async () => {
      const page = await get('/');
      const head = await ctx.request('HEAD', '/', { headers: { accept: 'text/html' } });
      expect(head.statusCode).toBe(200);
      expect(head.headers.etag).toBe(page.headers.etag);
      expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(head.headers['cache-control']).toBe(PAGE_CACHE_CONTROL);
      expect(head.raw.length).toBe(0);
    });
  });

  describe('one render kept in memory', () => {
    it('serves a page again from memory: the same bytes, with no new render', async () => {
      const first = await get('/hero/repeated');
      expect(first.body).toMatch(/<!-- render \d+ -->/);
      for (let i = 0; i < 3; i += 1) {
        const again = await get('/hero/repeated');
        expect(again.body).toBe(first.body);
        expect(again.headers.etag).toBe(first.headers.etag);
      }
      // Another address is another render, with its own stamp.
      expect(/<!-- render \d+ -->/.exec((await get('/hero/another')).body)?.[0]).not.toBe(/<!-- render \d+ -->/.exec(first.body)?.[0]);
    });

    it('renders a page not kept yet once for 20 concurrent requests', async () => {
      const responses = await Promise.all(Array.from({ length: 20 }, () => get('/hero/concurrent')));
      expect(responses.map((response) => response.statusCode)).toEqual(Array(20).fill(200));
      expect(responses[0]!.body).toMatch(/<!-- render \d+ -->/);
      expect(new Set(responses.map((response) => response.body)).size).toBe(1);
      expect(new Set(responses.map((response) => response.headers.etag)).size).toBe(1);
    });

    it('renders once for addresses that differ only in query parameters the page does not read', async () => {
      const tagged = await get('/hero/campaign?utm_source=fb&fbclid=abc');
      const plain = await get('/hero/campaign');
      const otherClick = await get('/hero/campaign?fbclid=xyz&utm_medium=cpc');
      expect(tagged.statusCode).toBe(200);
      expect(plain.body).toBe(tagged.body);
      expect(otherClick.body).toBe(tagged.body);
      expect(new Set([tagged, plain, otherClick].map((response) => response.headers.etag)).size).toBe(1);

      const home = await get('/?utm_source=fb&fbclid=abc');
      expect((await get('/')).body).toBe(home.body);
      expect((await get('/')).headers.etag).toBe(home.headers.etag);
    });
  });

  describe('one page, one address', () => {
    const stampOf = (response: HttpResponse) => /<!-- render (\d+) -->/.exec(response.body)?.[1];

    it.each([
      ['/PRIVACY', '/privacy'],
      ['/%70rivacy', '/privacy'],
      ['/privacy/', '/privacy'],
      ['/privacy//', '/privacy'],
      ['//privacy', '/privacy'],
      ['/./privacy', '/privacy'],
      ['/blog/../privacy', '/privacy'],
      ['/Blog/1/?utm_source=fb&fbclid=abc', '/blog/1?utm_source=fb&fbclid=abc'],
      ['/blog//?category=smm', '/blog?category=smm'],
    ])('answers %s with a 301 to %s, kept by the browser only', async (spelling, canonical) => {
      const response = await get(spelling);
      expect(response.statusCode).toBe(301);
      expect(response.headers.location).toBe(canonical);
      expect(response.headers['cache-control']).toBe(CANONICAL_REDIRECT_CACHE_CONTROL);
      expect(response.body).toBe('');
    });

    it('answers a path that names no page 404, as it is', async () => {
      for (const path of ['/PRIVACY/x', '/privacy%20', '/Nowhere/']) {
        const response = await get(path);
        expect(response.statusCode).toBe(404);
        expect(response.headers.location).toBeUndefined();
      }
    });

    it('renders /privacy at most once for 300 spellings of it, and keeps / cached', async () => {
      const home = await get('/');
      const spellings = privacySpellings(300);
      const stamps = new Set<string | undefined>();
      for (const spelling of spellings) {
        const redirect = await get(spelling);
        expect(redirect.statusCode).toBe(301);
        // The browser follows it.
        const page = await get(String(redirect.headers.location));
        expect(page.statusCode).toBe(200);
        stamps.add(stampOf(page));
      }
      expect(stamps.size).toBe(1);
      expect(stampOf(await get('/privacy'))).toBe([...stamps][0]);
      // The home page was not pushed out: the same render.
      expect(stampOf(await get('/'))).toBe(stampOf(home));
    });

    it('answers 300 forged preview links with the kept page and the banner, rendering nothing', async () => {
      const home = await get('/');
      for (let i = 0; i < 300; i += 1) {
        const forged = await get(`/?preview=${i}.forged-signature-${i}`);
        expect(forged.statusCode).toBe(200);
        expect(forged.headers['cache-control']).toBe(PREVIEW_PAGE_CACHE_CONTROL);
        expect(forged.headers['x-robots-tag']).toBe('noindex');
        expect(forged.body).toContain(`>${PREVIEW_BANNER.invalid}<`);
        expect(stampOf(forged)).toBe(stampOf(home));
      }
      expect((await get('/')).body).toBe(home.body);
    });
  });

  describe('a page rendered without one of its parts', () => {
    it('is sent with Cache-Control: no-cache and not kept: the next request renders the slot', async () => {
      process.env.AGENCY_TEST_BREAK_HERO = '1';
      let broken: HttpResponse;
      try {
        broken = await get('/hero/slot-failed');
      } finally {
        delete process.env.AGENCY_TEST_BREAK_HERO;
      }
      expect(broken.statusCode).toBe(200);
      expect(broken.body).toContain('<div class="placeholder"></div>');
      expect(broken.headers['cache-control']).toBe('no-cache');

      const next = await get('/hero/slot-failed');
      expect(next.statusCode).toBe(200);
      expect(next.body).toContain('<div data-remote-module="home/Hero" data-remote-release="dist"><h1>Послуг: ');
      expect(next.headers['cache-control']).toBe(PAGE_CACHE_CONTROL);
      expect(next.headers.etag).not.toBe(broken.headers.etag);
    });
  });

  describe('a content change', () => {
    it('renders again only the slots whose data changed: the others’ markup is kept', async () => {
      const slotRenders = (html: string) => [...html.matchAll(/<!-- slot render (\d+) -->/g)].map((match) => match[1]);
      const before = await get('/hero/with-lower');
      const [heroBefore, reasonsBefore] = slotRenders(before.body);
      expect([heroBefore, reasonsBefore]).toEqual([expect.any(String), expect.any(String)]);
      const id = await insertService(ctx.db, {
        slug: 'slot-markup-test',
        title: 'Послуга для розмітки',
        description: 'Змінює дані героя, не причин.',
        icon_url: '/media/services/smm.svg',
        features: ['Одна'],
        price_from: null,
        sort_order: 98,
      });
      try {
        const after = await eventually('a new page', () => get('/hero/with-lower'), (response) => response.headers.etag !== before.headers.etag, 3000);
        const [heroAfter, reasonsAfter] = slotRenders(after.body);
        // The hero reads the services: rendered anew; the reasons read nothing: the same markup.
        expect([heroAfter === heroBefore, reasonsAfter]).toEqual([false, reasonsBefore]);
      } finally {
        await ctx.db.kysely.deleteFrom('services').where('id', '=', id).execute();
      }
      // The service gone again, for the next test to start from the pages as they were.
      await eventually('the page without the service', () => get('/'), (response) => heading(response.body) === heading(before.body), 3000);
    });

    it('makes a new page within a few seconds, with the new content and another ETag', async () => {
      const before = await get('/');
      const count = Number(heading(before.body)?.replace('Послуг: ', ''));
      expect(Number.isInteger(count)).toBe(true);
      const id = await insertService(ctx.db, {
        slug: 'serve-page-test',
        title: 'Тестова послуга',
        description: 'Додана тестом кешу сторінок.',
        icon_url: '/media/services/smm.svg',
        features: ['Одна'],
        price_from: null,
        sort_order: 99,
      });
      try {
        const after = await eventually(
          'the page to show the new service',
          () => get('/'),
          (response) => heading(response.body) === `Послуг: ${count + 1}`,
          3000,
        );
        expect(after.statusCode).toBe(200);
        expect(after.headers.etag).not.toBe(before.headers.etag);
        // The new page is kept in turn.
        expect((await get('/')).body).toBe(after.body);
      } finally {
        await ctx.db.kysely.deleteFrom('services').where('id', '=', id).execute();
      }
      await eventually(
        'the page to drop the removed service',
        () => get('/'),
        (response) => heading(response.body) === `Послуг: ${count}`,
        3000,
      );
    });
  });
});

describe('nothing a client sends enters a page', () => {
  describe('with pages kept (behind a trusted proxy)', () => {
    let ctx: TestContext;
    let root: string;

    beforeAll(async () => {
      root = writeBuilds();
      ctx = await startTestApp({ staticRoot: root, trustProxy: true });
    });

    afterAll(async () => {
      await ctx?.close();
      fs.rmSync(root, { recursive: true, force: true });
    });

    it.each([
      ['a page', '/', 200],
      ['a 404 page', '/no/such/forged', 404],
    ])('renders %s first asked for with forged headers as it then sends everyone', async (_name, url, status) => {
      const forged = await ctx.request('GET', url, { headers: { accept: 'text/html', ...FORGED_HEADERS } });
      const plain = await ctx.request('GET', url, { headers: { accept: 'text/html' } });
      expect(forged.statusCode).toBe(status);
      expect(plain.statusCode).toBe(status);
      expect(forged.body).toBe(plain.body);
      expect(forged.headers.etag).toBe(plain.headers.etag);
      expectNothingForged(forged);
      expectNothingForged(plain);
    });

    it('links the canonical address at the configured site origin', async () => {
      const page = await ctx.request('GET', '/', { headers: FORGED_HEADERS });
      expect(page.body).toContain(`<link rel="canonical" href="${TEST_SITE_URL}/">`);
    });

    it('renders a request whose target names another host (absolute form) as the plain address', async () => {
      const client = await openRawClient(ctx.baseUrl);
      client.socket.write('GET http://evil.example/no/such/target HTTP/1.1\r\nHost: evil.example\r\nAccept: text/html\r\nConnection: close\r\n\r\n');
      await client.closed;
      const forged = client.received();
      const plain = await ctx.request('GET', '/no/such/target', { headers: { accept: 'text/html' } });
      expect(forged).toMatch(/^HTTP\/1\.1 404 /);
      expect(forged.endsWith(plain.body)).toBe(true);
      expect(forged).not.toContain('evil.example');
    });
  });

  describe('with no page kept (PAGE_CACHE_MB=0)', () => {
    let ctx: TestContext;
    let root: string;

    beforeAll(async () => {
      root = writeBuilds();
      ctx = await startTestApp({ staticRoot: root, trustProxy: true, pageCacheMaxBytes: 0 });
    });

    afterAll(async () => {
      delete process.env.AGENCY_TEST_COUNT_RENDERS;
      await ctx?.close();
      fs.rmSync(root, { recursive: true, force: true });
    });

    it('renders every request', async () => {
      process.env.AGENCY_TEST_COUNT_RENDERS = '1';
      try {
        const first = await ctx.request('GET', '/');
        const second = await ctx.request('GET', '/');
        expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
        expect(second.body).not.toBe(first.body);
        expect(second.headers.etag).not.toBe(first.headers.etag);
      } finally {
        delete process.env.AGENCY_TEST_COUNT_RENDERS;
      }
    });

    it('renders a forged request exactly as a plain one, with the canonical link at the site origin', async () => {
      const forged = await ctx.request('GET', '/', { headers: { accept: 'text/html', ...FORGED_HEADERS } });
      const plain = await ctx.request('GET', '/', { headers: { accept: 'text/html' } });
      expect(forged.statusCode).toBe(200);
      expect(forged.body).toBe(plain.body);
      expect(forged.headers.etag).toBe(plain.headers.etag);
      expect(forged.body).toContain(`<link rel="canonical" href="${TEST_SITE_URL}/">`);
      expectNothingForged(forged);
    });
  });
});

describe('a release and a rollback of the shell', () => {
  const suite = setUpReleaseSuite();
  const home = () => suite.ctx.request('GET', '/', { headers: { accept: 'text/html' } });
  const serving = (build: string) => (response: HttpResponse) => response.statusCode === 200 && response.body.includes(`data-build="${build}"`);

  it('makes a new page on each release, and a rollback brings back the page the release before served', async () => {
    const dist = await home();
    expect(serving('dist')(dist)).toBe(true);

    await publishFixture(suite.fixture, 'shell', { label: 'v1' });
    const v1 = await eventually('the page of release v1', home, serving('v1'), 3000);
    expect(v1.headers.etag).not.toBe(dist.headers.etag);

    await publishFixture(suite.fixture, 'shell', { label: 'v2' });
    const v2 = await eventually('the page of release v2', home, serving('v2'), 3000);
    expect(v2.headers.etag).not.toBe(v1.headers.etag);
    expect(v2.headers['cache-control']).toBe(PAGE_CACHE_CONTROL);

    await rollback(suite.fixture.context, 'shell');
    const back = await eventually('the page of release v1 again', home, serving('v1'), 3000);
    expect(back.body).toBe(v1.body);
    expect(back.headers.etag).toBe(v1.headers.etag);
  });
});
