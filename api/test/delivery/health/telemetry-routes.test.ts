import { MASKED_EMAIL, MASKED_PHONE, randomId, type ApiErrorBody, type TelemetryBatch } from '@agency/shared';
import { ATTRIBUTION_VALUE_MAX, TELEMETRY_LIMITS } from '@agency/shared/contracts';
import { bucketRange } from '../../../src/delivery/health/histogram';
import { CLIENT_LIMITS } from '../../../src/delivery/health/telemetry-limits';
import { FLUSH_INTERVAL_MS } from '../../../src/delivery/health/telemetry-recorder';
import { toMinute } from '../../../src/platform/lib/minutes';
import { startTestApp, testConfig, type TestContext } from '../../helpers/app';
import { eventually } from '../../helpers/eventually';
import type { HttpResponse } from '../../helpers/http';
import { browserError, eventuallyStored, ofRelease, pageViewBatch, readTelemetry, settleTelemetry, type StoredTelemetry } from '../../helpers/telemetry';

// POST /api/telemetry on a real server and database: what is accepted is aggregated and written
// about once a second; what is refused leaves the database as it was. No app is released here,
// so the server serves every visitor each app's build folder: `dist` is the release a report
// counts for.
jest.setTimeout(60_000);

const PATH = '/api/telemetry';
const TELEMETRY = testConfig('sqlite::memory:').telemetry;
const SERVED = 'dist';

const MINUTE_MS = 60_000;

/** Waits, if need be, so that a few seconds of the current window (a minute, an hour) are left: a client's allowance starts afresh with each. */
async function awayFromTheWindowsEnd(windowMs: number): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < 5000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

let clients = 0;
/** An address of its own per test: what one client may add is bounded (CLIENT_LIMITS). */
const newClient = () => `127.0.5.${(clients += 1)}`;

const post = (ctx: TestContext, body: unknown, options: { headers?: Record<string, string>; localAddress?: string } = {}) =>
  ctx.request('POST', PATH, { json: body, ...options });

function expectError(response: HttpResponse, status: number, code: string): ApiErrorBody {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = response.json<ApiErrorBody>();
  expect(body.error.code).toBe(code);
  expect(body.error.message).toMatch(/[а-яіїєґ]/i);
  return body;
}

