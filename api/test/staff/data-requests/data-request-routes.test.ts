import type { ApiErrorBody, DataSubjectReport, ErasureResult, LeadDetail } from '@agency/shared';
import { sql } from 'kysely';
import { webhookSignature } from '../../../src/platform/lib/webhook-signature';
import { startTestApp, VALID_APPLICATION, VALID_CONTACT, type TestContext } from '../../helpers/app';
import { sqliteSearchIndexHolds, textColumnsHolding } from '../../helpers/database';
import { eventually } from '../../helpers/eventually';
import { startHttpReceiver, type HttpReceiver } from '../../helpers/lead-receivers';
import { asPerson } from '../../helpers/person-submission';
import { joinWithApp, type JoinedMember } from '../../helpers/staff';

const SECRET = 'data-requests-webhook-secret';
const PERSON = { email: 'Olena.Koval@Example.com', phone: '+380 (67) 765-43-21' };
const PERSON_DIGITS = '677654321';
// A word of the person's message no other indexed word starts like, so the search index stores it whole.
const PERSON_WORD = 'zefirka';

let ctx: TestContext;
let webhook: HttpReceiver;
let admin: JoinedMember;
let editor: JoinedMember;

beforeAll(async () => {
  webhook = await startHttpReceiver();
  ctx = await startTestApp({ leads: { webhook: { url: `${webhook.url}/leads`, secret: SECRET } } });
  admin = await joinWithApp(ctx, 'admin@khvylia.example', 'admin');
  editor = await joinWithApp(ctx, 'editor@khvylia.example', 'editor');
}, 30_000);

afterAll(async () => {
  await ctx.close();
  await webhook.close();
});

/** A person's submission, sent as the form's script sends it; its id. */
async function send(path: '/api/contact' | '/api/jobs/apply', body: Record<string, string>): Promise<number> {
  const response = await ctx.request('POST', path, await asPerson(ctx, path === '/api/contact' ? 'contact' : 'job-application', body));
  expect(response.statusCode).toBe(201);
  return response.json<{ id: number }>().id;
}

async function report(subject: string): Promise<DataSubjectReport> {
  const response = await admin.browser.request('POST', '/api/staff/data-requests/lookup', { json: { subject } });
  expect([response.statusCode, response.statusCode === 200 ? '' : response.body]).toEqual([200, '']);
  return response.json<DataSubjectReport>();
}

const fieldOf = (lead: LeadDetail, name: string) => lead.fields.find((field) => field.name === name)?.value;

