import { SERVICE_TYPES, type LeadDetail, type LeadPage, type ResponseReport } from '@agency/shared';
import { startTestApp, VALID_CONTACT, type TestContext } from '../../helpers/app';
import { eventually } from '../../helpers/eventually';
import { startHttpReceiver, type HttpReceiver } from '../../helpers/lead-receivers';
import { ManualClock } from '../../helpers/manual-clock';
import { asPerson } from '../../helpers/person-submission';
import { joinWithApp, type JoinedMember } from '../../helpers/staff';

// Response times in working hours on a clock the test sets: the overdue check (every second here)
// flags a lead waiting past the target and alerts its assignee once; the report counts the waits.

const TEAM_CHAT = '-100200300';
const OWN_CHAT = '777000111';

let telegram: HttpReceiver;
let ctx: TestContext;
let admin: JoinedMember;
let editor: JoinedMember;
let second: JoinedMember;
// Friday 4 December 2026, 17:59 in Kyiv.
const clock = new ManualClock('2026-12-04T17:59:00+02:00');

beforeAll(async () => {
  telegram = await startHttpReceiver();
  ctx = await startTestApp(
    { leads: { telegram: { botToken: '1:token', chatId: TEAM_CHAT, apiUrl: telegram.url } }, staff: { signInRateLimitPerMinute: 1_000_000, overdueCheckSeconds: 1, weeklyReportCheckSeconds: 300 } },
    undefined,
    { clock },
  );
  admin = await joinWithApp(ctx, 'admin@khvylia.example', 'admin');
  editor = await joinWithApp(ctx, 'editor@khvylia.example', 'editor');
  second = await joinWithApp(ctx, 'second@khvylia.example', 'editor');
});

afterAll(async () => {
  await ctx.close();
  await telegram.close();
});

/** The alerts the Telegram receiver got: chat and text. */
const alerts = () =>
  telegram
    .accepted()
    .map((request) => JSON.parse(request.body) as { chat_id: string; text: string })
    .filter((message) => message.text.startsWith('⏰'));

let senders = 0;
async function send(): Promise<number> {
  senders += 1;
  const body = { ...VALID_CONTACT, email: `waiting${senders}@example.com`, phone: `+380 67 200 30 ${String(senders).padStart(2, '0')}`, message: `Питання ${senders}: скільки коштує SEO?` };
  const answer = await ctx.request('POST', '/api/contact', await asPerson(ctx, 'contact', body));
  const row = await ctx.db.kysely.selectFrom('leads').select('id').where('kind', '=', 'contact').where('submission_id', '=', answer.json<{ id: number }>().id).executeTakeFirstOrThrow();
  return Number(row.id);
}

