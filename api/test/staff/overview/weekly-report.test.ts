import type { ParsedMail } from 'mailparser';
import { startTestApp, TEST_SITE_URL, VALID_CONTACT, type TestContext } from '../../helpers/app';
import { eventually } from '../../helpers/eventually';
import { startSmtpSink, type SmtpSink } from '../../helpers/lead-receivers';
import { ManualClock } from '../../helpers/manual-clock';
import { asPerson } from '../../helpers/person-submission';
import { joinWithApp, type JoinedMember } from '../../helpers/staff';
import { queueWeeklyReport } from '../../../src/staff/overview/weekly-report';

// The admins' weekly e-mail, over a real SMTP server, on a clock the test sets: the week of Monday
// 7 December 2026 (Kyiv) beside the week before, seeded as the site's daily totals and as leads
// sent through the form; due on Monday 14 December at 09:00 Kyiv, checked every second here.

const AGENCY_MAIL = 'leads@khvylia.example';
const REPORT_SUBJECT = 'Щотижневий звіт сайту';

let smtp: SmtpSink;
let ctx: TestContext;
let admin: JoinedMember;
let otherAdmin: JoinedMember;
let editor: JoinedMember;
let removedAdmin: JoinedMember;
// Sunday 13 December 2026, 20:00 in Kyiv: the first check marks the week that ended last (30 November).
const clock = new ManualClock('2026-12-13T20:00:00+02:00');

beforeAll(async () => {
  smtp = await startSmtpSink();
  ctx = await startTestApp(
    {
      leads: { email: { smtpUrl: smtp.url, to: AGENCY_MAIL, from: 'site@khvylia.example' } },
      staff: { signInRateLimitPerMinute: 1_000_000, overdueCheckSeconds: 60, weeklyReportCheckSeconds: 1 },
    },
    undefined,
    { clock },
  );
  [admin, otherAdmin, editor, removedAdmin] = await Promise.all([
    joinWithApp(ctx, 'owner@khvylia.example', 'admin'),
    joinWithApp(ctx, 'second-admin@khvylia.example', 'admin'),
    joinWithApp(ctx, 'editor@khvylia.example', 'editor'),
    joinWithApp(ctx, 'former-admin@khvylia.example', 'admin'),
  ]);
});

afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

const reports = () => smtp.messages.filter((mail) => mail.subject?.startsWith(REPORT_SUBJECT));
const recipientsOf = (mail: ParsedMail) => smtp.recipients[smtp.messages.indexOf(mail)];
const markedWeeks = async () => (await ctx.db.kysely.selectFrom('analytics_weekly_reports').select('week').orderBy('week').execute()).map((row) => row.week);
const check = () => queueWeeklyReport(ctx.db, { now: clock.now(), siteUrl: TEST_SITE_URL });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The minute a Kyiv day (December 2026: UTC+2) begins, as the rollups' `start`. */
const dayStart = (day: string) => Date.parse(`${day}T00:00:00+02:00`) / 60_000;

interface PageRow {
  day: string;
  path: string;
  source: string;
  device?: string;
  views: number;
  visitors: number;
  engagedMs: number;
  grain?: 'day' | 'hour';
}

async function seedPages(rows: PageRow[]): Promise<void> {
  await ctx.db.kysely
    .insertInto('analytics_page_rollups')
    .values(
      rows.map((row) => ({
        grain: row.grain ?? 'day',
        start: dayStart(row.day),
        path: row.path,
        source: row.source,
        campaign: '(not set)',
        device: row.device ?? 'desktop',
        views: row.views,
        visitors: row.visitors,
        engaged_ms: row.engagedMs,
      })),
    )
    .execute();
}

async function seedVisits(rows: { day: string; entryPath: string; source: string; visitors: number; grain?: 'day' | 'hour' }[]): Promise<void> {
  await ctx.db.kysely
    .insertInto('analytics_visit_rollups')
    .values(rows.map((row) => ({ grain: row.grain ?? 'day', start: dayStart(row.day), entry_path: row.entryPath, source: row.source, campaign: '(not set)', device: 'desktop', visitors: row.visitors })))
    .execute();
}

let people = 0;
/** A lead sent through the contact form at the clock's time, from a visit tagged `source` that landed on `landingPath`. */
async function sendLead(source: string, landingPath: string) {
  people += 1;
  const body = {
    ...VALID_CONTACT,
    name: `Особа Тестова${people}`,
    email: `weekly-person${people}@example.com`,
    phone: `+380 67 300 40 ${String(people).padStart(2, '0')}`,
    company: `ТОВ «Приватна${people}»`,
    message: `Конфіденційне повідомлення ${people}: потрібна реклама кавʼярні.`,
    attribution: { utm_source: source, landing_path: landingPath },
  };
  const answer = await ctx.request('POST', '/api/contact', await asPerson(ctx, 'contact', body));
  expect(answer.statusCode).toBe(201);
  const lead = await ctx.db.kysely.selectFrom('leads').select('id').where('kind', '=', 'contact').where('submission_id', '=', answer.json<{ id: number }>().id).executeTakeFirstOrThrow();
  return { ...body, leadId: Number(lead.id) };
}