describe('POST /api/telemetry', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await startTestApp();
  });

  afterAll(async () => {
    await ctx.close();
  });

  /** What every beacon before it held is written; then the telemetry tables are emptied, so each test reads its own rows. */
  async function cleanSlate() {
    await settleTelemetry(ctx);
    for (const table of ['telemetry_minutes', 'telemetry_errors', 'telemetry_error_minutes'] as const) await ctx.db.kysely.deleteFrom(table).execute();
  }

  describe('what is counted', () => {
    let client = '';
    beforeEach(async () => {
      await cleanSlate();
      client = newClient();
    });
    const send = (body: unknown) => post(ctx, body, { localAddress: client });

    it('answers 204 without a body and stores page views, vital histograms and errors per app release', async () => {
      const shell = SERVED;
      const blog = SERVED;
      const home = SERVED;
      const onPost = { shell, blog };
      const batch: TelemetryBatch = {
        page_views: [
          { page: '/blog/:postId', releases: onPost },
          { page: '/blog/:postId', releases: onPost },
          { page: '/', releases: { shell, home } },
        ],
        vitals: [
          { name: 'LCP', value: 1234, page: '/blog/:postId', releases: onPost },
          { name: 'LCP', value: 1234.5, page: '/blog/:postId', releases: onPost },
          { name: 'CLS', value: 0.12, page: '/blog/:postId', releases: onPost },
          { name: 'TTFB', value: 3, page: '/', releases: { shell, home } },
        ],
        errors: [
          browserError({ kind: 'boundary', app: 'blog', release: blog, page: '/blog/:postId', message: 'Teaser failed', count: 2 }),
          browserError({ kind: 'load_failure', app: 'home', release: home, message: 'Loading chunk 12 failed' }),
        ],
      };
      const startMinute = toMinute(Date.now());
      const response = await send(batch);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(response.headers['cache-control']).toBe('no-store');

      const stored = await eventuallyStored(ctx.db, 'blog', blog, (rows) => rows.errorMinutes.length > 0);
      const endMinute = toMinute(Date.now());
      const blogCounts = stored.minutes.map(({ page, kind, bucket, count }) => ({ page, kind, bucket, count }));
      expect(blogCounts.filter((row) => row.bucket === -1)).toEqual(
        expect.arrayContaining([
          { page: '/blog/:postId', kind: 'page_view', bucket: -1, count: 2 },
          { page: '/blog/:postId', kind: 'boundary', bucket: -1, count: 2 },
        ]),
      );
      expect(blogCounts.filter((row) => row.bucket === -1)).toHaveLength(2);
      for (const { minute } of stored.minutes) expect(minute >= startMinute && minute <= endMinute).toBe(true);

      // Both LCPs fall in one bucket that holds them; CLS is counted in thousandths.
      const lcp = stored.minutes.filter((row) => row.kind === 'LCP');
      expect(lcp).toHaveLength(1);
      expect(lcp[0]?.count).toBe(2);
      const [low, high] = bucketRange(lcp[0]?.bucket ?? -1);
      expect(low).toBeLessThanOrEqual(1234);
      expect(high).toBeGreaterThan(1234.5);
      const cls = stored.minutes.filter((row) => row.kind === 'CLS');
      expect(cls.map((row) => row.count)).toEqual([1]);
      const [clsLow, clsHigh] = bucketRange(cls[0]?.bucket ?? -1);
      expect(clsLow <= 120 && 120 < clsHigh).toBe(true);

      expect(stored.errors).toEqual([
        expect.objectContaining({ kind: 'boundary', page: '/blog/:postId', message: 'Teaser failed', stack: '', first_minute: stored.errorMinutes[0]?.minute }),
      ]);
      expect(stored.errorMinutes.map((row) => row.count)).toEqual([2]);

      // The shell counts every page view; the home remote only the page it was on.
      const shellRows = (await eventuallyStored(ctx.db, 'shell', shell, (rows) => rows.minutes.length > 0)).minutes;
      expect(shellRows.filter((row) => row.kind === 'page_view').map(({ page, count }) => ({ page, count }))).toEqual([
        { page: '/', count: 1 },
        { page: '/blog/:postId', count: 2 },
      ]);
      expect(shellRows.filter((row) => row.kind === 'TTFB').map(({ page, bucket, count }) => ({ page, bucket, count }))).toEqual([{ page: '/', bucket: 3, count: 1 }]);
      const homeRows = ofRelease(await readTelemetry(ctx.db), 'home', home);
      expect(homeRows.minutes.filter((row) => row.bucket === -1).map(({ kind, count }) => ({ kind, count }))).toEqual([
        { kind: 'load_failure', count: 1 },
        { kind: 'page_view', count: 1 },
      ]);
      // Errors are kept where they happened, not in the other apps of the page.
      expect(shellRows.some((row) => row.kind === 'boundary' || row.kind === 'load_failure')).toBe(false);
    });

    it('keeps one sample of an error reported again, and sums its counts', async () => {
      const blog = SERVED;
      const stack = 'TypeError: x is undefined\n    at Teaser (http://127.0.0.1:8080/remotes/blog/abc/chunk.0123abcd45.js:1:25)';
      const error = browserError({ app: 'blog', release: blog, page: '/blog', stack, message: 'TypeError: x is undefined' });
      expect((await send({ errors: [{ ...error, count: 2 }] })).statusCode).toBe(204);
      await eventuallyStored(ctx.db, 'blog', blog, (rows) => rows.errorMinutes.length > 0);
      expect((await send({ errors: [{ ...error, count: 3 }, { ...error, message: 'another error', count: 1 }] })).statusCode).toBe(204);

      const sum = (rows: StoredTelemetry['errorMinutes']) => rows.reduce((total, row) => total + row.count, 0);
      const stored = await eventuallyStored(ctx.db, 'blog', blog, (rows) => sum(rows.errorMinutes) === 6);
      expect(stored.errors.map((row) => row.message).sort()).toEqual(['TypeError: x is undefined', 'another error']);
      const sample = stored.errors.find((row) => row.message === 'TypeError: x is undefined');
      expect(sample?.stack).toBe(stack);
      expect(sum(stored.errorMinutes.filter((row) => row.fingerprint === sample?.fingerprint))).toBe(5);
      expect(stored.minutes.filter((row) => row.kind === 'uncaught').reduce((total, row) => total + row.count, 0)).toBe(6);
    });

    it('masks e-mail addresses, phone numbers and query strings the browser left in, and counts such errors as one', async () => {
      const blog = SERVED;
      const message = (email: string, phone: string) =>
        `Не вдалося надіслати ${email}, ${phone}: https://khvylia.example/api/contact?utm_source=fb&fbclid=IwAR0xyz`;
      const stack = (email: string) => `Error: ${email}\n    at submit (http://127.0.0.1:8080/main.3f2a9c1b7d.js:2:345)`;
      const batch = {
        errors: [
          browserError({ kind: 'rejection', app: 'blog', release: blog, message: message('olena@example.com', '+380 67 123 45 67'), stack: stack('olena@example.com') }),
          browserError({ kind: 'rejection', app: 'blog', release: blog, message: message('petro.k@mail.example.ua', '067 765 43 21'), stack: stack('petro.k@mail.example.ua'), count: 4 }),
        ],
      };
      expect((await send(batch)).statusCode).toBe(204);

      const stored = await eventuallyStored(ctx.db, 'blog', blog, (rows) => rows.errorMinutes.length > 0);
      expect(stored.errors).toHaveLength(1);
      expect(stored.errors[0]?.message).toBe(`Не вдалося надіслати ${MASKED_EMAIL}, ${MASKED_PHONE}: https://khvylia.example/api/contact`);
      // A stack keeps its digits: the script's line and column are what maps it to the source.
      expect(stored.errors[0]?.stack).toBe(`Error: ${MASKED_EMAIL}\n    at submit (http://127.0.0.1:8080/main.3f2a9c1b7d.js:2:345)`);
      expect(stored.errorMinutes.reduce((total, row) => total + row.count, 0)).toBe(5);
      const everything = JSON.stringify(await readTelemetry(ctx.db));
      for (const secret of ['olena', 'petro', '123 45 67', '765 43 21', 'utm_source', 'fbclid']) expect(everything).not.toContain(secret);
    });

    it('drops fields the contract does not name, and apps it does not know, without storing them', async () => {
      const shell = SERVED;
      const blog = SERVED;
      const response = await send({
        page_views: [{ page: '/blog', releases: { shell, admin: 'secret-admin-release' }, url: 'https://khvylia.example/blog?email=olena@example.com' }],
        errors: [{ ...browserError({ app: 'blog', release: blog }), user_agent: 'SecretBrowser/1.0', visitor: 'olena@example.com' }],
        visitor_ip: '203.0.113.7',
      });
      expect(response.statusCode).toBe(204);
      await eventuallyStored(ctx.db, 'blog', blog, (rows) => rows.errorMinutes.length > 0);
      const stored = await readTelemetry(ctx.db);
      expect(ofRelease(stored, 'shell', shell).minutes.map(({ page, kind, count }) => ({ page, kind, count }))).toEqual([
        { page: '/blog', kind: 'page_view', count: 1 },
      ]);
      expect(stored.minutes.some((row) => row.app === 'admin')).toBe(false);
      const everything = JSON.stringify(stored);
      for (const secret of ['secret-admin-release', 'olena', 'SecretBrowser', '203.0.113.7', 'email=']) expect(everything).not.toContain(secret);
    });

    it('counts a browser session once, by its id, with the source of its first report, even from a beacon with nothing else', async () => {
      const id = randomId();
      const visit = { id, source: 'facebook', medium: 'cpc', campaign: 'black-friday' };
      const firstMinute = toMinute(Date.now());
      const shell = SERVED;
      expect((await send({ ...pageViewBatch({ shell }), session: visit })).statusCode).toBe(204);
      // The same session on a later page load (outside the telemetry sample: the visit alone).
      expect((await send({ session: { ...visit, source: 'other' } })).statusCode).toBe(204);
      // Someone's address in a tag is not kept.
      const tagged = randomId();
      expect((await send({ session: { id: tagged, source: 'newsletter', medium: 'email', campaign: 'for olena@example.com' } })).statusCode).toBe(204);
      await eventuallyStored(ctx.db, 'shell', shell, (stored) => stored.minutes.length === 1);
      const sessions = await eventually(
        'both sessions stored',
        () => ctx.db.kysely.selectFrom('visit_sessions').selectAll().where('id', 'in', [id, tagged]).orderBy('source').execute(),
        (rows) => rows.length === 2,
      );
      // Written in the minute the beacons came, which a slow run may see turn.
      for (const session of sessions) expect([firstMinute, firstMinute + 1]).toContain(session.first_minute);
      expect(sessions.map(({ first_minute: _minute, ...visitRow }) => visitRow)).toEqual([
        { id, source: 'facebook', medium: 'cpc', campaign: 'black-friday' },
        { id: tagged, source: 'newsletter', medium: 'email', campaign: `for ${MASKED_EMAIL}` },
      ]);
    });

    it('counts a report only for the releases the server serves its client, and drops made-up ones', async () => {
      const made = 'made-up-release';
      const response = await send({
        page_views: [{ page: '/', releases: { shell: SERVED, blog: made } }],
        vitals: [{ name: 'LCP', value: 900, page: '/', releases: { shell: made } }],
        errors: [browserError({ app: 'blog', release: made }), browserError({ app: 'home', release: SERVED })],
      });
      expect(response.statusCode).toBe(204);
      await settleTelemetry(ctx);
      const stored = await readTelemetry(ctx.db);
      expect(stored.minutes.map(({ app, release, kind, count }) => ({ app, release, kind, count }))).toEqual([
        { app: 'home', release: SERVED, kind: 'uncaught', count: 1 },
        { app: 'shell', release: SERVED, kind: 'page_view', count: 1 },
      ]);
      expect(JSON.stringify(stored)).not.toContain(made);
    });

    it('counts a page it does not know as *', async () => {
      expect((await send(pageViewBatch({ shell: SERVED }, '/made-up-page-1'))).statusCode).toBe(204);
      expect((await send(pageViewBatch({ shell: SERVED }, '/blog/:postId'))).statusCode).toBe(204);
      await settleTelemetry(ctx);
      expect((await readTelemetry(ctx.db)).minutes.map((row) => row.page)).toEqual(['*', '/blog/:postId']);
    });

    it(`counts an error at most ${CLIENT_LIMITS.errorCount} times, and ${CLIENT_LIMITS.eventsPerMinute} events of an app release a minute from one client`, async () => {
      await awayFromTheWindowsEnd(MINUTE_MS);
      const twenty = { page_views: Array.from({ length: 20 }, () => ({ page: '/', releases: { shell: SERVED } })) };
      expect((await send({ errors: [browserError({ app: 'blog', release: SERVED, count: TELEMETRY_LIMITS.errorCount })] })).statusCode).toBe(204);
      for (let beacon = 0; beacon < 5; beacon += 1) expect((await send(twenty)).statusCode).toBe(204);
      // Another client has its own allowance.
      expect((await post(ctx, twenty, { localAddress: newClient() })).statusCode).toBe(204);
      await settleTelemetry(ctx);
      const stored = await readTelemetry(ctx.db);
      const counted = (app: string, kind: string) => stored.minutes.filter((row) => row.app === app && row.kind === kind).reduce((sum, row) => sum + row.count, 0);
      expect(counted('blog', 'uncaught')).toBe(CLIENT_LIMITS.errorCount);
      expect(counted('shell', 'page_view')).toBe(CLIENT_LIMITS.eventsPerMinute + 20);
    });

    it(`counts at most ${CLIENT_LIMITS.sessionsPerHour} distinct sessions an hour from one client, and a session again freely`, async () => {
      await awayFromTheWindowsEnd(60 * MINUTE_MS);
      const ids = Array.from({ length: CLIENT_LIMITS.sessionsPerHour + 5 }, () => randomId());
      for (const id of ids) expect((await send({ session: { id, source: 'flood', medium: 'x', campaign: 'y' } })).statusCode).toBe(204);
      expect((await send({ ...pageViewBatch({ shell: SERVED }), session: { id: ids[0]!, source: 'flood', medium: 'x', campaign: 'y' } })).statusCode).toBe(204);
      await settleTelemetry(ctx);
      const stored = await ctx.db.kysely.selectFrom('visit_sessions').select('id').where('id', 'in', ids).execute();
      expect(stored).toHaveLength(CLIENT_LIMITS.sessionsPerHour);
      expect((await readTelemetry(ctx.db)).minutes.filter((row) => row.kind === 'page_view')).toHaveLength(1);
    });

    it('accepts a beacon just under 64 KiB', async () => {
      const blog = SERVED;
      const errors = Array.from({ length: 14 }, (_, index) =>
        browserError({ app: 'blog', release: blog, message: `error ${index}`, stack: 's'.repeat(TELEMETRY_LIMITS.stack) }),
      );
      expect(Buffer.byteLength(JSON.stringify({ errors }))).toBeLessThan(TELEMETRY_LIMITS.bodyBytes);
      expect(Buffer.byteLength(JSON.stringify({ errors }))).toBeGreaterThan(TELEMETRY_LIMITS.bodyBytes - 8 * 1024);
      expect((await send({ errors })).statusCode).toBe(204);
      await eventuallyStored(ctx.db, 'blog', blog, (rows) => rows.errors.length === 14);
    });
  });

  // Each refusal is checked as it is answered; that none of them was stored, once the recorder has
  // written all it was handed, by the last test (one wait, not one per refusal).
  describe('refusals', () => {
    const blog = 'refused-release';
    const view = { page: '/blog', releases: { shell: blog, blog } };
    const error = browserError({ app: 'blog', release: blog });
    let before: StoredTelemetry;

    beforeAll(async () => {
      await settleTelemetry(ctx);
      before = await readTelemetry(ctx.db);
    });

    async function expectRefused(
      request: { json?: unknown; body?: string; headers?: Record<string, string> },
      status: number,
      code: string,
    ): Promise<ApiErrorBody> {
      return expectError(await ctx.request('POST', PATH, request), status, code);
    }

    it('413 for a body over 64 KiB, valid as it may be', async () => {
      const errors = Array.from({ length: TELEMETRY_LIMITS.errors }, (_, index) =>
        browserError({ app: 'blog', release: blog, message: `error ${index}`, stack: 's'.repeat(TELEMETRY_LIMITS.stack) }),
      );
      const body = JSON.stringify({ errors });
      expect(Buffer.byteLength(body)).toBeGreaterThan(TELEMETRY_LIMITS.bodyBytes);
      const refused = await expectRefused({ body, headers: { 'content-type': 'application/json' } }, 413, 'PAYLOAD_TOO_LARGE');
      expect(refused.error.message).toBe('Запит завеликий (максимум 64 КіБ)');
    });

    it('400 for malformed JSON', async () => {
      await expectRefused({ body: '{"page_views": [{"page": "/",', headers: { 'content-type': 'application/json' } }, 400, 'INVALID_JSON');
    });

    it.each([
      ['{}', {}],
      ['empty lists', { page_views: [], vitals: [], errors: [] }],
    ])('400 for an empty report (%s)', async (_label, json) => {
      await expectRefused({ json }, 400, 'EMPTY_REPORT');
    });

    it.each([['[]'], ['null'], ['"beacon"'], ['42']])('400 for a body that is %s, not an object', async (body) => {
      await expectRefused({ body, headers: { 'content-type': 'application/json' } }, 400, 'INVALID_BODY');
    });

    it.each<[string, unknown, string | undefined]>([
      ['an error of an unknown app', { errors: [{ ...error, app: 'admin' }] }, 'errors'],
      ['a page that is a full URL with a query', { page_views: [{ ...view, page: 'https://khvylia.example/blog?utm_source=fb' }] }, 'page_views'],
      ['a page with a query string', { page_views: [{ ...view, page: '/blog?utm_source=fb' }] }, 'page_views'],
      ['a page with a fragment', { errors: [{ ...error, page: '/blog#top' }] }, 'errors'],
      ['a page that is no path', { vitals: [{ name: 'LCP', value: 1, ...view, page: 'blog' }] }, 'vitals'],
      ['a page over the length limit', { page_views: [{ ...view, page: `/${'a'.repeat(TELEMETRY_LIMITS.page)}` }] }, 'page_views'],
      [`more than ${TELEMETRY_LIMITS.errors} errors`, { errors: Array.from({ length: TELEMETRY_LIMITS.errors + 1 }, () => error) }, 'errors'],
      [`more than ${TELEMETRY_LIMITS.pageViews} page views`, { page_views: Array.from({ length: TELEMETRY_LIMITS.pageViews + 1 }, () => view) }, 'page_views'],
      [`more than ${TELEMETRY_LIMITS.vitals} vitals`, { vitals: Array.from({ length: TELEMETRY_LIMITS.vitals + 1 }, () => ({ name: 'LCP', value: 1, ...view })) }, 'vitals'],
      ['a negative vital', { vitals: [{ name: 'LCP', value: -1, ...view }] }, 'vitals'],
      ['a vital over an hour', { vitals: [{ name: 'INP', value: TELEMETRY_LIMITS.vitalValue + 1, ...view }] }, 'vitals'],
      ['a vital given as text', { vitals: [{ name: 'LCP', value: '1200', ...view }] }, 'vitals'],
      ['an unknown vital', { vitals: [{ name: 'FID', value: 10, ...view }] }, 'vitals'],
      ['a page view without releases', { page_views: [{ page: '/blog', releases: {} }] }, 'page_views'],
      ['a release id that is a path', { page_views: [{ ...view, releases: { shell: '../../etc' } }] }, 'page_views'],
      ['an unknown error kind', { errors: [{ ...error, kind: 'warning' }] }, 'errors'],
      ['an error counted 0 times', { errors: [{ ...error, count: 0 }] }, 'errors'],
      ['an error counted in fractions', { errors: [{ ...error, count: 1.5 }] }, 'errors'],
      [`an error counted over ${TELEMETRY_LIMITS.errorCount} times`, { errors: [{ ...error, count: TELEMETRY_LIMITS.errorCount + 1 }] }, 'errors'],
      ['a message over the length limit', { errors: [{ ...error, message: 'x'.repeat(TELEMETRY_LIMITS.message + 1) }] }, 'errors'],
      ['a stack over the length limit', { errors: [{ ...error, stack: 'x'.repeat(TELEMETRY_LIMITS.stack + 1) }] }, 'errors'],
      // Reported as the field `message` (the error formatter names a missing property, at any depth).
      ['an error without a message', { errors: [{ ...error, message: undefined }] }, undefined],
      ['a list that is no list', { page_views: view }, 'page_views'],
      ['a null item', { page_views: [null] }, 'page_views'],
      ['one bad item among good ones', { page_views: [view, view, { ...view, page: '/blog?q=1' }] }, 'page_views'],
      ['a session id that is not a random id', { session: { id: 'visitor-42', source: 'fb', medium: 'cpc', campaign: 'x' } }, 'session'],
      ['a session without its source', { session: { id: '0'.repeat(32), medium: 'cpc', campaign: 'x' } }, undefined],
      ['a session source over the limit', { session: { id: '0'.repeat(32), source: 'x'.repeat(ATTRIBUTION_VALUE_MAX + 1), medium: 'cpc', campaign: 'x' } }, 'session'],
      ['a session source with a line break', { session: { id: '0'.repeat(32), source: 'a\nb', medium: 'cpc', campaign: 'x' } }, 'session'],
    ])('400 for %s', async (_label, json, field) => {
      const refused = await expectRefused({ json }, 400, 'VALIDATION_ERROR');
      if (field) expect(Object.keys(refused.error.fields ?? {})).toEqual([field]);
    });

    it('400 for a body that tries to set __proto__', async () => {
      const body = `{"__proto__": {"page_views": [${JSON.stringify(view)}]}, "page_views": [${JSON.stringify(view)}]}`;
      expect((await ctx.request('POST', PATH, { body, headers: { 'content-type': 'application/json' } })).statusCode).toBe(400);
    });

    it.each([
      ['text/plain', 'text/plain;charset=UTF-8'],
      ['form data', 'application/x-www-form-urlencoded'],
      ['no content type', undefined],
    ])('415 for %s, even with a valid JSON body', async (_label, type) => {
      const body = JSON.stringify({ page_views: [view] });
      await expectRefused({ body, headers: type ? { 'content-type': type } : {} }, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('404 for other methods', async () => {
      expectError(await ctx.request('GET', PATH), 404, 'NOT_FOUND');
    });

    it('stored nothing of any refused beacon', async () => {
      await settleTelemetry(ctx);
      expect(await readTelemetry(ctx.db)).toEqual(before);
      expect(ofRelease(await readTelemetry(ctx.db), 'blog', blog).minutes).toEqual([]);
      expect(await ctx.db.kysely.selectFrom('visit_sessions').selectAll().where('id', '=', '0'.repeat(32)).execute()).toEqual([]);
    });
  });
});

describe('the per-address limit (TELEMETRY_RATE_LIMIT)', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await startTestApp({ telemetry: { ...TELEMETRY, rateLimitPerMinute: 3 } });
  });

  afterAll(async () => {
    await ctx.close();
  });

  it('answers 429 past the limit, stores nothing of the refused beacon, and counts each address apart', async () => {
    const from = { localAddress: '127.0.0.2' };
    const beacon = (page: string) => pageViewBatch({ shell: SERVED }, page);
    for (const page of ['/', '/blog', '/privacy']) expect((await post(ctx, beacon(page), from)).statusCode).toBe(204);
    const refused = await post(ctx, beacon('/blog/:postId'), from);
    expect(refused.json()).toEqual({ error: { code: 'RATE_LIMITED', message: 'Забагато запитів. Спробуйте, будь ласка, трохи пізніше' } });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();

    expect((await post(ctx, beacon('*'), { localAddress: '127.0.0.3' })).statusCode).toBe(204);
    await eventuallyStored(ctx.db, 'shell', SERVED, (rows) => rows.minutes.some((row) => row.page === '*'));
    const stored = await readTelemetry(ctx.db);
    expect(stored.minutes.map((row) => row.page).sort()).toEqual(['*', '/', '/blog', '/privacy']);
  });
});

