import type { LeadPage, LeadSummary } from '@agency/shared';
import { startTestApp, VALID_CONTACT, type TestContext } from '../../helpers/app';
import { eventually } from '../../helpers/eventually';
import { startHttpReceiver, type HttpReceiver } from '../../helpers/lead-receivers';
import { asPerson, BROWSER_FETCH_HEADERS } from '../../helpers/person-submission';
import { joinWithApp, type JoinedMember } from '../../helpers/staff';

// «Не спам»: a held lead let through from the console, over real HTTP, with a real webhook receiver.

let webhook: HttpReceiver;
let ctx: TestContext;
let editor: JoinedMember;
let viewer: JoinedMember;

beforeAll(async () => {
  webhook = await startHttpReceiver();
  ctx = await startTestApp({ leads: { webhook: { url: `${webhook.url}/leads`, secret: 'webhook-secret' } } });
  editor = await joinWithApp(ctx, 'editor@khvylia.example', 'editor');
  viewer = await joinWithApp(ctx, 'viewer@khvylia.example', 'viewer');
});

afterAll(async () => {
  await ctx.close();
  await webhook.close();
});

let senders = 0;
/** A sender of their own (and words of their own: one text from several e-mails is held): «Не спам» trusts a lead's e-mail and phone both. */
function sender(email: string) {
  senders += 1;
  return { ...VALID_CONTACT, email, phone: `+380 67 000 00 ${String(senders).padStart(2, '0')}`, message: `Доброго дня! Питання номер ${senders} від ${email}.` };
}

/** A browser's post without a form token (a page from before tokens, a bot in a browser): held. */
async function heldLead(email: string): Promise<LeadSummary> {
  const answer = await ctx.request('POST', '/api/contact', { json: { ...sender(email), message: `Повідомлення від ${email}` }, headers: BROWSER_FETCH_HEADERS });
  expect(answer.statusCode).toBe(201);
  const page = (await editor.browser.request('GET', '/api/staff/leads?status=spam')).json<LeadPage>();
  const lead = page.leads.find((candidate) => candidate.email === email);
  if (!lead) throw new Error(`no held lead of ${email}`);
  return lead;
}

const delivered = (email: string) => webhook.accepted().filter((request) => JSON.stringify(request.body).includes(email));

/** The notifications ever queued for a lead (rows stay until the lead is removed). */
async function queued(leadId: number): Promise<number> {
  const lead = await ctx.db.kysely.selectFrom('leads').select(['kind', 'submission_id']).where('id', '=', leadId).executeTakeFirstOrThrow();
  const rows = await ctx.db.kysely.selectFrom('lead_outbox').select('id').where('submission_kind', '=', lead.kind).where('submission_id', '=', lead.submission_id).execute();
  return rows.length;
}

describe('POST /api/staff/leads/:id/not-spam', () => {
  it('shows a held lead with its reasons and sends nothing until an editor says «Не спам»; then it is «Нова» and sent', async () => {
    const lead = await heldLead('held@example.com');
    expect(lead).toMatchObject({ status: 'spam', spamReasons: expect.arrayContaining(['no-token', 'no-proof']) });
    expect(await queued(lead.id)).toBe(0);

    const answer = await editor.browser.request('POST', `/api/staff/leads/${lead.id}/not-spam`, { json: { version: lead.version } });
    expect(answer.statusCode).toBe(200);
    expect(answer.json<LeadSummary>()).toMatchObject({ id: lead.id, status: 'new', version: lead.version + 1 });
    await eventually('the webhook delivery', () => delivered('held@example.com').length, (count) => count === 1);
  });

  it('trusts the sender from then on: their next lead, held for the same reasons before, goes through', async () => {
    const lead = await heldLead('trusted@example.com');
    await editor.browser.request('POST', `/api/staff/leads/${lead.id}/not-spam`, { json: { version: lead.version } });
    const again = await ctx.request('POST', '/api/contact', { json: { ...sender('trusted@example.com'), message: 'І ще одне питання.' }, headers: BROWSER_FETCH_HEADERS });
    expect(again.statusCode).toBe(201);
    const row = await ctx.db.kysely.selectFrom('leads').select(['status', 'spam_reasons']).where('id', '=', lead.id + 1).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'new', spam_reasons: null });
  });

  it('counts the leads held this week in the inbox, whatever its filter', async () => {
    const before = (await viewer.browser.request('GET', '/api/staff/leads')).json<LeadPage>().heldThisWeek;
    await heldLead('counted@example.com');
    const person = await ctx.request('POST', '/api/contact', await asPerson(ctx, 'contact', sender('person@example.com')));
    expect(person.statusCode).toBe(201);
    const page = (await viewer.browser.request('GET', '/api/staff/leads')).json<LeadPage>();
    expect(page.heldThisWeek).toBe(before + 1);
    expect(page.leads.map((lead) => lead.email)).toContain('person@example.com');
    expect(page.leads.map((lead) => lead.email)).not.toContain('counted@example.com');
  });

  it('refuses a viewer, and a change made from an older version (409 with the lead as it is now)', async () => {
    const lead = await heldLead('contested@example.com');
    expect((await viewer.browser.request('POST', `/api/staff/leads/${lead.id}/not-spam`, { json: { version: lead.version } })).statusCode).toBe(403);
    await editor.browser.request('PATCH', `/api/staff/leads/${lead.id}`, { json: { version: lead.version, status: 'lost' } });
    const stale = await editor.browser.request('POST', `/api/staff/leads/${lead.id}/not-spam`, { json: { version: lead.version } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<{ current: LeadSummary }>().current).toMatchObject({ id: lead.id, status: 'lost' });
  });

  it('does not send again a lead that was sent before it was marked spam by hand', async () => {
    const answer = await ctx.request('POST', '/api/contact', await asPerson(ctx, 'contact', sender('sent-once@example.com')));
    expect(answer.statusCode).toBe(201);
    await eventually('the first delivery', () => delivered('sent-once@example.com').length, (count) => count === 1);
    const lead = (await editor.browser.request('GET', '/api/staff/leads')).json<LeadPage>().leads.find((candidate) => candidate.email === 'sent-once@example.com')!;
    await editor.browser.request('POST', '/api/staff/leads/spam', { json: { ids: [lead.id] } });
    const marked = (await editor.browser.request('GET', `/api/staff/leads/${lead.id}`)).json<LeadSummary>();
    expect((await editor.browser.request('POST', `/api/staff/leads/${lead.id}/not-spam`, { json: { version: marked.version } })).json<LeadSummary>().status).toBe('new');
    expect(await queued(lead.id)).toBe(1);
    expect(delivered('sent-once@example.com')).toHaveLength(1);
  });
});
