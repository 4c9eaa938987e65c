import { createHmac } from 'node:crypto';
import { SERVICE_TYPES } from '@agency/shared';
import { sql } from 'kysely';
import type { LeadsConfig } from '../../../../src/platform/config/leads';
import type { LeadPayload } from '../../../../src/site/leads/lead/lead-payload';
import { startTestApp, VALID_APPLICATION, VALID_CONTACT, type TestContext } from '../../../helpers/app';
import { countRows } from '../../../helpers/database';
import { eventually } from '../../../helpers/eventually';
import { startHttpReceiver, startSmtpSink, type HttpReceiver, type SmtpSink } from '../../../helpers/lead-receivers';
import { asPerson } from '../../../helpers/person-submission';

// The outbox end to end: a real API on a real database, real HTTP receivers and a real SMTP server.
jest.setTimeout(90_000);

const SECRET = 'webhook-secret';
const BOT_TOKEN = '123456:test-token';
const CHAT_ID = '-100200300';
const REFERRER = 'http://127.0.0.1/#contacts';
const AGENCY_MAIL = 'leads@khvylia.example';

let webhook: HttpReceiver;
let telegram: HttpReceiver;
let smtp: SmtpSink;

beforeEach(async () => {
  [webhook, telegram, smtp] = await Promise.all([startHttpReceiver(), startHttpReceiver(), startSmtpSink()]);
});

afterEach(async () => {
  await Promise.all([webhook.close(), telegram.close(), smtp.close()]);
});

function allChannels(): LeadsConfig {
  return {
    webhook: { url: `${webhook.url}/leads`, secret: SECRET },
    telegram: { botToken: BOT_TOKEN, chatId: CHAT_ID, apiUrl: telegram.url },
    email: { smtpUrl: smtp.url, to: AGENCY_MAIL, from: 'site@khvylia.example' },
  };
}

async function withApp(leads: LeadsConfig, test: (ctx: TestContext) => Promise<void>): Promise<void> {
  const ctx = await startTestApp({ leads });
  try {
    await test(ctx);
  } finally {
    await ctx.close();
  }
}

function outboxRows(ctx: TestContext) {
  return ctx.db.kysely.selectFrom('lead_outbox').selectAll().orderBy('id').execute();
}

/** A person's contact message, sent as the form's script sends it. */
async function postContact(ctx: TestContext, body: object = VALID_CONTACT): Promise<number> {
  const response = await ctx.request('POST', '/api/contact', await asPerson(ctx, 'contact', body, { headers: { referer: REFERRER } }));
  expect(response.statusCode).toBe(201);
  return (response.json() as { id: number }).id;
}

