import type { Dashboard, PageAnalytics, TelemetryBatch } from '@agency/shared';
import { startTestApp, VALID_CONTACT, type TestContext } from '../../helpers/app';
import { eventually } from '../../helpers/eventually';
import { ManualClock } from '../../helpers/manual-clock';
import { asPerson } from '../../helpers/person-submission';
import { joinWithApp, type JoinedMember } from '../../helpers/staff';

// The owner's dashboard over real HTTP: browsers' beacons (each visitor a client address of its
// own) counted by the site, leads sent through the form's API, and every figure of «Огляд»
// compared with what those visits were, on a clock the test sets.

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const RELEASES = { shell: 'dist' };

let ctx: TestContext;
let admin: JoinedMember;
let editor: JoinedMember;
let viewer: JoinedMember;
// Tuesday 8 December 2026, 10:00 in Kyiv.
const clock = new ManualClock('2026-12-08T10:00:00+02:00');
let postTitle: string;

beforeAll(async () => {
  ctx = await startTestApp({}, undefined, { clock });
  admin = await joinWithApp(ctx, 'owner@khvylia.example', 'admin');
  editor = await joinWithApp(ctx, 'editor@khvylia.example', 'editor');
  viewer = await joinWithApp(ctx, 'viewer@khvylia.example', 'viewer');
  const post = await ctx.db.kysely.selectFrom('blog_posts').select('title').where('id', '=', 1).executeTakeFirstOrThrow();
  postTitle = post.title;
});

afterAll(async () => {
  await ctx.close();
});

interface Visitor {
  address: string;
  session: { id: string; source: string; medium: string; campaign: string };
}

const visitor = (n: number, source: string, campaign = '(not set)'): Visitor => ({
  address: `127.0.0.${10 + n}`,
  session: { id: String(n).repeat(32).slice(0, 32), source, medium: source === '(direct)' ? '(none)' : 'cpc', campaign },
});

/** A beacon from `who`, as the shell sends it when the page is hidden. */
async function beacon(who: Visitor, views: PageAnalytics[], headers: Record<string, string> = {}): Promise<void> {
  const batch: TelemetryBatch = { page_views: views.map((analytics) => ({ page: analytics.path.startsWith('/blog/') ? '/blog/:postId' : analytics.path, releases: RELEASES, analytics })), session: who.session };
  const response = await ctx.request('POST', '/api/telemetry', { json: batch, localAddress: who.address, headers: { 'user-agent': CHROME, ...headers } });
  expect(response.statusCode).toBe(204);
}

const view = (path: string, device: PageAnalytics['device'], seconds: number, extra: Partial<PageAnalytics> = {}): PageAnalytics => ({ path, device, engaged_ms: seconds * 1000, ...extra });

async function dashboard(member: JoinedMember, query: string): Promise<Dashboard> {
  const response = await member.browser.request('GET', `/api/staff/overview?${query}`);
  expect(response.statusCode).toBe(200);
  return response.json<Dashboard>();
}

/** The dashboard once the site has written what it was sent (about a second). */
const settled = (query: string, check: (seen: Dashboard) => boolean) => eventually(`the dashboard ${query}`, () => dashboard(viewer, query), check, 10_000);

const instagram = visitor(1, 'instagram', 'spring');
const direct = visitor(2, '(direct)');
const google = visitor(3, 'google');
let leadId: number;