describe('a flood at the rate limit', () => {
  const BUDGET = { telemetry_minutes: 120, telemetry_error_minutes: 40, telemetry_errors: 15, telemetry_clients: 20, visit_sessions: 30 };
  const RATE = 10;
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await startTestApp({ telemetry: { ...TELEMETRY, rateLimitPerMinute: RATE, budget: BUDGET } });
  });

  afterAll(async () => {
    await ctx.close();
  });

  /** A beacon as large and as varied as the contract lets it be: every row it adds a new one. */
  function hostileBeacon(from: number, index: number): TelemetryBatch {
    const pages = ['/', '/blog', '/blog/:postId', '/privacy', '*'];
    const page = (at: number) => pages[at % pages.length]!;
    return {
      page_views: Array.from({ length: TELEMETRY_LIMITS.pageViews }, (_, at) => ({ page: page(at), releases: { shell: SERVED, home: SERVED, blog: SERVED, forms: SERVED } })),
      vitals: Array.from({ length: TELEMETRY_LIMITS.vitals }, (_, at) => ({ name: 'LCP' as const, value: 1 + ((from * 997 + index * 131 + at * 37) % 60_000), page: page(at), releases: { shell: SERVED } })),
      errors: Array.from({ length: TELEMETRY_LIMITS.errors }, (_, at) => browserError({ app: 'blog', release: SERVED, page: page(at), message: `flood ${from} ${index} ${at} ${'x'.repeat(400)}` })),
      session: { id: randomId(), source: 's'.repeat(ATTRIBUTION_VALUE_MAX), medium: 'm', campaign: 'c' },
    };
  }

  it('keeps every telemetry table within its budget, whatever ten addresses send at the limit', async () => {
    const tables = Object.keys(BUDGET) as (keyof typeof BUDGET)[];
    const rows = async () =>
      Object.fromEntries(
        await Promise.all(tables.map(async (name) => [name, Number((await ctx.db.kysely.selectFrom(name).select(ctx.db.kysely.fn.countAll().as('rows')).executeTakeFirstOrThrow()).rows)])),
      ) as Record<keyof typeof BUDGET, number>;
    // Written once nothing has changed for longer than the recorder's write interval (a marker
    // session could be among the rows the budget deletes). Read often, so that the wait ends
    // soon after that time has passed.
    const written = async () => {
      let last = '';
      let since = Date.now();
      for (;;) {
        const now = JSON.stringify(await rows());
        if (now !== last) [last, since] = [now, Date.now()];
        else if (Date.now() - since > 1.5 * FLUSH_INTERVAL_MS) return JSON.parse(now) as Record<keyof typeof BUDGET, number>;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    for (let from = 1; from <= 10; from += 1) {
      const statuses: number[] = [];
      for (let index = 0; index <= RATE; index += 1) statuses.push((await post(ctx, hostileBeacon(from, index), { localAddress: `127.0.9.${from}` })).statusCode);
      expect(statuses).toEqual([...Array<number>(RATE).fill(204), 429]);
      const counted = await written();
      for (const name of tables) expect([name, counted[name] <= BUDGET[name]]).toEqual([name, true]);
    }
    // It was a flood: every table filled up to its budget (but the clients', kept only while a canary runs).
    const filled = await rows();
    for (const name of tables.filter((table) => table !== 'telemetry_clients')) expect([name, filled[name] >= BUDGET[name] / 2]).toEqual([name, true]);
  });
});

describe('TELEMETRY=off', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await startTestApp({ telemetry: { ...TELEMETRY, enabled: false } });
  });

  afterAll(async () => {
    await ctx.close();
  });

  it('has no POST /api/telemetry (404), and stores nothing', async () => {
    const response = await post(ctx, pageViewBatch({ shell: SERVED }));
    expectError(response, 404, 'NOT_FOUND');
    // Longer than the recorder's flush interval.
    await new Promise((resolve) => setTimeout(resolve, FLUSH_INTERVAL_MS + 200));
    expect((await readTelemetry(ctx.db)).minutes).toEqual([]);
  });
});