it('delivers a contact message to the webhook, Telegram and e-mail within 5 s, each carrying the submission id', async () => {
  await withApp(allChannels(), async (ctx) => {
    const id = await postContact(ctx);
    const key = `contact-${id}`;
    await eventually('all three deliveries', () => [webhook.accepted().length, telegram.accepted().length, smtp.sentTo(AGENCY_MAIL).length], (counts) => counts.every((n) => n === 1), 5_000);

    const [hook] = webhook.accepted();
    expect(hook!.path).toBe('/leads');
    expect(hook!.headers['content-type']).toMatch(/^application\/json/);
    expect(hook!.headers['idempotency-key']).toBe(key);
    expect(hook!.headers['x-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(hook!.body).digest('hex')}`);
    const { website: _honeypot, ...submitted } = VALID_CONTACT;
    expect(JSON.parse(hook!.body)).toEqual({
      kind: 'contact',
      id,
      idempotency_key: key,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      referrer: REFERRER,
      attribution: null,
      submission: submitted,
    } satisfies Record<Exclude<keyof LeadPayload, 'person' | 'assignee'>, unknown>);

    const [message] = telegram.accepted();
    expect(message!.path).toBe(`/bot${BOT_TOKEN}/sendMessage`);
    const sent = JSON.parse(message!.body) as { chat_id: string; text: string };
    expect(sent.chat_id).toBe(CHAT_ID);
    const serviceLabel = SERVICE_TYPES.find((type) => type.value === VALID_CONTACT.service_type)!.label;
    for (const line of [
      `Нова заявка з сайту «Хвиля» №${id}`,
      `Імʼя: ${VALID_CONTACT.name}`,
      `Email: ${VALID_CONTACT.email}`,
      `Телефон: ${VALID_CONTACT.phone}`,
      `Компанія: ${VALID_CONTACT.company}`,
      `Послуга: ${serviceLabel}`,
      `Сторінка: ${REFERRER}`,
      `Повідомлення:\n${VALID_CONTACT.message}`,
    ]) {
      expect(sent.text).toContain(line);
    }

    const [mail] = smtp.sentTo(AGENCY_MAIL);
    expect(smtp.recipients[0]).toEqual(['leads@khvylia.example']);
    expect(mail!.subject).toBe(`Нова заявка з сайту «Хвиля» №${id}: ${VALID_CONTACT.name}`);
    expect(mail!.text).toContain(`Повідомлення:\n${VALID_CONTACT.message}`);
    expect(mail!.replyTo?.value[0]?.address).toBe(VALID_CONTACT.email);
    expect(mail!.messageId).toBe(`<${key}@khvylia.example>`);

    await eventually('the outbox rows marked delivered', () => outboxRows(ctx), (rows) => rows.every((row) => row.status === 'delivered'));
    const rows = await outboxRows(ctx);
    // With e-mail configured, the visitor's reply is queued beside the agency's three.
    expect(rows.map((row) => row.channel)).toEqual(['webhook', 'telegram', 'email', 'reply']);
    const health = await ctx.request('GET', '/api/health');
    expect(health.json()).toEqual({ status: 'ok', outbox: { pending: 0, failed: 0, oldest_pending_at: null } });
  });
});

it('keeps a name with line breaks on its one line: no forged field in the Telegram text or the e-mail', async () => {
  const forged = 'Олена\nEmail: ceo@evil.example\r\nТелефон: +380 00 000 00 00\u2028Компанія: Evil\u2029';
  await withApp(allChannels(), async (ctx) => {
    const id = await postContact(ctx, { ...VALID_CONTACT, name: forged, company: 'ТОВ\n«Кава»' });
    await eventually('the deliveries', () => [telegram.accepted().length, smtp.sentTo(AGENCY_MAIL).length], (counts) => counts.every((n) => n === 1), 5_000);
    const flat = 'Олена Email: ceo@evil.example Телефон: +380 00 000 00 00 Компанія: Evil';
    const stored = await ctx.db.kysely.selectFrom('contact_messages').select(['name', 'company']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ name: flat, company: 'ТОВ «Кава»' });
    for (const text of [(JSON.parse(telegram.accepted()[0]!.body) as { text: string }).text, smtp.sentTo(AGENCY_MAIL)[0]!.text ?? '']) {
      const lines = text.split(/\r?\n/);
      expect(lines.filter((line) => line.startsWith('Email:'))).toEqual([`Email: ${VALID_CONTACT.email}`]);
      expect(lines.filter((line) => line.startsWith('Телефон:'))).toEqual([`Телефон: ${VALID_CONTACT.phone}`]);
      expect(lines).toContain(`Імʼя: ${flat}`);
      expect(text).not.toMatch(/[\u2028\u2029]/);
    }
    expect(smtp.sentTo(AGENCY_MAIL)[0]!.subject).toBe(`Нова заявка з сайту «Хвиля» №${id}: ${flat}`);
  });
});

it('delivers a job application with its position and where its visitor came from', async () => {
  const attribution = {
    utm_source: 'facebook',
    utm_medium: 'cpc',
    utm_campaign: 'black-friday',
    fbclid: 'IwAR0abc',
    landing_path: '/blog/6',
    landed_at: '2026-11-24T08:30:00.000Z',
  };
  await withApp(allChannels(), async (ctx) => {
    const response = await ctx.request('POST', '/api/jobs/apply', await asPerson(ctx, 'job-application', { ...VALID_APPLICATION, attribution }));
    expect(response.statusCode).toBe(201);
    const { id } = response.json() as { id: number };
    await eventually('all three deliveries', () => [webhook.accepted().length, telegram.accepted().length, smtp.sentTo(AGENCY_MAIL).length], (counts) => counts.every((n) => n === 1), 5_000);
    const lead = JSON.parse(webhook.accepted()[0]!.body) as LeadPayload;
    expect(lead).toMatchObject({ kind: 'applications', id, idempotency_key: `applications-${id}`, attribution });
    for (const text of [(JSON.parse(telegram.accepted()[0]!.body) as { text: string }).text, smtp.sentTo(AGENCY_MAIL)[0]!.text]) {
      expect(text).toContain('Джерело: facebook / cpc / black-friday');
      expect(text).toContain('Перша сторінка: /blog/6');
    }
    expect(lead.submission).toMatchObject({ position: VALID_APPLICATION.position, city: VALID_APPLICATION.city });
    const text = (JSON.parse(telegram.accepted()[0]!.body) as { text: string }).text;
    expect(text).toContain(`Посада: ${VALID_APPLICATION.position}`);
    expect(text).toContain(`Про себе:\n${VALID_APPLICATION.resume_text}`);
    expect(smtp.sentTo(AGENCY_MAIL)[0]!.subject).toBe(`Відгук на вакансію «${VALID_APPLICATION.position}» №${id}: ${VALID_APPLICATION.name}`);
  });
});

it('keeps retrying a receiver that answers 500 for 10 s and delivers once it recovers, while health stays 200', async () => {
  const failUntil = Date.now() + 10_000;
  webhook.answer = () => (Date.now() < failUntil ? { status: 500, body: 'down for maintenance' } : { status: 204 });
  await withApp({ webhook: { url: webhook.url } }, async (ctx) => {
    const id = await postContact(ctx);
    await eventually('a failed first attempt', () => webhook.received.length, (n) => n >= 1, 5_000);
    const health = await ctx.request('GET', '/api/health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 'ok', outbox: { pending: 1, failed: 0, oldest_pending_at: expect.any(String) } });
    const [waiting] = await outboxRows(ctx);
    expect(waiting!.last_error).toBe('webhook answered 500');

    await eventually('the delivery after recovery', () => webhook.accepted().length, (n) => n === 1, 60_000);
    // Every attempt was the same lead with the same key, so the receiver can drop repeats.
    expect(new Set(webhook.received.map((request) => request.headers['idempotency-key']))).toEqual(new Set([`contact-${id}`]));
    expect(webhook.received.length).toBeGreaterThanOrEqual(2);
    const [row] = await eventually('the row marked delivered', () => outboxRows(ctx), (rows) => rows[0]?.status === 'delivered');
    expect(row!.attempts).toBe(webhook.received.length);
    expect(row!.last_error).toBeNull();
  });
});

it('marks a delivery failed at its deadline and reports it, and the site stays healthy', async () => {
  webhook.answer = () => ({ status: 503 });
  await withApp({ webhook: { url: webhook.url } }, async (ctx) => {
    await postContact(ctx);
    await eventually('a failed first attempt', () => webhook.received.length, (n) => n >= 1, 5_000);
    // Move the 24-hour deadline into the past: the next attempt is the last.
    await ctx.db.kysely.updateTable('lead_outbox').set({ give_up_at: ctx.db.dialect.timestamp(new Date(Date.now() - 1000)) }).execute();
    const [row] = await eventually('the row marked failed', () => outboxRows(ctx), (rows) => rows[0]?.status === 'failed', 30_000);
    expect(row!.last_error).toBe('webhook answered 503');
    const health = await ctx.request('GET', '/api/health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok', outbox: { pending: 0, failed: 1, oldest_pending_at: null } });
  });
});

it('honours a Telegram flood-control answer (retry_after) before trying again', async () => {
  let first = true;
  telegram.answer = () => {
    if (!first) return { status: 200, body: '{"ok":true}' };
    first = false;
    return { status: 429, body: '{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 60","parameters":{"retry_after":60}}' };
  };
  await withApp({ telegram: allChannels().telegram }, async (ctx) => {
    await postContact(ctx);
    const [row] = await eventually('the failed attempt recorded', () => outboxRows(ctx), (rows) => rows[0]?.attempts === 1 && rows[0].last_error !== null, 5_000);
    expect(row!.last_error).toBe('telegram answered 429: Too Many Requests: retry after 60');
    // The token is in the Bot API's URL; it never reaches what is stored or logged.
    expect(JSON.stringify(row)).not.toContain(BOT_TOKEN);
    const next = new Date(ctx.db.dialect.readTimestamp(row!.next_attempt_at)).getTime();
    expect(next - Date.now()).toBeGreaterThan(50_000);
  });
});

it('sends nothing for rejected submissions: invalid, honeypot-filled or not JSON', async () => {
  await withApp({ webhook: { url: webhook.url } }, async (ctx) => {
    const invalid = await ctx.request('POST', '/api/contact', { json: { ...VALID_CONTACT, email: 'not-an-email' } });
    expect(invalid.statusCode).toBe(400);
    const bot = await ctx.request('POST', '/api/contact', { json: { ...VALID_CONTACT, website: 'http://spam.example' } });
    expect(bot.statusCode).toBe(201);
    const notJson = await ctx.request('POST', '/api/jobs/apply', { body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(notJson.statusCode).toBe(415);
    // A real lead after them: once it has arrived, anything queued before it would have too.
    const id = await postContact(ctx);
    await eventually('the real lead', () => webhook.accepted().length, (n) => n === 1, 5_000);
    expect(webhook.received.map((request) => request.headers['idempotency-key'])).toEqual([`contact-${id}`]);
    expect(await countRows(ctx.db, 'lead_outbox')).toBe(1);
  });
});

it('refuses the submission, storing nothing, when its outbox row cannot be written', async () => {
  await withApp({ webhook: { url: webhook.url } }, async (ctx) => {
    const before = await countRows(ctx.db, 'contact_messages');
    await sql`drop table lead_outbox`.execute(ctx.db.kysely);
    const response = await ctx.request('POST', '/api/contact', await asPerson(ctx, 'contact', VALID_CONTACT));
    expect(response.statusCode).toBe(500);
    expect(await countRows(ctx.db, 'contact_messages')).toBe(before);
  });
});

it('queues nothing when no channel is configured, and stores the lead as before', async () => {
  await withApp({}, async (ctx) => {
    await postContact(ctx);
    expect(await countRows(ctx.db, 'contact_messages')).toBe(1);
    expect(await countRows(ctx.db, 'lead_outbox')).toBe(0);
  });
});