const lead = async (id: number) => (await editor.browser.request('GET', `/api/staff/leads/${id}`)).json<LeadDetail>();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('leads waiting past the response target', () => {
  it('counts working hours only: a lead at 17:59 on Friday is overdue at 11:00 on Monday, and its assignee is told once', async () => {
    await admin.browser.request('PUT', `/api/staff/lead-routing/${editor.session.member.id}`, { json: { kinds: ['contact'], away: false, telegramChatId: OWN_CHAT } });
    const waiting = await send();
    expect((await lead(waiting)).assignee?.email).toBe(editor.email);

    // Monday 10:00: 1 minute on Friday and 60 on Monday, under the 2 working hours.
    clock.set('2026-12-07T10:00:00+02:00');
    await pause(2_500);
    expect(alerts()).toHaveLength(0);
    expect(await lead(waiting)).toMatchObject({ overdue: false, waitedMinutes: 61, firstResponseAt: null });

    clock.set('2026-12-07T11:00:00+02:00');
    const [alert] = await eventually('the alert', alerts, (sent) => sent.length === 1, 10_000);
    expect(alert!.chat_id).toBe(OWN_CHAT);
    expect(alert!.text).toContain('чекає на відповідь 2 год 1 хв робочого часу (ціль: 2 год)');
    expect(alert!.text).toContain(`Відповідальний: ${editor.email}`);
    // The service as the inbox names it, not its code.
    expect(alert!.text).toContain(`Тема: ${SERVICE_TYPES.find((type) => type.value === VALID_CONTACT.service_type)!.label}`);
    expect(alert!.text).toContain(`/staff/leads/${waiting}`);
    const inbox = (await editor.browser.request('GET', '/api/staff/leads')).json<LeadPage>();
    expect(inbox.leads.find((summary) => summary.id === waiting)).toMatchObject({ overdue: true, waitedMinutes: 121 });

    // Once: later checks do not repeat it.
    clock.set('2026-12-07T15:00:00+02:00');
    await pause(2_500);
    expect(alerts()).toHaveLength(1);
    // Answered now: no longer overdue, and its wait is kept.
    const note = await editor.browser.request('POST', `/api/staff/leads/${waiting}/notes`, { json: { text: 'Передзвонив' } });
    expect(note.statusCode).toBe(201);
    expect(await lead(waiting)).toMatchObject({ overdue: false, waitedMinutes: 361, firstResponseAt: '2026-12-07T13:00:00.000Z' });
  });

  it('alerts the team’s chat about a lead nobody has, and never about one answered in time', async () => {
    await admin.browser.request('PUT', `/api/staff/lead-routing/${editor.session.member.id}`, { json: { kinds: [], away: false, telegramChatId: OWN_CHAT } });
    clock.set('2026-12-08T09:30:00+02:00');
    const unassigned = await send();
    const answered = await send();
    clock.set('2026-12-08T10:00:00+02:00');
    const version = (await lead(answered)).version;
    expect((await second.browser.request('PATCH', `/api/staff/leads/${answered}`, { json: { version, status: 'in_progress' } })).statusCode).toBe(200);

    clock.set('2026-12-08T12:00:00+02:00');
    await eventually('the alert', alerts, (sent) => sent.length === 2, 10_000);
    await pause(2_000);
    const newAlerts = alerts().slice(1);
    expect(newAlerts).toHaveLength(1);
    expect(newAlerts[0]!.chat_id).toBe(TEAM_CHAT);
    expect(newAlerts[0]!.text).toContain('Відповідальний: не призначено');
    expect(await lead(answered)).toMatchObject({ overdue: false, waitedMinutes: 30 });
    expect((await lead(unassigned)).overdue).toBe(true);
  });

  it('reports the median and 90th percentile of first responses by week and by person, and leads won by source', async () => {
    const report = (await editor.browser.request('GET', '/api/staff/leads/report?weeks=2')).json<ResponseReport>();
    expect(report.targetMinutes).toBe(120);
    // Newest week first: from Monday 7 December (Kyiv), then from Monday 30 November.
    expect(report.weeks.map((week) => week.weekStart)).toEqual(['2026-12-06T22:00:00.000Z', '2026-11-29T22:00:00.000Z']);
    expect(report.weeks[0]).toEqual({ weekStart: '2026-12-06T22:00:00.000Z', leads: 2, answered: 1, medianMinutes: 30, p90Minutes: 30, overdue: 1 });
    // The Friday lead: answered after 361 working minutes.
    expect(report.weeks[1]).toMatchObject({ leads: 1, answered: 1, medianMinutes: 361, p90Minutes: 361, overdue: 0 });
    expect(report.people).toEqual([
      { member: editor.email, leads: 1, answered: 1, medianMinutes: 361, p90Minutes: 361 },
      { member: second.email, leads: 1, answered: 1, medianMinutes: 30, p90Minutes: 30 },
    ]);
    expect(report.sources).toEqual([{ source: '', leads: 3, won: 0 }]);
    expect((await editor.browser.request('GET', '/api/staff/leads/report?weeks=0')).statusCode).toBe(400);
  });
});