describe('the dashboard of a day', () => {
  beforeAll(async () => {
    await beacon(instagram, [view('/', 'mobile', 30, { forms_seen: ['contact'] }), view('/blog/1', 'mobile', 60)]);
    await beacon(direct, [view('/', 'desktop', 20), view('/', 'desktop', 10), view('/privacy', 'desktop', 5)]);
    await beacon(google, [view('/blog/1', 'desktop', 90)]);
    // The instagram visitor comes back to the home page, starts the form and sends it.
    await beacon(instagram, [view('/blog', 'mobile', 15), view('/', 'mobile', 25, { forms_started: ['contact'], continued: true })]);
    const body = { ...VALID_CONTACT, attribution: { utm_source: 'instagram', utm_medium: 'cpc', utm_campaign: 'spring', landing_path: '/', landed_at: '2026-12-08T07:55:00.000Z' } };
    const sent = await ctx.request('POST', '/api/contact', { ...(await asPerson(ctx, 'contact', body, { headers: { 'user-agent': CHROME } })), localAddress: instagram.address });
    expect(sent.statusCode).toBe(201);
    const row = await ctx.db.kysely.selectFrom('leads').select('id').where('kind', '=', 'contact').where('submission_id', '=', sent.json<{ id: number }>().id).executeTakeFirstOrThrow();
    leadId = Number(row.id);
  });

  it('counts visitors once a day, every page view, time, leads and conversion exactly', async () => {
    // Every total the beacons make, each read on its own query (a write may fall between two).
    const today = await settled('period=today', (seen) => seen.totals.visitors === 3 && seen.totals.pageViews === 7 && seen.totals.leads === 1);
    // Visitors 3; views: instagram 3 (a continued view is not another), direct 3, google 1.
    // Time: 30 + 60 + 15 + 25 + 20 + 10 + 5 + 90 = 255 s over 3 visitors.
    expect(today.totals).toEqual({ visitors: 3, pageViews: 7, secondsPerVisitor: 85, leads: 1, conversionRate: 0.3333, won: 0 });
    expect(today).toMatchObject({ period: 'today', from: '2026-12-08', to: '2026-12-08', previousFrom: '2026-12-07', previousTo: '2026-12-07' });
    expect(today.previous).toEqual({ visitors: 0, pageViews: 0, secondsPerVisitor: 0, leads: 0, conversionRate: null, won: 0 });
    expect(today.pages).toEqual([
      { key: '/', label: '/', visitors: 2, pageViews: 3, leads: 1, conversionRate: 0.5, won: 0 },
      { key: '/blog/1', label: '/blog/1', visitors: 2, pageViews: 2, leads: 0, conversionRate: 0, won: 0 },
      { key: '/blog', label: '/blog', visitors: 1, pageViews: 1, leads: 0, conversionRate: 0, won: 0 },
      { key: '/privacy', label: '/privacy', visitors: 1, pageViews: 1, leads: 0, conversionRate: 0, won: 0 },
    ]);
    expect(today.posts).toEqual([{ key: '/blog/1', label: postTitle, visitors: 2, pageViews: 2, leads: 0, conversionRate: 0, won: 0 }]);
    expect(today.sources).toEqual([
      { key: 'instagram', label: 'instagram', visitors: 1, pageViews: 3, leads: 1, conversionRate: 1, won: 0 },
      { key: '(direct)', label: '(direct)', visitors: 1, pageViews: 3, leads: 0, conversionRate: 0, won: 0 },
      { key: 'google', label: 'google', visitors: 1, pageViews: 1, leads: 0, conversionRate: 0, won: 0 },
    ]);
    expect(today.funnels).toEqual([
      { form: 'contact', seen: 1, started: 1, sent: 1, won: 0 },
      { form: 'applications', seen: 0, started: 0, sent: 0, won: 0 },
    ]);
    // Per hour: all of it at 10:00 Kyiv.
    const tenOClock = today.series.find((point) => point.start === '2026-12-08T08:00:00.000Z');
    expect(tenOClock).toEqual({ start: '2026-12-08T08:00:00.000Z', visitors: 3, pageViews: 7, leads: 1, won: 0 });
    expect(today.series.reduce((sum, point) => sum + point.pageViews, 0)).toBe(7);
  });

  it('gives a lead the device of its visit, and filters everything by a clicked row', async () => {
    const mobile = await settled('period=today&device=mobile', (seen) => seen.totals.leads === 1);
    expect(mobile.totals).toEqual({ visitors: 1, pageViews: 3, secondsPerVisitor: 130, leads: 1, conversionRate: 1, won: 0 });
    expect(mobile.devices).toEqual([{ key: 'mobile', label: 'mobile', visitors: 1, pageViews: 3, leads: 1, conversionRate: 1, won: 0 }]);

    const home = await dashboard(viewer, 'period=today&page=%2F');
    expect(home.totals).toEqual({ visitors: 2, pageViews: 3, secondsPerVisitor: 43, leads: 1, conversionRate: 0.5, won: 0 });
    expect(home.sources.map((row) => [row.key, row.visitors, row.pageViews])).toEqual([
      ['instagram', 1, 1],
      ['(direct)', 1, 2],
    ]);

    const fromInstagram = await dashboard(viewer, 'period=today&source=instagram&campaign=spring');
    expect(fromInstagram.totals).toMatchObject({ visitors: 1, pageViews: 3, leads: 1 });
    expect(fromInstagram.pages.map((row) => row.key)).toEqual(['/', '/blog', '/blog/1']);
    expect(fromInstagram.filters).toEqual({ source: 'instagram', campaign: 'spring' });
  });

  it('shows a lead won as a won client, and the day as the previous period the next day', async () => {
    const won = await editor.browser.request('PATCH', `/api/staff/leads/${leadId}`, { json: { version: 1, status: 'won' } });
    expect(won.statusCode).toBe(200);
    expect((await dashboard(viewer, 'period=today')).totals).toMatchObject({ leads: 1, won: 1 });
    expect((await dashboard(viewer, 'period=today&source=instagram')).funnels[0]).toEqual({ form: 'contact', seen: 1, started: 1, sent: 1, won: 1 });

    clock.set('2026-12-09T10:00:00+02:00');
    const nextDay = await dashboard(viewer, 'period=today');
    expect(nextDay.totals).toEqual({ visitors: 0, pageViews: 0, secondsPerVisitor: 0, leads: 0, conversionRate: null, won: 0 });
    expect(nextDay.previous).toEqual({ visitors: 3, pageViews: 7, secondsPerVisitor: 85, leads: 1, conversionRate: 0.3333, won: 1 });
    const week = await dashboard(viewer, 'period=7d');
    expect(week).toMatchObject({ from: '2026-12-03', to: '2026-12-09', previousFrom: '2026-11-26', previousTo: '2026-12-02' });
    expect(week.totals).toMatchObject({ visitors: 3, pageViews: 7, won: 1 });
    expect(week.series).toHaveLength(7);
    expect(week.series.find((point) => point.start === '2026-12-07T22:00:00.000Z')).toMatchObject({ visitors: 3, pageViews: 7, leads: 1, won: 1 });
    const range = await dashboard(viewer, 'period=range&from=2026-12-08&to=2026-12-08');
    expect(range.totals).toEqual(nextDay.previous);
    // A long range reads December from its monthly totals and the days around it from daily ones,
    // and charts it per month.
    const season = await dashboard(viewer, 'period=range&from=2026-08-15&to=2027-01-10');
    expect(season.totals).toEqual(nextDay.previous);
    expect(season.pages.map((row) => [row.key, row.visitors, row.pageViews])).toEqual(range.pages.map((row) => [row.key, row.visitors, row.pageViews]));
    expect(season.funnels).toEqual(range.funnels);
    expect(season.seriesGrain).toBe('month');
    expect(season.series.map((point) => [point.start, point.visitors, point.pageViews, point.leads])).toEqual([
      // 15 August, then the first of each month, in Kyiv (summer time until the end of October).
      ['2026-08-14T21:00:00.000Z', 0, 0, 0],
      ['2026-08-31T21:00:00.000Z', 0, 0, 0],
      ['2026-09-30T21:00:00.000Z', 0, 0, 0],
      ['2026-10-31T22:00:00.000Z', 0, 0, 0],
      ['2026-11-30T22:00:00.000Z', 3, 7, 1],
      ['2026-12-31T22:00:00.000Z', 0, 0, 0],
    ]);
    expect(week.seriesGrain).toBe('day');
  });
});

