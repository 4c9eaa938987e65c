import type { LeadDetail, LeadPage, LeadRoutingMember, LeadSummary } from '@agency/shared';
import { IDEMPOTENCY_KEY_HEADER } from '@agency/shared/contracts';
import { startTestApp, VALID_APPLICATION, VALID_CONTACT, type TestContext } from '../../../helpers/app';
import { eventually } from '../../../helpers/eventually';
import { startHttpReceiver, startSmtpSink, type HttpReceiver, type SmtpSink } from '../../../helpers/lead-receivers';
import { ManualClock } from '../../../helpers/manual-clock';
import { asPerson, BROWSER_FETCH_HEADERS } from '../../../helpers/person-submission';
import { joinWithApp, type JoinedMember } from '../../../helpers/staff';

// What starts as a lead is let through: the visitor's reply, the person who wrote before, the
// assignment rules. Over real HTTP, with a real SMTP server and a Telegram receiver, on a clock
// the test sets (Tuesday 1 December 2026, 10:00 in Kyiv).

const AGENCY_MAIL = 'leads@khvylia.example';
const TEAM_CHAT = '-100200300';

let smtp: SmtpSink;
let telegram: HttpReceiver;
let ctx: TestContext;
let admin: JoinedMember;
let editor: JoinedMember;
const clock = new ManualClock('2026-12-01T10:00:00+02:00');

beforeAll(async () => {
  [smtp, telegram] = await Promise.all([startSmtpSink(), startHttpReceiver()]);
  ctx = await startTestApp(
    {
      leads: {
        email: { smtpUrl: smtp.url, to: AGENCY_MAIL, from: 'site@khvylia.example' },
        telegram: { botToken: '1:token', chatId: TEAM_CHAT, apiUrl: telegram.url },
      },
    },
    undefined,
    { clock },
  );
  admin = await joinWithApp(ctx, 'admin@khvylia.example', 'admin');
  editor = await joinWithApp(ctx, 'editor@khvylia.example', 'editor');
});

afterAll(async () => {
  await ctx.close();
  await Promise.all([smtp.close(), telegram.close()]);
});

let people = 0;
/** A contact message of a person of its own (their own words too: one text from several e-mails is held). */
function person(overrides: Partial<typeof VALID_CONTACT> = {}) {
  people += 1;
  return { ...VALID_CONTACT, email: `person${people}@example.com`, phone: `+380 67 100 ${String(1000 + people).slice(-4, -2)} ${String(people).padStart(2, '0')}`, message: `Доброго дня! Запит номер ${people}: потрібна реклама.`, ...overrides };
}

async function send(body: object, form: 'contact' | 'job-application' = 'contact', headers: Record<string, string> = {}): Promise<number> {
  const answer = await ctx.request('POST', form === 'contact' ? '/api/contact' : '/api/jobs/apply', await asPerson(ctx, form, body, { headers }));
  expect(answer.statusCode).toBe(201);
  return answer.json<{ id: number }>().id;
}

/** The inbox's lead of a submission. */
async function leadOf(kind: 'contact' | 'applications', submissionId: number): Promise<LeadSummary> {
  const row = await ctx.db.kysely.selectFrom('leads').select('id').where('kind', '=', kind).where('submission_id', '=', submissionId).executeTakeFirstOrThrow();
  return (await editor.browser.request('GET', `/api/staff/leads/${row.id}`)).json<LeadDetail>();
}

const repliesTo = (email: string) => smtp.sentTo(email);

