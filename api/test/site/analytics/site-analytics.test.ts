import fs from 'node:fs';
import { BLOG_LISTING_PATH, PRIVACY_PATH, type Dashboard, type TelemetryBatch } from '@agency/shared';
import { startTestApp, VALID_CONTACT, type TestContext } from '../../helpers/app';
import { eventually } from '../../helpers/eventually';
import { ManualClock } from '../../helpers/manual-clock';
import { writeBuilds } from '../../helpers/page-builds';
import { asPerson } from '../../helpers/person-submission';
import { joinWithApp, type JoinedMember } from '../../helpers/staff';

// The site's own counting, without cookies: who is not counted (bots, prefetches, browsers that
// ask not to be tracked), the daily salt that makes a visitor unrecognisable the next day, and
// that no public answer sets a cookie.

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let ctx: TestContext;
let viewer: JoinedMember;
let root: string;
// Wednesday 9 December 2026, 12:00 in Kyiv.
const clock = new ManualClock('2026-12-09T12:00:00+02:00');

beforeAll(async () => {
  root = writeBuilds();
  ctx = await startTestApp({ staticRoot: root }, undefined, { clock });
  viewer = await joinWithApp(ctx, 'viewer@khvylia.example', 'viewer');
});

afterAll(async () => {
  await ctx.close();
  fs.rmSync(root, { recursive: true, force: true });
});

let clients = 0;
/** A client address of its own for each visitor. */
const nextAddress = () => `127.0.1.${(clients += 1)}`;

function homeView(path = '/'): TelemetryBatch {
  return { page_views: [{ page: path, releases: { shell: 'dist' }, analytics: { path, device: 'desktop', engaged_ms: 1000 } }] };
}

async function beacon(address: string, headers: Record<string, string>, batch = homeView()): Promise<void> {
  const response = await ctx.request('POST', '/api/telemetry', { json: batch, localAddress: address, headers });
  expect(response.statusCode).toBe(204);
}

const totals = async (query = 'period=today') => (await viewer.browser.request('GET', `/api/staff/overview?${query}`)).json<Dashboard>().totals;
const settledTotals = (check: (seen: Dashboard['totals']) => boolean, query?: string) => eventually('the dashboard', () => totals(query), check, 10_000);