describe('asking the dashboard', () => {
  it('refuses a range it cannot show, with what is wrong', async () => {
    const missing = await viewer.browser.request('GET', '/api/staff/overview?period=range&from=2026-12-01');
    expect(missing.statusCode).toBe(400);
    const backwards = await viewer.browser.request('GET', '/api/staff/overview?period=range&from=2026-12-08&to=2026-12-01');
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json<{ error: { message: string } }>().error.message).toContain('раніше');
    const tooLong = await viewer.browser.request('GET', '/api/staff/overview?period=range&from=2024-01-01&to=2026-12-01');
    expect(tooLong.statusCode).toBe(400);
    const notADate = await viewer.browser.request('GET', '/api/staff/overview?period=range&from=2026-02-30&to=2026-03-01');
    expect(notADate.statusCode).toBe(400);
    expect((await viewer.browser.request('GET', '/api/staff/overview?device=phone')).statusCode).toBe(400);
  });

  it('is for signed-in members only; the weekly e-mail is an admin’s own choice', async () => {
    expect((await ctx.request('GET', '/api/staff/overview')).statusCode).toBe(401);
    expect((await dashboard(admin, 'period=today')).weeklyReport).toBe(false);
    expect((await editor.browser.request('PUT', '/api/staff/overview/weekly-report', { json: { weeklyReport: true } })).statusCode).toBe(403);
    expect((await admin.browser.request('PUT', '/api/staff/overview/weekly-report', { json: { weeklyReport: 'yes' } })).statusCode).toBe(400);
    expect((await admin.browser.request('PUT', '/api/staff/overview/weekly-report', { json: { weeklyReport: true } })).statusCode).toBe(204);
    expect((await dashboard(admin, 'period=today')).weeklyReport).toBe(true);
    expect((await dashboard(viewer, 'period=today')).weeklyReport).toBe(false);
    const audit = await ctx.db.kysely.selectFrom('staff_audit').select(['action', 'target']).where('action', '=', 'weekly-report-changed').execute();
    expect(audit).toEqual([{ action: 'weekly-report-changed', target: `member:${admin.session.member.id}` }]);
  });
});
