import type { ApiErrorBody, LeadConflict, LeadDetail, LeadPage, LeadSummary } from '@agency/shared';
import { startTestApp, VALID_APPLICATION, VALID_CONTACT, type TestContext } from '../../helpers/app';
import { asPerson } from '../../helpers/person-submission';
import { joinWithApp, type JoinedMember } from '../../helpers/staff';

let ctx: TestContext;
let editor: JoinedMember;
let colleague: JoinedMember;

beforeAll(async () => {
  ctx = await startTestApp();
  editor = await joinWithApp(ctx, 'editor@khvylia.example', 'editor');
  colleague = await joinWithApp(ctx, 'colleague@khvylia.example', 'editor');
  // Joining members runs the whole invitation flow; under a loaded CI machine it takes seconds.
}, 30_000);

afterAll(async () => {
  await ctx.close();
});

let people = 0;
/**
 * An e-mail and a phone no other lead of the suite has (a test may give its own): the spam defence
 * holds a sender's fourth lead of a day, and more so from an address that sent five within the
 * hour (spam-rates.ts), and the suite sends dozens from one address.
 */
function anotherSender(): { email: string; phone: string } {
  people += 1;
  return { email: `client.${people}@example.com`, phone: `+380 93 ${String(people).padStart(7, '0')}` };
}

/** A person's contact message, sent as the form's script sends it. */
async function sendContact(fields: Partial<typeof VALID_CONTACT> = {}, attribution?: Record<string, string>): Promise<void> {
  const response = await ctx.request('POST', '/api/contact', await asPerson(ctx, 'contact', { ...VALID_CONTACT, ...anotherSender(), ...fields, ...(attribution && { attribution }) }));
  expect(response.statusCode).toBe(201);
}

async function sendApplication(fields: Partial<typeof VALID_APPLICATION> = {}): Promise<void> {
  const response = await ctx.request('POST', '/api/jobs/apply', await asPerson(ctx, 'job-application', { ...VALID_APPLICATION, ...anotherSender(), ...fields }));
  expect(response.statusCode).toBe(201);
}

async function list(query = ''): Promise<LeadPage> {
  const response = await editor.browser.request('GET', `/api/staff/leads${query}`);
  expect([query, response.statusCode, response.statusCode === 200 ? '' : response.body]).toEqual([query, 200, '']);
  return response.json<LeadPage>();
}

const names = (page: LeadPage) => page.leads.map((lead) => lead.name);