describe('a person’s requests about their data', () => {
  let contactId: number;
  let applicationId: number;
  let otherId: number;

  beforeAll(async () => {
    contactId = await send('/api/contact', { ...VALID_CONTACT, email: PERSON.email, phone: PERSON.phone, message: `Потрібен SMM для пекарні ${PERSON_WORD}` });
    // The same person applies for a job, typing the address in lower case and the phone another way.
    applicationId = await send('/api/jobs/apply', { ...VALID_APPLICATION, name: 'Олена Коваль', email: PERSON.email.toLowerCase(), phone: '067 765 43 21' });
    otherId = await send('/api/contact', { ...VALID_CONTACT, email: 'someone.else@example.com', phone: '+380 50 111 22 33' });
    await eventually('the webhook deliveries', () => webhook.accepted().length, (count) => count >= 3, 5_000);
    const [lead] = (await report(PERSON.email)).leads;
    const note = await admin.browser.request('POST', `/api/staff/leads/${lead!.id}/notes`, { json: { text: 'Передзвонила, чекає пропозицію' } });
    expect(note.statusCode).toBe(201);
  });

  it('finds everything held about the person by e-mail in any case, or by the phone typed any way', async () => {
    const byEmail = await report(PERSON.email.toUpperCase());
    expect(byEmail).toMatchObject({ format: 'agency-data-subject/1', subject: PERSON.email.toLowerCase(), matchedBy: 'email', erasures: [] });
    expect(byEmail.leads.map((lead) => [lead.kind, fieldOf(lead, 'email')])).toEqual([
      ['contact', PERSON.email],
      ['applications', PERSON.email.toLowerCase()],
    ]);
    const [contact] = byEmail.leads;
    expect(contact!.notes.map((note) => note.text)).toEqual(['Передзвонила, чекає пропозицію']);
    expect(contact!.history.map((change) => change.change)).toEqual(['note']);
    expect(contact!.notifications).toHaveLength(1);
    expect(contact!.notifications[0]).toMatchObject({ channel: 'webhook', status: 'delivered', payloadRemovedAt: null });
    expect(JSON.stringify(contact!.notifications[0]!.payload)).toContain('Потрібен SMM для пекарні');

    for (const phone of ['0677654321', '+380677654321', '67 765 43 21']) {
      const byPhone = await report(phone);
      expect(byPhone).toMatchObject({ subject: PERSON_DIGITS, matchedBy: 'phone' });
      expect(byPhone.leads.map((lead) => lead.kind)).toEqual(['contact', 'applications']);
    }
    expect((await report('nobody@example.com')).leads).toEqual([]);
  });

  it('refuses what names nobody, and everyone but admins', async () => {
    for (const path of ['/api/staff/data-requests/lookup', '/api/staff/data-requests/export']) {
      for (const subject of ['olena', '12345', 'o@', '0671234567x']) {
        const response = await admin.browser.request('POST', path, { json: { subject } });
        expect(response.statusCode).toBe(400);
        expect(response.json<ApiErrorBody>().error.fields).toEqual({ subject: 'Вкажіть адресу електронної пошти або номер телефону (щонайменше 9 цифр)' });
      }
      const asEditor = await editor.browser.request('POST', path, { json: { subject: PERSON.email } });
      expect(asEditor.statusCode).toBe(403);
    }
    const eraseAsEditor = await editor.browser.request('POST', '/api/staff/data-requests/erase', { json: { subject: PERSON.email, confirmation: PERSON.email } });
    expect(eraseAsEditor.statusCode).toBe(403);
    expect((await report(PERSON.email)).leads).toHaveLength(2);
  });

  it('takes the person in a POST body only: no URL names them, and the CSRF token is required', async () => {
    for (const path of [`/api/staff/data-requests?subject=${encodeURIComponent(PERSON.email)}`, `/api/staff/data-requests/export?subject=${encodeURIComponent(PERSON.email)}`]) {
      expect((await admin.browser.request('GET', path)).statusCode).toBe(404);
    }
    const noBody = await admin.browser.request('POST', '/api/staff/data-requests/lookup', { json: {} });
    expect(noBody.statusCode).toBe(400);
    const noToken = await admin.browser.request('POST', '/api/staff/data-requests/lookup', { json: { subject: PERSON.email }, csrf: null });
    expect(noToken.statusCode).toBe(403);
    const exportNoToken = await admin.browser.request('POST', '/api/staff/data-requests/export', { json: { subject: PERSON.email }, csrf: null });
    expect(exportNoToken.statusCode).toBe(403);
  });

  it('exports it all as one JSON file, and the audit log records the export under a hash, not the address', async () => {
    const response = await admin.browser.request('POST', '/api/staff/data-requests/export', { json: { subject: PERSON.email } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="data-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(response.headers['cache-control']).toBe('no-store');
    const file = response.json<DataSubjectReport>();
    expect(file.leads.map((lead) => fieldOf(lead, 'name'))).toEqual([VALID_CONTACT.name, 'Олена Коваль']);
    const audit = await ctx.db.kysely.selectFrom('staff_audit').selectAll().where('action', '=', 'data-exported').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.target).toMatch(/^subject:[A-Za-z0-9_-]{43}$/);
    expect(JSON.parse(audit[0]!.detail)).toEqual({ leads: 2 });
  });

  it('corrects a field with the change in the lead’s history, checked like the form’s field', async () => {
    const [contact] = (await report(PERSON.email)).leads;
    const path = `/api/staff/leads/${contact!.id}/fields`;
    const invalid = await admin.browser.request('PATCH', path, { json: { version: contact!.version, field: 'phone', value: 'дзвоніть увечері' } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json<ApiErrorBody>().error.fields).toEqual({ value: 'Некоректний номер телефону' });

    const corrected = await admin.browser.request('PATCH', path, { json: { version: contact!.version, field: 'name', value: '  Олена Коваль  ' } });
    expect(corrected.statusCode).toBe(200);
    const lead = corrected.json<LeadDetail>();
    expect(fieldOf(lead, 'name')).toBe('Олена Коваль');
    expect(lead.version).toBe(contact!.version + 1);
    expect(lead.history.at(-1)).toMatchObject({ change: 'field:name', oldValue: VALID_CONTACT.name, newValue: 'Олена Коваль', actor: admin.email });
    // The inbox's search finds the lead by its new name.
    const found = await admin.browser.request('GET', `/api/staff/leads?q=${encodeURIComponent('Коваль')}`);
    expect(found.json<{ leads: { id: number }[] }>().leads.map((summary) => summary.id)).toContain(contact!.id);

    const stale = await admin.browser.request('PATCH', path, { json: { version: contact!.version, field: 'name', value: 'Інше імʼя' } });
    expect(stale.statusCode).toBe(409);
    const audit = await ctx.db.kysely.selectFrom('staff_audit').select(['target', 'detail']).where('action', '=', 'lead-corrected').execute();
    expect(audit.map((entry) => [entry.target, JSON.parse(entry.detail)])).toEqual([[`lead:${contact!.id}`, { field: 'name' }]]);
  });

  it('erases it all in one go after a typed confirmation: no table holds the person, the webhook is told, the audit keeps a hash', async () => {
    const unconfirmed = await admin.browser.request('POST', '/api/staff/data-requests/erase', { json: { subject: PERSON.email, confirmation: 'olena.koval@example.co' } });
    expect(unconfirmed.statusCode).toBe(400);
    expect((await report(PERSON.email)).leads).toHaveLength(2);

    const traces = [PERSON.email, PERSON_DIGITS, 'Олена Коваль', 'Потрібен SMM для пекарні', 'Передзвонила'];
    // Before: the person is in the submissions, the inbox's search text, the notes, the history and the outbox.
    expect(Object.keys(await textColumnsHolding(ctx.db, traces))).toEqual(
      expect.arrayContaining(['contact_messages.email', 'job_applications.email', 'lead_notes.text', 'lead_history.new_value', 'lead_outbox.payload']),
    );
    const sqlite = ctx.db.dialect.name === 'sqlite';
    if (sqlite) expect(await sqliteSearchIndexHolds(ctx.db, PERSON_WORD)).toBe(true);
    const erased = await admin.browser.request('POST', '/api/staff/data-requests/erase', { json: { subject: PERSON.email, confirmation: PERSON.email.toLowerCase() } });
    expect(erased.statusCode).toBe(200);
    const result = erased.json<ErasureResult>();
    expect(result.leads).toBe(2);
    expect(result.rows).toMatchObject({ leads: 2, contact_messages: 1, job_applications: 1, lead_notes: 1, lead_outbox: 2 });

    const after = await report(PERSON.email);
    expect(after.leads).toEqual([]);
    expect(after.erasures).toEqual([{ at: expect.any(String), actor: admin.email, leads: 2 }]);
    expect(await textColumnsHolding(ctx.db, traces)).toEqual({});
    // Not even in the search index's older segments.
    if (sqlite) expect(await sqliteSearchIndexHolds(ctx.db, PERSON_WORD)).toBe(false);
    // PostgreSQL: the tables rows left were vacuumed before the answer, their space free to be overwritten.
    if (!sqlite) {
      const { rows } = await sql<{ relname: string }>`select relname from pg_stat_user_tables where last_vacuum is not null`.execute(ctx.db.kysely);
      expect(rows.map((row) => row.relname).sort()).toEqual(Object.keys(result.rows).sort());
    }
    // Someone else's lead is untouched.
    expect((await report('someone.else@example.com')).leads.map((lead) => lead.kind)).toEqual(['contact']);

    const message = await eventually('the erasure message', () => webhook.accepted().find((request) => request.body.includes('lead.erased')), Boolean, 5_000);
    const body = JSON.parse(message!.body) as { event: string; idempotency_key: string; leads: { kind: string; id: number; idempotency_key: string }[] };
    expect(body.event).toBe('lead.erased');
    expect(body.leads).toEqual([
      { kind: 'contact', id: contactId, idempotency_key: `contact-${contactId}` },
      { kind: 'applications', id: applicationId, idempotency_key: `applications-${applicationId}` },
    ]);
    expect(message!.headers['x-signature']).toBe(webhookSignature(message!.body, SECRET));
    expect(message!.headers['idempotency-key']).toBe(body.idempotency_key);

    const audit = await ctx.db.kysely.selectFrom('staff_audit').selectAll().where('action', '=', 'data-erased').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: admin.email, target: expect.stringMatching(/^subject:/) });
    expect(JSON.parse(audit[0]!.detail)).toMatchObject({ leads: 2, rows: { leads: 2 } });
    expect(otherId).toBeGreaterThan(0);
  });
});