describe('the reply to the visitor', () => {
  it('is e-mailed once, with the reference number, what they sent and when the agency answers, and shown as a delivery', async () => {
    const body = person({ name: 'Ірина Бондар' });
    const key = 'reply-once-0000000000000001';
    const id = await send(body, 'contact', { [IDEMPOTENCY_KEY_HEADER]: key });
    const [reply] = await eventually('the reply', () => repliesTo(body.email), (mails) => mails.length === 1, 5_000);
    expect(reply!.subject).toContain(`№${id}`);
    expect(reply!.text).toContain('Вітаємо, Ірина Бондар!');
    expect(reply!.text).toContain(body.message);
    // Sent at 10:00 on a Tuesday: two working hours later.
    expect(reply!.text).toContain('сьогодні до 12:00');
    expect(reply!.replyTo?.text).toContain(AGENCY_MAIL);

    // The same submission again (a retry): answered as before, nothing sent again.
    const again = await ctx.request('POST', '/api/contact', await asPerson(ctx, 'contact', body, { headers: { [IDEMPOTENCY_KEY_HEADER]: key } }));
    expect(again.headers['idempotent-replayed']).toBe('true');
    const lead = await eventually('the reply delivered', () => leadOf('contact', id), (detail) => (detail as LeadDetail).deliveries.some((delivery) => delivery.channel === 'reply' && delivery.status === 'delivered'));
    expect((lead as LeadDetail).deliveries.filter((delivery) => delivery.channel === 'reply')).toHaveLength(1);
    expect(repliesTo(body.email)).toHaveLength(1);
  });

  it('has its own text for a job application, naming the position', async () => {
    const application = { ...VALID_APPLICATION, email: 'applicant.reply@example.com', phone: '+380 93 555 44 33' };
    const id = await send(application, 'job-application');
    const [reply] = await eventually('the reply', () => repliesTo(application.email), (mails) => mails.length === 1, 5_000);
    expect(reply!.subject).toBe(`Ваш відгук на вакансію «${application.position}» отримано (№${id})`);
    expect(reply!.text).toContain(application.resume_text);
  });

  it('is never sent to a held lead; «Не спам» sends it then, and once however often it is said', async () => {
    const body = person();
    const answer = await ctx.request('POST', '/api/contact', { json: body, headers: BROWSER_FETCH_HEADERS });
    const lead = await leadOf('contact', answer.json<{ id: number }>().id);
    expect(lead.status).toBe('spam');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(repliesTo(body.email)).toHaveLength(0);

    const released = (await editor.browser.request('POST', `/api/staff/leads/${lead.id}/not-spam`, { json: { version: lead.version } })).json<LeadSummary>();
    await eventually('the reply', () => repliesTo(body.email), (mails) => mails.length === 1, 5_000);
    const marked = await editor.browser.request('POST', '/api/staff/leads/spam', { json: { ids: [lead.id] } });
    expect(marked.json()).toEqual({ updated: 1 });
    const again = (await editor.browser.request('GET', `/api/staff/leads/${lead.id}`)).json<LeadDetail>();
    expect((await editor.browser.request('POST', `/api/staff/leads/${lead.id}/not-spam`, { json: { version: again.version } })).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(repliesTo(body.email)).toHaveLength(1);
    expect(released.status).toBe('new');
  });
});

describe('a person who writes again', () => {
  it('is joined by e-mail in any case and by phone in any spelling; the inbox shows them once, the lead page their others', async () => {
    const first = person({ email: 'Iryna.Joined@Example.com', phone: '+380 (50) 111-22-33' });
    const byEmail = person({ email: 'iryna.joined@example.com', phone: '+380 63 999 88 77' });
    const byPhone = person({ email: 'other.address@example.com', phone: '050 111 2233' });
    const stranger = person();
    const ids = [await send(first), await send(byEmail), await send(byPhone), await send(stranger)];
    const [a, b, c, d] = await Promise.all(ids.map((id) => leadOf('contact', id)));

    const inbox = (await editor.browser.request('GET', '/api/staff/leads')).json<LeadPage>();
    const shown = inbox.leads.map((lead) => lead.id);
    expect(shown).toEqual(expect.arrayContaining([c!.id, d!.id]));
    expect(shown).not.toContain(a!.id);
    expect(shown).not.toContain(b!.id);
    expect(inbox.leads.find((lead) => lead.id === c!.id)!.personLeads).toBe(3);
    expect(inbox.leads.find((lead) => lead.id === d!.id)!.personLeads).toBe(1);

    const page = (await editor.browser.request('GET', `/api/staff/leads/${c!.id}`)).json<LeadDetail>();
    expect(page.personOthers.map((lead) => lead.id)).toEqual([b!.id, a!.id]);
    expect(page.linked).toBe(true);

    // The agency's notifications of the second and third say so.
    const texts = () => telegram.accepted().map((request) => (JSON.parse(request.body) as { text: string }).text);
    await eventually('the notifications', texts, (all) => all.some((text) => text.includes(`№${ids[2]}`)), 5_000);
    expect(texts().find((text) => text.includes(`заявка з сайту «Хвиля» №${ids[1]}`))).toContain(`Повторне звернення: 2-е від цієї людини (попереднє №${ids[0]}`);
    expect(texts().find((text) => text.includes(`заявка з сайту «Хвиля» №${ids[0]}`))).not.toContain('Повторне звернення');

    // Not the same person after all: unlinked, each is a row of their own.
    const unlinked = await editor.browser.request('POST', `/api/staff/leads/${c!.id}/unlink`, { json: { version: page.version } });
    expect(unlinked.statusCode).toBe(200);
    expect(unlinked.json<LeadSummary>().personLeads).toBe(1);
    const after = (await editor.browser.request('GET', '/api/staff/leads')).json<LeadPage>();
    expect(after.leads.map((lead) => lead.id)).toEqual(expect.arrayContaining([b!.id, c!.id]));
    expect(after.leads.find((lead) => lead.id === b!.id)!.personLeads).toBe(2);
    const stale = await editor.browser.request('POST', `/api/staff/leads/${c!.id}/unlink`, { json: { version: page.version } });
    expect(stale.statusCode).toBe(409);
    const audit = await ctx.db.kysely.selectFrom('staff_audit').select('target').where('action', '=', 'lead-unlinked').execute();
    expect(audit).toEqual([{ target: `lead:${c!.id}` }]);
  });

  it('is a new person after 90 days', async () => {
    const body = person({ email: 'returning@example.com', phone: '+380 67 444 33 22' });
    await send(body);
    clock.advance(91 * 86_400_000);
    try {
      const later = await leadOf('contact', await send({ ...body, message: 'Знову пишу вам через кілька місяців.' }));
      expect(later.personLeads).toBe(1);
    } finally {
      clock.advance(-91 * 86_400_000);
    }
  });
});

describe('assignment rules', () => {
  async function route(member: JoinedMember, kinds: string[], away = false): Promise<LeadRoutingMember> {
    const id = member.session.member.id;
    const answer = await admin.browser.request('PUT', `/api/staff/lead-routing/${id}`, { json: { kinds, away, telegramChatId: null } });
    expect(answer.statusCode).toBe(200);
    return answer.json<LeadRoutingMember>();
  }

  it('gives new contact messages in turn to the members who take them, skipping one away; applications to their own people', async () => {
    const third = await joinWithApp(ctx, 'third@khvylia.example', 'editor');
    const away = await joinWithApp(ctx, 'away@khvylia.example', 'editor');
    await route(editor, ['contact']);
    await route(third, ['contact', 'applications']);
    expect(await route(away, ['contact'], true)).toMatchObject({ kinds: ['contact'], away: true });

    const leads: LeadSummary[] = [];
    for (let i = 0; i < 4; i++) leads.push(await leadOf('contact', await send(person())));
    const assignees = leads.map((lead) => lead.assignee?.email);
    expect(new Set(assignees)).toEqual(new Set([editor.email, third.email]));
    expect(assignees[0]).not.toBe(assignees[1]);
    expect(assignees[2]).toBe(assignees[0]);
    expect(assignees[3]).toBe(assignees[1]);

    const application = await leadOf('applications', await send({ ...VALID_APPLICATION, email: 'rr.applicant@example.com', phone: '+380 95 123 00 11', resume_text: 'Пʼять років у таргетованій рекламі, веду кабінети інтернет-магазинів.' }, 'job-application'));
    expect(application.assignee?.email).toBe(third.email);

    const detail = (await editor.browser.request('GET', `/api/staff/leads/${leads[0]!.id}`)).json<LeadDetail>();
    expect(detail.history).toEqual([expect.objectContaining({ actor: 'автоматично', change: 'assignee', newValue: assignees[0] })]);
    const audit = await ctx.db.kysely.selectFrom('staff_audit').select(['actor', 'detail']).where('action', '=', 'lead-auto-assigned').where('target', '=', `lead:${leads[0]!.id}`).executeTakeFirstOrThrow();
    expect(audit.actor).toBe('assignment');

    // Nobody takes contact messages any more: new ones wait unassigned (the inbox flags them).
    await route(editor, []);
    await route(third, ['applications']);
    await route(away, [], true);
    expect((await leadOf('contact', await send(person()))).assignee).toBeNull();
    expect((await admin.browser.request('PUT', '/api/staff/lead-routing/999999', { json: { kinds: [], away: false, telegramChatId: null } })).statusCode).toBe(404);
    expect((await editor.browser.request('GET', '/api/staff/lead-routing')).statusCode).toBe(403);
  });
});