describe('the lead inbox', () => {
  beforeAll(async () => {
    await sendContact({ name: 'Тарас Шевченко', email: 'taras@kobzar.example', phone: '+380 67 555 12 34', company: 'Кобзар і партнери', message: 'Потрібна реклама книгарні' }, {
      utm_source: 'google',
      landing_path: '/',
    });
    await sendApplication({ name: 'Леся Українка', email: 'lesia@example.com', phone: '0503332211', resume_text: 'Пишу вірші й тексти для соцмереж' });
    await sendContact({ name: '<img src=x onerror=alert(1)>', email: 'xss@example.com', phone: VALID_CONTACT.phone, message: '<script>alert("lead")</script>' });
  });

  it('lists both kinds of lead newest first, each «Нова» and unassigned, with its subject and source', async () => {
    const page = await list();
    expect(names(page)).toEqual(['<img src=x onerror=alert(1)>', 'Леся Українка', 'Тарас Шевченко']);
    const [, application, contact] = page.leads as [LeadSummary, LeadSummary, LeadSummary];
    expect(contact).toMatchObject({ kind: 'contact', email: 'taras@kobzar.example', subject: 'SMM та просування', source: 'google', status: 'new', assignee: null, version: 1 });
    expect(application).toMatchObject({ kind: 'applications', subject: VALID_APPLICATION.position, source: '' });
    expect(Date.parse(contact.receivedAt)).toBeLessThanOrEqual(Date.now());
    expect(page.next).toBeNull();
  });

  it('finds leads by any word of a name, e-mail, company or message, by a word’s beginning, and by a phone typed another way', async () => {
    expect(names(await list(`?q=${encodeURIComponent('шевч')}`))).toEqual(['Тарас Шевченко']);
    expect(names(await list(`?q=${encodeURIComponent('Кобзар партнери')}`))).toEqual(['Тарас Шевченко']);
    expect(names(await list(`?q=${encodeURIComponent('taras@kobzar.example')}`))).toEqual(['Тарас Шевченко']);
    expect(names(await list(`?q=${encodeURIComponent('книгарні')}`))).toEqual(['Тарас Шевченко']);
    expect(names(await list(`?q=${encodeURIComponent('(067) 555-12-34')}`))).toEqual(['Тарас Шевченко']);
    expect(names(await list(`?q=${encodeURIComponent('+38 050 333 22 11')}`))).toEqual(['Леся Українка']);
    expect(names(await list(`?q=${encodeURIComponent('соцмереж')}`))).toEqual(['Леся Українка']);
    expect(names(await list(`?q=${encodeURIComponent('шевч вірші')}`))).toEqual([]);
    expect(names(await list(`?q=${encodeURIComponent('"; drop table leads; --')}`))).toEqual([]);
  });

  it('filters by kind and source, and refuses a malformed filter', async () => {
    expect(names(await list('?kind=applications'))).toEqual(['Леся Українка']);
    expect(names(await list('?source=google'))).toEqual(['Тарас Шевченко']);
    for (const query of ['?status=open', '?kind=lead', '?from=2026-13-01', '?assignee=someone', '?before=0', '?before=9999999999']) {
      const response = await editor.browser.request('GET', `/api/staff/leads${query}`);
      expect([query, response.statusCode]).toEqual([query, 400]);
    }
  });

  it('shows a lead whole, every field as the visitor sent it', async () => {
    const [xss] = (await list()).leads;
    const response = await editor.browser.request('GET', `/api/staff/leads/${xss!.id}`);
    const lead = response.json<LeadDetail>();
    expect(lead.fields).toEqual([
      { name: 'name', value: '<img src=x onerror=alert(1)>' },
      { name: 'email', value: 'xss@example.com' },
      { name: 'phone', value: VALID_CONTACT.phone },
      { name: 'company', value: VALID_CONTACT.company },
      { name: 'service_type', value: 'SMM та просування' },
      { name: 'message', value: '<script>alert("lead")</script>' },
    ]);
    expect(lead.history).toEqual([]);
    expect((await editor.browser.request('GET', '/api/staff/leads/999999')).statusCode).toBe(404);
  });

  it('changes status and assignee with history and audit; a save from an older version answers 409 with the lead as it is now', async () => {
    const lead = (await list('?kind=applications')).leads[0]!;
    const first = await editor.browser.request('PATCH', `/api/staff/leads/${lead.id}`, { json: { version: 1, status: 'in_progress', assigneeId: editor.session.member.id } });
    expect(first.statusCode).toBe(200);
    expect(first.json<LeadSummary>()).toMatchObject({ status: 'in_progress', version: 2, assignee: { email: editor.email } });

    const stale = await colleague.browser.request('PATCH', `/api/staff/leads/${lead.id}`, { json: { version: 1, status: 'lost' } });
    expect(stale.statusCode).toBe(409);
    const conflict = stale.json<LeadConflict>();
    expect(conflict.error.code).toBe('LEAD_CHANGED');
    expect(conflict.current).toMatchObject({ status: 'in_progress', version: 2, assignee: { email: editor.email } });

    expect((await colleague.browser.request('PATCH', `/api/staff/leads/${lead.id}`, { json: { version: 2, assigneeId: 999_999 } })).statusCode).toBe(400);
    // A release manager sees no leads, so takes none.
    const releases = await joinWithApp(ctx, 'releases@khvylia.example', 'release_manager', ['blog']);
    const toReleases = await colleague.browser.request('PATCH', `/api/staff/leads/${lead.id}`, { json: { version: 2, assigneeId: releases.session.member.id } });
    expect([toReleases.statusCode, toReleases.json<ApiErrorBody>().error.code]).toEqual([400, 'ASSIGNEE_UNKNOWN']);
    const detail = (await editor.browser.request('GET', `/api/staff/leads/${lead.id}`)).json<LeadDetail>();
    expect(detail.history.map(({ actor, change, oldValue, newValue }) => ({ actor, change, oldValue, newValue }))).toEqual([
      { actor: editor.email, change: 'status', oldValue: 'new', newValue: 'in_progress' },
      { actor: editor.email, change: 'assignee', oldValue: null, newValue: editor.email },
    ]);
    expect(names(await list(`?assignee=${editor.session.member.id}`))).toEqual(['Леся Українка']);
    expect(names(await list('?assignee=none'))).not.toContain('Леся Українка');
    expect(names(await list('?status=in_progress'))).toEqual(['Леся Українка']);
    const audit = await ctx.db.kysely.selectFrom('staff_audit').select(['action', 'target', 'detail']).where('target', '=', `lead:${lead.id}`).execute();
    expect(audit.map((entry) => entry.action)).toEqual(['lead-status-changed', 'lead-assigned']);
    expect(JSON.stringify(audit)).not.toContain('Леся');
  });

  it('two people saving one lead at once: one is stored, the other answers 409', async () => {
    const lead = (await list('?source=google')).leads[0]!;
    const [a, b] = await Promise.all([
      editor.browser.request('PATCH', `/api/staff/leads/${lead.id}`, { json: { version: lead.version, status: 'won' } }),
      colleague.browser.request('PATCH', `/api/staff/leads/${lead.id}`, { json: { version: lead.version, status: 'lost' } }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const winner = a.statusCode === 200 ? 'won' : 'lost';
    expect((await list(`?source=google&status=${winner}`)).leads).toHaveLength(1);
  });

  it('adds notes to a lead, shown with their author', async () => {
    const lead = (await list()).leads[0]!;
    const response = await editor.browser.request('POST', `/api/staff/leads/${lead.id}/notes`, { json: { text: 'Передзвонити у вівторок' } });
    expect(response.statusCode).toBe(201);
    const detail = (await editor.browser.request('GET', `/api/staff/leads/${lead.id}`)).json<LeadDetail>();
    expect(detail.notes).toEqual([{ id: expect.any(Number), author: editor.email, text: 'Передзвонити у вівторок', createdAt: expect.any(String) }]);
    expect((await editor.browser.request('POST', `/api/staff/leads/${lead.id}/notes`, { json: { text: '' } })).statusCode).toBe(400);
  });

  it('marks several leads as spam at once, and hides spam unless asked for', async () => {
    // Spam the spam defence let through (no phrase of its list, a person's browser): staff mark it.
    await sendContact({ name: 'Спамер Один', message: 'Cheap followers here' });
    await sendContact({ name: 'Спамер Два', message: 'Cheap followers here' });
    const spam = (await list(`?q=${encodeURIComponent('followers')}`)).leads.map((lead) => lead.id);
    expect(spam).toHaveLength(2);
    const response = await editor.browser.request('POST', '/api/staff/leads/spam', { json: { ids: spam } });
    expect(response.json()).toEqual({ updated: 2 });
    expect(names(await list())).not.toContain('Спамер Один');
    expect(names(await list('?status=spam')).sort()).toEqual(['Спамер Два', 'Спамер Один']);
    expect((await editor.browser.request('POST', '/api/staff/leads/spam', { json: { ids: spam } })).json()).toEqual({ updated: 0 });
  });

  it('pages through many leads by keyset, each lead once, and lists what arrived after a given lead', async () => {
    for (let i = 0; i < 55; i += 1) await sendContact({ name: `Клієнт ${i}`, message: `Запит номер ${i}` });
    const first = await list();
    expect(first.leads).toHaveLength(50);
    expect(first.next).toBe(first.leads[49]!.id);
    const second = await list(`?before=${first.next}`);
    const all = [...first.leads, ...second.leads];
    expect(second.next).toBeNull();
    expect(new Set(all.map((lead) => lead.id)).size).toBe(all.length);
    expect(all.map((lead) => lead.id)).toEqual([...all.map((lead) => lead.id)].sort((a, b) => b - a));
    const newest = first.leads[0]!.id;
    await sendContact({ name: 'Щойно прийшов' });
    expect(names(await list(`?after=${newest}`))).toEqual(['Щойно прийшов']);
  });

  it('filters by calendar days in Kyiv', async () => {
    const [late, early] = (await list('?q=' + encodeURIComponent('Запит номер 1'))).leads;
    // 23:59 on 10 January in Kyiv (UTC+2), and one minute past midnight on the 11th.
    await ctx.db.kysely.updateTable('leads').set({ received_at: '2026-01-10T21:59:00.000Z' }).where('id', '=', early!.id).execute();
    await ctx.db.kysely.updateTable('leads').set({ received_at: '2026-01-10T22:01:00.000Z' }).where('id', '=', late!.id).execute();
    expect((await list('?from=2026-01-11&to=2026-01-11')).leads.map((lead) => lead.id)).toEqual([late!.id]);
    expect((await list('?from=2026-01-10&to=2026-01-10')).leads.map((lead) => lead.id)).toEqual([early!.id]);
    expect((await list('?to=2026-01-11')).leads.map((lead) => lead.id)).toEqual([late!.id, early!.id]);
  });

  it('exports the filtered list as formula-safe CSV with a byte-order mark, and audits the export without contents', async () => {
    const response = await editor.browser.request('GET', `/api/staff/leads/export?kind=contact&q=${encodeURIComponent('шевченко')}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="leads-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.raw.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = response.body.slice(1).trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^"lead_id";"kind";"status";"assignee";"id";"created_at";"name";"email";"phone";"company";"service_type";"message"/);
    expect(lines[1]).toContain('"Тарас Шевченко"');

    await sendContact({ name: '=HYPERLINK("http://evil.example")', message: '+cmd|calc' });
    const formulas = await editor.browser.request('GET', `/api/staff/leads/export?q=${encodeURIComponent('evil')}`);
    expect(formulas.body).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(formulas.body).toContain(`"'+cmd|calc"`);

    const audit = await ctx.db.kysely.selectFrom('staff_audit').select(['detail']).where('action', '=', 'leads-exported').orderBy('seq').execute();
    // That a search was made, never its words (a person's name or address, often).
    expect(audit.map((entry) => JSON.parse(entry.detail))).toEqual([
      { filter: { kind: 'contact' }, searched: true, rows: 1 },
      { filter: {}, searched: true, rows: 1 },
    ]);
  });

  it('holds every stored lead: one inbox row per submission', async () => {
    const count = async (table: 'leads' | 'contact_messages' | 'job_applications') =>
      Number((await ctx.db.kysely.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect(await count('leads')).toBe((await count('contact_messages')) + (await count('job_applications')));
  });
});

describe('errors', () => {
  it('answers a lead that does not exist 404 in Ukrainian', async () => {
    const response = await editor.browser.request('PATCH', '/api/staff/leads/123456', { json: { version: 1, status: 'won' } });
    expect(response.statusCode).toBe(404);
    expect((JSON.parse(response.body) as ApiErrorBody).error.message).toBe('Заявку не знайдено');
  });
});