describe('who is not counted', () => {
  it('leaves out bots, headless browsers, prefetches, Do-Not-Track and Global Privacy Control', async () => {
    const before = await totals();
    await beacon(nextAddress(), { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });
    await beacon(nextAddress(), { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36' });
    await beacon(nextAddress(), { 'user-agent': '' });
    await beacon(nextAddress(), { 'user-agent': CHROME, 'sec-purpose': 'prefetch;prerender' });
    await beacon(nextAddress(), { 'user-agent': CHROME, dnt: '1' });
    await beacon(nextAddress(), { 'user-agent': CHROME, 'sec-gpc': '1' });
    // A page the site does not have is no page view of it.
    await beacon(nextAddress(), { 'user-agent': CHROME }, homeView('/no/such/page'));
    // Then one person: once they are counted, everything sent before has been written. (The
    // dashboard reads visits and page views in two queries, which a write may fall between.)
    await beacon(nextAddress(), { 'user-agent': CHROME });
    const after = await settledTotals((seen) => seen.visitors > before.visitors && seen.pageViews > before.pageViews);
    expect(after.visitors - before.visitors).toBe(1);
    expect(after.pageViews - before.pageViews).toBe(1);
  });
});

describe('the salt of the day', () => {
  it('tells visitors apart for one day only: the next day its salt and every hash made with it are gone', async () => {
    const address = nextAddress();
    const before = await totals();
    await beacon(address, { 'user-agent': CHROME });
    await beacon(address, { 'user-agent': CHROME }, homeView(BLOG_LISTING_PATH));
    await settledTotals((seen) => seen.pageViews === before.pageViews + 2);
    expect((await totals()).visitors).toBe(before.visitors + 1);
    const salts = await ctx.db.kysely.selectFrom('analytics_salts').selectAll().execute();
    expect(salts.map((row) => row.day)).toEqual(['2026-12-09']);
    const hashes = (await ctx.db.kysely.selectFrom('analytics_visitors').select('visitor').where('day', '=', '2026-12-09').execute()).map((row) => row.visitor);
    expect(hashes.length).toBeGreaterThan(0);

    // Totals past their retention (25 months) go too; younger ones stay.
    const old = { grain: 'day' as const, path: '/', source: 'old', campaign: '(not set)', device: 'desktop', views: 5, visitors: 2, engaged_ms: 1000 };
    const minuteOf = (iso: string) => Math.floor(Date.parse(iso) / 60_000);
    await ctx.db.kysely
      .insertInto('analytics_page_rollups')
      .values([
        { ...old, start: minuteOf('2024-11-01T22:00:00Z') },
        { ...old, start: minuteOf('2024-11-20T22:00:00Z') },
      ])
      .execute();

    clock.set('2026-12-10T00:00:30+02:00');
    // Replaced within a second or so, with nobody visiting.
    await eventually('the new day’s salt', () => ctx.db.kysely.selectFrom('analytics_salts').selectAll().execute(), (rows) => rows.length === 1 && rows[0]!.day === '2026-12-10', 10_000);
    const [today] = await ctx.db.kysely.selectFrom('analytics_salts').selectAll().execute();
    expect(today!.salt).not.toBe(salts[0]!.salt);
    expect(await ctx.db.kysely.selectFrom('analytics_visitors').selectAll().execute()).toEqual([]);
    expect(await ctx.db.kysely.selectFrom('analytics_seen').selectAll().execute()).toEqual([]);
    const kept = await eventually('old totals pruned', () => ctx.db.kysely.selectFrom('analytics_page_rollups').select('start').where('source', '=', 'old').execute(), (rows) => rows.length === 1, 10_000);
    expect(kept).toEqual([{ start: minuteOf('2024-11-20T22:00:00Z') }]);

    // The same browser the next day is a visitor nobody can link to yesterday's.
    await beacon(address, { 'user-agent': CHROME });
    const [again] = await eventually('the visitor of the new day', () => ctx.db.kysely.selectFrom('analytics_visitors').select('visitor').execute(), (rows) => rows.length === 1, 10_000);
    expect(hashes).not.toContain(again!.visitor);
    // Yesterday's totals stay, as totals.
    expect((await totals('period=range&from=2026-12-09&to=2026-12-10')).visitors).toBe((await totals('period=range&from=2026-12-09&to=2026-12-09')).visitors + 1);
  });
});

describe('no cookie', () => {
  it('is set by any public answer: every kind of page, the API, a beacon, a lead', async () => {
    const pages = ['/', BLOG_LISTING_PATH, `${BLOG_LISTING_PATH}/1`, PRIVACY_PATH, '/forms/contact/sent', '/no/such/page', '/robots.txt', '/sitemap.xml'];
    for (const page of pages) {
      const response = await ctx.request('GET', page, { headers: { 'user-agent': CHROME, accept: 'text/html' } });
      expect([page, response.statusCode < 500, response.headers['set-cookie']]).toEqual([page, true, undefined]);
    }
    for (const path of ['/api/services', '/api/blog', '/api/health']) {
      const response = await ctx.request('GET', path, { headers: { 'user-agent': CHROME } });
      expect([path, response.headers['set-cookie']]).toEqual([path, undefined]);
    }
    const telemetry = await ctx.request('POST', '/api/telemetry', { json: homeView(), headers: { 'user-agent': CHROME }, localAddress: nextAddress() });
    expect(telemetry.headers['set-cookie']).toBeUndefined();
    const lead = await ctx.request('POST', '/api/contact', await asPerson(ctx, 'contact', VALID_CONTACT, { headers: { 'user-agent': CHROME } }));
    expect(lead.statusCode).toBe(201);
    expect(lead.headers['set-cookie']).toBeUndefined();
  });
});