/** The lines of the text's section that starts with `title`, up to the blank line. */
function section(text: string, title: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(title);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = lines.indexOf('', start);
  return lines.slice(start + 1, end === -1 ? undefined : end);
}

describe('the weekly report', () => {
  it('does not report the weeks before the first check', async () => {
    await eventually('the first check', markedWeeks, (weeks) => weeks.length > 0, 5_000);
    expect(await markedWeeks()).toEqual(['2026-11-30']);
    expect(reports()).toHaveLength(0);
  });

  it('e-mails the week’s figures beside the week before’s, and its top pages, sources and posts, to each admin who asked for it', async () => {
    expect((await admin.browser.request('PUT', '/api/staff/overview/weekly-report', { json: { weeklyReport: true } })).statusCode).toBe(204);
    // Admins only: an editor cannot ask, and one who somehow has the flag, or a removed admin, gets nothing.
    expect((await editor.browser.request('PUT', '/api/staff/overview/weekly-report', { json: { weeklyReport: true } })).statusCode).toBe(403);
    await ctx.db.kysely.updateTable('staff_members').set({ weekly_report: 1 }).where('id', 'in', [editor.session.member.id, removedAdmin.session.member.id]).execute();
    await ctx.db.kysely.updateTable('staff_members').set({ removed_at: '2026-12-01T10:00:00.000Z' }).where('id', '=', removedAdmin.session.member.id).execute();

    const posts = await ctx.db.kysely.selectFrom('blog_posts').select(['id', 'title']).orderBy('id').limit(3).execute();
    expect(posts).toHaveLength(3);
    const [postA, postB, postC] = posts.map((post) => ({ path: `/blog/${post.id}`, title: post.title }));

    // The week before: one lead; the week: three, one of them won.
    clock.set('2026-12-02T12:00:00+02:00');
    const leads = [await sendLead('google', '/')];
    clock.set('2026-12-09T12:00:00+02:00');
    leads.push(await sendLead('facebook', postA!.path), await sendLead('facebook', postA!.path), await sendLead('google', '/'));
    await ctx.db.kysely.updateTable('leads').set({ status: 'won' }).where('id', '=', leads[1]!.leadId).execute();

    await seedPages([
      { day: '2026-12-08', path: '/', source: 'google', views: 120, visitors: 80, engagedMs: 80 * 90_000 },
      { day: '2026-12-08', path: postA!.path, source: 'facebook', device: 'mobile', views: 60, visitors: 40, engagedMs: 40 * 150_000 },
      { day: '2026-12-13', path: '/privacy', source: '(direct)', views: 9, visitors: 7, engagedMs: 7 * 30_000 },
      { day: '2026-12-07', path: '/blog', source: 'google', views: 8, visitors: 6, engagedMs: 6 * 20_000 },
      { day: '2026-12-10', path: postB!.path, source: 'google', views: 6, visitors: 5, engagedMs: 5 * 60_000 },
      { day: '2026-12-11', path: postC!.path, source: 'facebook', device: 'mobile', views: 3, visitors: 2, engagedMs: 2 * 30_000 },
      // The week before.
      { day: '2026-12-01', path: '/', source: 'google', views: 50, visitors: 40, engagedMs: 40 * 60_000 },
      // Neither week: the day after, the day before, and the hourly totals (the days' are read).
      { day: '2026-12-14', path: '/', source: 'google', views: 999, visitors: 999, engagedMs: 999_000 },
      { day: '2026-11-29', path: '/', source: 'google', views: 555, visitors: 555, engagedMs: 555_000 },
      { day: '2026-12-09', path: '/', source: 'google', views: 777, visitors: 777, engagedMs: 777_000, grain: 'hour' },
    ]);
    await seedVisits([
      { day: '2026-12-08', entryPath: '/', source: 'google', visitors: 70 },
      { day: '2026-12-08', entryPath: postA!.path, source: 'facebook', visitors: 35 },
      { day: '2026-12-13', entryPath: '/privacy', source: '(direct)', visitors: 5 },
      { day: '2026-12-01', entryPath: '/', source: 'google', visitors: 40 },
      { day: '2026-12-14', entryPath: '/', source: 'google', visitors: 999 },
      { day: '2026-11-29', entryPath: '/', source: 'google', visitors: 555 },
      { day: '2026-12-09', entryPath: '/', source: 'google', visitors: 777, grain: 'hour' },
    ]);

    // The week is over, but its report is due at 09:00.
    clock.set('2026-12-14T08:59:00+02:00');
    expect(await check()).toBeUndefined();
    expect(await markedWeeks()).toEqual(['2026-11-30']);

    clock.set('2026-12-14T09:00:00+02:00');
    const [mail] = await eventually('the report', reports, (sent) => sent.length === 1, 5_000);
    expect(recipientsOf(mail!)).toEqual([admin.email]);
    expect(mail!.subject).toBe(`${REPORT_SUBJECT}: 07.12.2026 – 13.12.2026`);
    const text = mail!.text!;
    expect(text).toContain('Тиждень 07.12.2026 – 13.12.2026 (з понеділка по неділю, за київським часом) порівняно з попереднім, 30.11.2026 – 06.12.2026.');
    for (const line of [
      'Відвідувачі: 110 (попередній тиждень: 40, +175 %)',
      'Перегляди: 206 (попередній тиждень: 50, +312 %)',
      'Час на сайті: 2 хв 6 с (попередній тиждень: 1 хв, +110 %)',
      'Заявки: 3 (попередній тиждень: 1, +200 %)',
      'Конверсія: 2,73 % (попередній тиждень: 2,5 %, +9 %)',
      'Клієнти: 1 (попередній тиждень: 0)',
    ]) {
      expect(text.split('\n')).toContain(line);
    }
    // The top five of each (the sixth page is left out), with their leads and won clients.
    expect(section(text, 'Сторінки:')).toEqual([
      '1. /: відвідувачі 80, перегляди 120, заявки 1, конверсія 1,25 %, клієнти 0',
      `2. ${postA!.path}: відвідувачі 40, перегляди 60, заявки 2, конверсія 5 %, клієнти 1`,
      '3. /privacy: відвідувачі 7, перегляди 9, заявки 0, конверсія 0 %, клієнти 0',
      '4. /blog: відвідувачі 6, перегляди 8, заявки 0, конверсія 0 %, клієнти 0',
      `5. ${postB!.path}: відвідувачі 5, перегляди 6, заявки 0, конверсія 0 %, клієнти 0`,
    ]);
    expect(section(text, 'Джерела:')).toEqual([
      '1. google: відвідувачі 70, перегляди 134, заявки 1, конверсія 1,43 %, клієнти 0',
      '2. facebook: відвідувачі 35, перегляди 63, заявки 2, конверсія 5,71 %, клієнти 1',
      '3. (direct): відвідувачі 5, перегляди 9, заявки 0, конверсія 0 %, клієнти 0',
    ]);
    expect(section(text, 'Статті блогу:')).toEqual([
      `1. «${postA!.title}» (${postA!.path}): відвідувачі 40, перегляди 60, заявки 2, конверсія 5 %, клієнти 1`,
      `2. «${postB!.title}» (${postB!.path}): відвідувачі 5, перегляди 6, заявки 0, конверсія 0 %, клієнти 0`,
      `3. «${postC!.title}» (${postC!.path}): відвідувачі 2, перегляди 3, заявки 0, конверсія 0 %, клієнти 0`,
    ]);
    expect(text).toContain(`${TEST_SITE_URL}/staff/overview?period=range&from=2026-12-07&to=2026-12-13`);
    // Nothing of the leads' own.
    for (const lead of leads) {
      for (const personal of [lead.name, lead.email, lead.phone, lead.company, lead.message]) {
        expect(text).not.toContain(personal);
        expect(mail!.subject).not.toContain(personal);
      }
    }
    for (const member of [otherAdmin, editor, removedAdmin]) expect(smtp.sentTo(member.email)).toHaveLength(0);
    expect(await markedWeeks()).toEqual(['2026-11-30', '2026-12-07']);
  });

  it('is queued once, however many processes check at once', async () => {
    // Another process checking after the report was queued queues nothing.
    expect(await check()).toBeUndefined();

    // The next week: the app's own check races two more.
    clock.set('2026-12-21T09:00:00+02:00');
    const runs = await Promise.all([check(), check()]);
    expect(runs.filter((run) => run !== undefined).length).toBeLessThanOrEqual(1);
    await eventually('the next report', reports, (sent) => sent.length === 2, 5_000);
    await pause(1_500);
    expect(reports().map((mail) => mail.subject)).toEqual([`${REPORT_SUBJECT}: 07.12.2026 – 13.12.2026`, `${REPORT_SUBJECT}: 14.12.2026 – 20.12.2026`]);
    expect(reports().map(recipientsOf)).toEqual([[admin.email], [admin.email]]);
    const rows = await ctx.db.kysely.selectFrom('lead_outbox').select(['status', 'event']).where('channel', '=', 'report').execute();
    expect(rows).toEqual([
      { status: 'delivered', event: 'report.weekly' },
      { status: 'delivered', event: 'report.weekly' },
    ]);
    expect(await markedWeeks()).toEqual(['2026-11-30', '2026-12-07', '2026-12-14']);
  });
});
