import { randomUUID } from 'node:crypto';
import { ATTRIBUTION_KEYS, ATTRIBUTION_VALUE_MAX, HONEYPOT_FIELD, VACANCY_TITLES, type ApiErrorBody, type FormName } from '@agency/shared';
import { listContactMessages, listJobApplications } from '../../../../src/site/leads/submissions/submissions-repository';
import { startTestApp, VALID_APPLICATION, VALID_CONTACT, type TestContext } from '../../../helpers/app';
import { countRows } from '../../../helpers/database';
import type { HttpResponse } from '../../../helpers/http';
import { startHttpReceiver, type HttpReceiver } from '../../../helpers/lead-receivers';
import { asPerson, BROWSER_FETCH_HEADERS, spamFields } from '../../../helpers/person-submission';
import { openRawClient } from '../../../helpers/raw-socket';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await startTestApp();
});

afterAll(async () => {
  await ctx.close();
});

const ROUTES = {
  contact: { url: '/api/contact', valid: VALID_CONTACT, table: 'contact_messages', kind: 'contact', form: 'contact' },
  application: { url: '/api/jobs/apply', valid: VALID_APPLICATION, table: 'job_applications', kind: 'applications', form: 'job-application' },
} as const;
type RouteName = keyof typeof ROUTES;
type Url = (typeof ROUTES)[RouteName]['url'];
const FORM_OF: Record<Url, FormName> = { '/api/contact': 'contact', '/api/jobs/apply': 'job-application' };

let people = 0;
/**
 * `valid` as another person sends it: an e-mail, a phone and a message (or résumé) no other lead
 * of the suite has. The spam defence counts a sender's leads by e-mail and by phone, and takes the
 * same long text from another e-mail for a campaign (spam-rates.ts): the suite's many leads, all
 * from one address, must each be one person's, as a test of a person's lead means.
 */
function anotherPerson<T extends typeof VALID_CONTACT | typeof VALID_APPLICATION>(valid: T): T {
  people += 1;
  const sender = { email: `person.${people}@example.com`, phone: `+380 93 ${String(people).padStart(7, '0')}` };
  return 'message' in valid ? { ...valid, ...sender, message: `${valid.message} Заявка ${people}.` } : { ...valid, ...sender, resume_text: `${valid.resume_text} Відгук ${people}.` };
}

/** Posts `body` to `url` of the suite's app as a person's browser does: a fresh form token and proof, a browser's headers (and `headers`). */
async function postAsPerson(url: Url, body: object, headers: Record<string, string> = {}): Promise<HttpResponse> {
  return ctx.request('POST', url, await asPerson(ctx, FORM_OF[url], body, { headers }));
}

async function counts() {
  return {
    contact: await countRows(ctx.db, 'contact_messages'),
    application: await countRows(ctx.db, 'job_applications'),
  };
}

/** Posts a body and asserts the 4xx answer, its shape, and that nothing was stored. */
async function expectRejected(route: RouteName, body: unknown, status: number, options: { raw?: string; headers?: Record<string, string> } = {}) {
  const before = await counts();
  const response = await ctx.request('POST', ROUTES[route].url, {
    headers: options.headers ?? { 'content-type': 'application/json' },
    body: options.raw ?? JSON.stringify(body),
  });
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const error = response.json<ApiErrorBody>();
  expect(typeof error.error.code).toBe('string');
  // Ukrainian for people; never a stack trace or SQL.
  expect(error.error.message).toMatch(/[а-яіїєґ]/i);
  expect(response.body).not.toMatch(/\bat .*\.(ts|js):\d+|select |insert into|sqlite|postgres/i);
  expect(await counts()).toEqual(before);
  return error;
}

async function expectFieldError(route: RouteName, body: unknown, field: string, message: string) {
  const error = await expectRejected(route, body, 400);
  expect(error.error.code).toBe('VALIDATION_ERROR');
  expect(error.error.message).toBe('Перевірте правильність заповнення полів');
  expect(error.error.fields?.[field]).toBe(message);
}

describe('POST /api/contact', () => {
  it('stores a valid message and answers 201 { id } after the commit', async () => {
    const sent = anotherPerson(VALID_CONTACT);
    const response = await postAsPerson('/api/contact', sent, { 'user-agent': 'TestBrowser/1.0 (X11; Linux)', referer: 'http://localhost/#contact' });
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const { id } = response.json<{ id: number }>();
    expect(Number.isInteger(id)).toBe(true);
    const row = (await listContactMessages(ctx.db)).find((message) => message.id === id);
    const { website: _honeypot, ...fields } = sent;
    expect(row).toMatchObject({ ...fields, user_agent: 'TestBrowser/1.0 (X11; Linux)', referrer: 'http://localhost/#contact' });
    expect(Date.now() - new Date(row?.created_at ?? 0).getTime()).toBeLessThan(24 * 3600 * 1000);
  });

  it('accepts the optional fields empty or absent, and stores them as empty strings', async () => {
    const { company: _c, service_type: _s, ...required } = anotherPerson(VALID_CONTACT);
    for (const body of [{ ...anotherPerson(VALID_CONTACT), company: '', service_type: '' }, required]) {
      const response = await postAsPerson('/api/contact', body);
      expect(response.statusCode).toBe(201);
      const row = (await listContactMessages(ctx.db)).find((message) => message.id === response.json<{ id: number }>().id);
      expect(row).toMatchObject({ company: '', service_type: '' });
    }
  });

  it.each(['smm', 'content', 'leads', 'analytics'])('accepts service_type %s', async (serviceType) => {
    const response = await postAsPerson('/api/contact', { ...anotherPerson(VALID_CONTACT), service_type: serviceType });
    expect(response.statusCode).toBe(201);
  });

  it.each([
    ['name', 'Вкажіть імʼя'],
    ['email', 'Вкажіть адресу електронної пошти'],
    ['phone', 'Вкажіть номер телефону'],
    ['message', 'Напишіть повідомлення'],
  ])('requires %s (missing, empty or only spaces)', async (field, message) => {
    const { [field as keyof typeof VALID_CONTACT]: _removed, ...missing } = VALID_CONTACT;
    await expectFieldError('contact', missing, field, message);
    await expectFieldError('contact', { ...VALID_CONTACT, [field]: '' }, field, message);
    await expectFieldError('contact', { ...VALID_CONTACT, [field]: '   \n\t ' }, field, message);
  });

  it('reports every invalid field at once', async () => {
    const error = await expectRejected('contact', { name: '', email: 'ні', phone: '1', message: ' ', service_type: 'seo' }, 400);
    expect(error.error.fields).toEqual({
      name: 'Вкажіть імʼя',
      email: 'Некоректна адреса електронної пошти',
      phone: 'Некоректний номер телефону',
      message: 'Напишіть повідомлення',
      service_type: 'Оберіть один із запропонованих видів послуг',
    });
  });

  it.each(['seo', 'SMM', 'smm ', 'other'])('rejects service_type %p', async (serviceType) => {
    if (serviceType.trim() === 'smm') {
      // Values are trimmed first, so "smm " is smm; "SMM" is not.
      expect((await postAsPerson('/api/contact', { ...anotherPerson(VALID_CONTACT), service_type: serviceType })).statusCode).toBe(201);
      return;
    }
    await expectFieldError('contact', { ...VALID_CONTACT, service_type: serviceType }, 'service_type', 'Оберіть один із запропонованих видів послуг');
  });

  it.each([
    ['name', 100],
    ['company', 200],
    ['message', 5000],
  ])('limits %s to %i characters', async (field, max) => {
    const ok = await postAsPerson('/api/contact', { ...anotherPerson(VALID_CONTACT), [field]: 'я'.repeat(max) });
    expect(ok.statusCode).toBe(201);
    await expectFieldError('contact', { ...VALID_CONTACT, [field]: 'я'.repeat(max + 1) }, field, `Текст задовгий (максимум ${max} символів)`);
  });

  it.each([
    ['name', 42],
    ['email', ['a@b.ua']],
    ['phone', 380671234567],
    ['message', { text: 'привіт' }],
    ['company', true],
    ['service_type', null],
  ])('does not coerce types: %s as %p is a 400', async (field, value) => {
    await expectFieldError('contact', { ...VALID_CONTACT, [field]: value }, field, 'Значення має бути текстом');
  });
});

describe('email and phone rules (both forms)', () => {
  it.each(['plainaddress', 'a@b', '@example.com', 'olena@', 'ole na@example.com', 'олена@приклад.укр', 'a@b..com', 'a@-b.com'])(
    'rejects the email %p',
    async (email) => {
      await expectFieldError('contact', { ...VALID_CONTACT, email }, 'email', 'Некоректна адреса електронної пошти');
      await expectFieldError('application', { ...VALID_APPLICATION, email }, 'email', 'Некоректна адреса електронної пошти');
    },
  );

  it.each(['olena.petrenko+agency@example.com', 'o_p@mail.example.com.ua', ' spaced@example.com '])('accepts the email %p', async (email) => {
    expect((await postAsPerson('/api/contact', { ...anotherPerson(VALID_CONTACT), email })).statusCode).toBe(201);
  });

  it.each(['123456', '1'.repeat(21), '+380 67 123 45 6x', 'телефон', '067.123.45.67', '+380/671234567'])('rejects the phone %p', async (phone) => {
    await expectFieldError('contact', { ...VALID_CONTACT, phone }, 'phone', 'Некоректний номер телефону');
    await expectFieldError('application', { ...VALID_APPLICATION, phone }, 'phone', 'Некоректний номер телефону');
  });

  it.each(['1234567', '1'.repeat(20), '+380 (67) 123-45-67', '(032) 245-17-80', '0671234567'])('accepts the phone %p', async (phone) => {
    expect((await postAsPerson('/api/jobs/apply', { ...anotherPerson(VALID_APPLICATION), phone })).statusCode).toBe(201);
  });
});

describe('POST /api/jobs/apply', () => {
  it('stores a valid application and answers 201 { id }', async () => {
    const application = anotherPerson(VALID_APPLICATION);
    const response = await postAsPerson('/api/jobs/apply', application);
    expect(response.statusCode).toBe(201);
    const { id } = response.json<{ id: number }>();
    const row = (await listJobApplications(ctx.db)).find((stored) => stored.id === id);
    const { website: _honeypot, ...fields } = application;
    expect(row).toMatchObject(fields);
  });

  it.each(VACANCY_TITLES.map((title) => [title]))('accepts the vacancy %s', async (position) => {
    expect((await postAsPerson('/api/jobs/apply', { ...anotherPerson(VALID_APPLICATION), position })).statusCode).toBe(201);
  });

  it('accepts an empty or absent resume_text', async () => {
    const { resume_text: _r, ...required } = anotherPerson(VALID_APPLICATION);
    for (const body of [{ ...anotherPerson(VALID_APPLICATION), resume_text: '' }, required]) {
      const response = await postAsPerson('/api/jobs/apply', body);
      expect(response.statusCode).toBe(201);
      const row = (await listJobApplications(ctx.db)).find((application) => application.id === response.json<{ id: number }>().id);
      expect(row?.resume_text).toBe('');
    }
  });

  it.each([
    ['name', 'Вкажіть імʼя'],
    ['email', 'Вкажіть адресу електронної пошти'],
    ['phone', 'Вкажіть номер телефону'],
    ['city', 'Вкажіть місто'],
    ['position', 'Оберіть одну з вакансій'],
  ])('requires %s', async (field, message) => {
    const { [field as keyof typeof VALID_APPLICATION]: _removed, ...missing } = VALID_APPLICATION;
    await expectFieldError('application', missing, field, message);
    await expectFieldError('application', { ...VALID_APPLICATION, [field]: '  ' }, field, message);
  });

  it.each(['Дизайнер', 'менеджер служби підтримки клієнтів', 'Smm'])('rejects the position %p', async (position) => {
    await expectFieldError('application', { ...VALID_APPLICATION, position }, 'position', 'Оберіть одну з вакансій');
  });

  it.each([
    ['name', 100],
    ['city', 100],
    ['resume_text', 5000],
  ])('limits %s to %i characters', async (field, max) => {
    expect((await postAsPerson('/api/jobs/apply', { ...anotherPerson(VALID_APPLICATION), [field]: 'ї'.repeat(max) })).statusCode).toBe(201);
    await expectFieldError('application', { ...VALID_APPLICATION, [field]: 'ї'.repeat(max + 1) }, field, `Текст задовгий (максимум ${max} символів)`);
  });

  it('rejects a number for city', async () => {
    await expectFieldError('application', { ...VALID_APPLICATION, city: 79000 }, 'city', 'Значення має бути текстом');
  });
});

describe.each(Object.keys(ROUTES) as RouteName[])('transport rules of %s', (route) => {
  const { url, valid, form } = ROUTES[route];

  it.each([
    ['text/plain', 'text/plain'],
    ['form data', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x'],
    ['a look-alike', 'application/jsonp'],
  ])('answers 415 for %s bodies', async (_label, type) => {
    const error = await expectRejected(route, valid, 415, { headers: { 'content-type': type } });
    expect(error.error).toEqual({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Підтримується лише тіло запиту у форматі application/json' });
  });

  it('answers 415 without a content type', async () => {
    const error = await expectRejected(route, valid, 415, { headers: {} });
    expect(error.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('accepts application/json with a charset', async () => {
    const person = await asPerson(ctx, form, anotherPerson(valid));
    const response = await ctx.request('POST', url, { headers: { ...person.headers, 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(person.json) });
    expect(response.statusCode).toBe(201);
  });

  it('answers 400 for malformed JSON', async () => {
    const error = await expectRejected(route, undefined, 400, { raw: '{"name": "Олена",' });
    expect(error.error).toEqual({ code: 'INVALID_JSON', message: 'Некоректний JSON у тілі запиту' });
  });

  it('answers 400 for an empty JSON body', async () => {
    const error = await expectRejected(route, undefined, 400, { raw: '' });
    expect(error.error.code).toBe('EMPTY_BODY');
  });

  it.each([['[]'], ['"текст"'], ['null'], ['42']])('answers 400 when the body is %s rather than an object', async (raw) => {
    const error = await expectRejected(route, undefined, 400, { raw });
    expect(error.error).toEqual({ code: 'INVALID_BODY', message: 'Тіло запиту має бути JSON-обʼєктом' });
  });

  it('answers 413 for bodies over 64 KiB', async () => {
    const error = await expectRejected(route, { ...valid, padding: 'x'.repeat(65 * 1024) }, 413);
    expect(error.error).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'Запит завеликий (максимум 64 КіБ)' });
  });

  it('drops unknown fields instead of storing them', async () => {
    const response = await postAsPerson(url, { ...anotherPerson(valid), id: 999999, created_at: '1999-01-01T00:00:00Z', user_agent: 'підроблений', is_admin: true }, {
      'content-type': 'application/json',
      'user-agent': 'RealBrowser/2.0',
    });
    expect(response.statusCode).toBe(201);
    const { id } = response.json<{ id: number }>();
    expect(id).not.toBe(999999);
    const rows = route === 'contact' ? await listContactMessages(ctx.db) : await listJobApplications(ctx.db);
    const row = rows.find((candidate) => candidate.id === id);
    expect(row?.user_agent).toBe('RealBrowser/2.0');
    expect(row?.created_at.startsWith('1999')).toBe(false);
    expect(Object.keys(row ?? {})).not.toContain('is_admin');
  });

  it('answers a filled honeypot like a success but stores nothing', async () => {
    const before = await counts();
    const response = await ctx.request('POST', url, { json: { ...valid, [HONEYPOT_FIELD]: 'https://spam.example' } });
    expect(response.statusCode).toBe(201);
    expect(Number.isInteger(response.json<{ id: number }>().id)).toBe(true);
    expect(await counts()).toEqual(before);
  });

  it('refuses NUL characters with a field error', async () => {
    const error = await expectRejected(route, { ...valid, name: 'Оле\u0000на' }, 400);
    expect(error.error.fields).toEqual({ name: 'Текст містить недопустимі символи' });
  });

  it.each([
    ['zero-width spaces', '\u200B\u200B'],
    ['a byte order mark and joiners', '\uFEFF\u200D\u200C'],
    ['Hangul fillers', '\u3164\u3164'],
  ])('refuses a name of only %s as not filled, storing nothing', async (_case, name) => {
    await expectFieldError(route, { ...valid, name }, 'name', 'Вкажіть імʼя');
  });

  it('refuses lone surrogates (invalid Unicode) with a field error, storing nothing', async () => {
    const raw = JSON.stringify({ ...valid, name: 'Олена' }).replace('Олена', 'Олена\\ud83d');
    const error = await expectRejected(route, undefined, 400, { raw });
    expect(error.error.fields).toEqual({ name: 'Текст містить недопустимі символи' });
  });

  it('stores one Unicode form (NFC) of the same letters', async () => {
    const response = await postAsPerson(url, { ...anotherPerson(valid), name: 'Андрі\u0438\u0306' });
    expect(response.statusCode).toBe(201);
    const { id } = response.json<{ id: number }>();
    const rows = route === 'contact' ? await listContactMessages(ctx.db) : await listJobApplications(ctx.db);
    expect(rows.find((candidate) => candidate.id === id)?.name).toBe('Андрій');
  });

  it('stores Ukrainian, emoji and SQL-looking text verbatim', async () => {
    const tricky = {
      name: "Ґанна О'Нілл-Їжакевич 👩‍💻🇺🇦",
      message: "Robert'); DROP TABLE contact_messages; -- \n<script>alert('ʼ')</script> \\ % _ \t ні",
    };
    // One person sends it through both forms: from two e-mails, the same text would be a campaign's.
    const sender = { email: 'bobby.tables@example.com', phone: '+380 93 555 00 11' };
    const body = route === 'contact' ? { ...valid, ...sender, ...tricky } : { ...valid, ...sender, name: tricky.name, resume_text: tricky.message };
    const response = await postAsPerson(url, body);
    expect(response.statusCode).toBe(201);
    const { id } = response.json<{ id: number }>();
    if (route === 'contact') {
      const row = (await listContactMessages(ctx.db)).find((candidate) => candidate.id === id);
      expect(row?.name).toBe(tricky.name);
      expect(row?.message).toBe(tricky.message);
    } else {
      const row = (await listJobApplications(ctx.db)).find((candidate) => candidate.id === id);
      expect(row?.name).toBe(tricky.name);
      expect(row?.resume_text).toBe(tricky.message);
    }
    // The tables are still there.
    expect(await counts()).toBeDefined();
  });
});

describe.each(Object.keys(ROUTES) as RouteName[])('attribution on %s', (route) => {
  const { url, valid } = ROUTES[route];
  const ATTRIBUTION = {
    utm_source: 'facebook',
    utm_medium: 'cpc',
    utm_campaign: 'black-friday',
    utm_term: 'смм агенція',
    utm_content: 'carousel-2',
    gclid: 'Cj0KCQiA',
    fbclid: 'IwAR2xyz',
    referrer_host: 'l.facebook.com',
    landing_path: '/blog/6',
    landed_at: '2026-11-24T08:30:00.000Z',
  };

  async function storedRow(id: number) {
    const rows = route === 'contact' ? await listContactMessages(ctx.db) : await listJobApplications(ctx.db);
    const row = rows.find((candidate) => candidate.id === id) as Record<string, unknown> | undefined;
    return row && Object.fromEntries(ATTRIBUTION_KEYS.map((key) => [key, row[key]]));
  }

  async function post(attribution: unknown): Promise<number> {
    const response = await postAsPerson(url, { ...anotherPerson(valid), attribution });
    expect(response.statusCode).toBe(201);
    return response.json<{ id: number }>().id;
  }

  const NONE = Object.fromEntries(ATTRIBUTION_KEYS.map((key) => [key, null]));

  it('stores every key of a valid attribution beside the lead, in one Unicode form and trimmed', async () => {
    // й typed as и and a combining breve; an empty value is left out.
    const id = await post({ ...ATTRIBUTION, utm_term: '  купити ча\u0438\u0306 ', utm_content: '' });
    expect(await storedRow(id)).toEqual({ ...ATTRIBUTION, utm_term: 'купити чай', utm_content: null });
  });

  it('stores a lead sent without attribution with none', async () => {
    const response = await postAsPerson(url, anotherPerson(valid));
    expect(response.statusCode).toBe(201);
    expect(await storedRow(response.json<{ id: number }>().id)).toEqual(NONE);
  });

  it.each([
    ['an unknown key', { ...ATTRIBUTION, utm_id: '42' }],
    ['a value over the limit', { ...ATTRIBUTION, utm_campaign: 'x'.repeat(ATTRIBUTION_VALUE_MAX + 1) }],
    ['a control character', { ...ATTRIBUTION, utm_source: 'face\u001bbook' }],
    ['a line break', { ...ATTRIBUTION, utm_campaign: 'a\nb' }],
    ['a NUL', { ...ATTRIBUTION, utm_campaign: 'a\u0000b' }],
    ['a number', { ...ATTRIBUTION, utm_source: 42 }],
    ['a landing time that is not one', { ...ATTRIBUTION, landed_at: 'yesterday' }],
    ['a landing page that is an address', { ...ATTRIBUTION, landing_path: 'https://evil.example/' }],
    ['a list', [ATTRIBUTION]],
    ['a string', 'facebook'],
  ])('drops an attribution with %s and still stores the lead', async (_what, attribution) => {
    const before = await counts();
    const id = await post(attribution);
    expect(await storedRow(id)).toEqual(NONE);
    expect((await counts())[route]).toBe(before[route] + 1);
  });
});

describe('routing', () => {
  it('answers 404 JSON for unknown API paths and methods', async () => {
    for (const [method, url] of [
      ['GET', '/api/nothing'],
      ['GET', '/api'],
      ['GET', '/api/contact'],
      ['DELETE', '/api/blog/1'],
      ['POST', '/api/services'],
    ] as const) {
      const response = await ctx.request(method, url);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Ресурс не знайдено' } });
    }
  });
});

interface RawResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends one JSON POST of each of `bodies` (copies of one, or several) over connections opened
 * beforehand, written in the same tick, so that they reach the server together: each try looks
 * its key up before any has stored it, and on PostgreSQL all but one then meet the unique index.
 * (An HTTP client's own connection setup would spread them out. On SQLite the API runs each store
 * to its end before it reads the next request, so there the later tries find the first one stored.)
 */
async function postAtOnce(baseUrl: string, path: string, bodies: string[], headers: Record<string, string>): Promise<RawResponse[]> {
  const clients = await Promise.all(bodies.map(() => openRawClient(baseUrl)));
  const requests = bodies.map((body) => {
    const head = [
      `POST ${path} HTTP/1.1`,
      'Host: 127.0.0.1',
      'Connection: close',
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ].join('\r\n');
    return Buffer.from(`${head}\r\n\r\n${body}`, 'utf8');
  });
  clients.forEach((client, index) => client.socket.write(requests[index]!));
  return Promise.all(
    clients.map(async (client) => {
      await client.closed;
      const text = client.received();
      const split = text.indexOf('\r\n\r\n');
      const [status, ...lines] = text.slice(0, split).split('\r\n');
      return {
        statusCode: Number(/^HTTP\/1\.1 (\d{3})/.exec(status ?? '')?.[1]),
        headers: Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()])),
        body: text.slice(split + 4),
      };
    }),
  );
}

describe.each(Object.keys(ROUTES) as RouteName[])('Idempotency-Key on %s', (route) => {
  const { url, valid, kind, form } = ROUTES[route];
  // An app of its own that queues every lead for a webhook, so a repeat could show as a second delivery.
  let keyed: TestContext;
  let webhook: HttpReceiver;

  beforeAll(async () => {
    webhook = await startHttpReceiver();
    keyed = await startTestApp({ leads: { webhook: { url: `${webhook.url}/leads`, secret: 'webhook-secret' } } });
  });

  afterAll(async () => {
    await keyed.close();
    await webhook.close();
  });

  /**
   * A person's submission as the form's script makes it once: `fields` (another person's unless
   * given) with the token and proof of this one fill. Its tries all send this very body.
   */
  async function submission(fields: object = anotherPerson(valid)): Promise<Record<string, unknown>> {
    return { ...fields, ...(await spamFields(keyed.db, form)) };
  }

  /** Posts `body` as the form's script does, from a browser. */
  function post(body: unknown, key?: string): Promise<HttpResponse> {
    return keyed.request('POST', url, { json: body, headers: { ...BROWSER_FETCH_HEADERS, ...(key === undefined ? {} : { 'idempotency-key': key }) } });
  }

  async function stored() {
    return {
      submissions: await countRows(keyed.db, ROUTES[route].table),
      outbox: await countRows(keyed.db, 'lead_outbox'),
    };
  }

  async function outboxOf(id: number) {
    return keyed.db.kysely.selectFrom('lead_outbox').select('channel').where('submission_kind', '=', kind).where('submission_id', '=', id).execute();
  }

  async function rowOf(id: number) {
    const rows = route === 'contact' ? await listContactMessages(keyed.db) : await listJobApplications(keyed.db);
    return rows.find((row) => row.id === id);
  }

  function idOf(response: HttpResponse): number {
    return response.json<{ id: number }>().id;
  }

  it('stores a submission once: a repeat with the same key gets the first id, marked as replayed, and no second lead', async () => {
    const key = randomUUID();
    const before = await stored();
    const body = await submission();
    const first = await post(body, key);
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const id = idOf(first);

    const repeat = await post(body, key);
    expect(repeat.statusCode).toBe(201);
    expect(repeat.headers['cache-control']).toBe('no-store');
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(idOf(repeat)).toBe(id);

    expect(await stored()).toEqual({ submissions: before.submissions + 1, outbox: before.outbox + 1 });
    expect(await outboxOf(id)).toEqual([{ channel: 'webhook' }]);
  });

  it('answers 422 to the same key with another body, storing nothing and leaving the first submission as it was', async () => {
    const key = randomUUID();
    const body = await submission();
    const first = await post(body, key);
    expect(first.statusCode).toBe(201);
    const id = idOf(first);
    const row = await rowOf(id);
    const before = await stored();

    const other = await post({ ...body, name: 'Інше Імʼя' }, key);
    expect(other.statusCode).toBe(422);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.json()).toEqual({
      error: { code: 'IDEMPOTENCY_KEY_REUSED', message: 'Цей ключ ідемпотентності вже використано для іншого запиту' },
    });
    expect(await stored()).toEqual(before);
    expect(await rowOf(id)).toEqual(row);

    // The refused body did not take the key over: the first submission still replays.
    const repeat = await post(body, key);
    expect(repeat.statusCode).toBe(201);
    expect(idOf(repeat)).toBe(id);
    expect(await stored()).toEqual(before);
  });

  it('takes the same fields in another order for the same submission', async () => {
    const key = randomUUID();
    const body = await submission();
    const first = await post(body, key);
    expect(first.statusCode).toBe(201);
    const before = await stored();

    const reordered = Object.fromEntries(Object.entries(body).reverse());
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(body));
    const repeat = await post(reordered, key);
    expect(repeat.statusCode).toBe(201);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(idOf(repeat)).toBe(idOf(first));
    expect(await stored()).toEqual(before);
  });

  it('answers tries sent at once under one key with one id, storing one submission and one lead', async () => {
    const key = randomUUID();
    // Ten keyless ones first (ten people's), so that the API has a database connection open for
    // each try (opening them would spread the tries out again).
    const warmUps = await Promise.all(Array.from({ length: 10 }, async () => JSON.stringify(await submission())));
    await postAtOnce(keyed.baseUrl, url, warmUps, BROWSER_FETCH_HEADERS);
    const before = await stored();
    const body = JSON.stringify(await submission());
    const responses = await postAtOnce(keyed.baseUrl, url, Array.from({ length: 10 }, () => body), { ...BROWSER_FETCH_HEADERS, 'idempotency-key': key });

    expect(responses.map((response) => response.statusCode)).toEqual(Array.from({ length: 10 }, () => 201));
    const ids = new Set(responses.map((response) => (JSON.parse(response.body) as { id: number }).id));
    expect(ids.size).toBe(1);
    // Exactly one of them stored it; every other one is a replay of it.
    expect(responses.filter((response) => response.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(await stored()).toEqual({ submissions: before.submissions + 1, outbox: before.outbox + 1 });
    expect(await outboxOf([...ids][0]!)).toHaveLength(1);
  });

  it.each([
    ['too short (15 characters)', 'a'.repeat(15)],
    ['too long (101 characters)', 'a'.repeat(101)],
    ['with a space', 'contact form 2025-01-01'],
    ['with characters outside the pattern', 'dGhpcyBpcyBhIGtleQ+/=='],
  ])('refuses a key %s with 400, storing nothing', async (_case, key) => {
    const before = await stored();
    const response = await post(valid, key);
    expect(response.statusCode).toBe(400);
    const error = response.json<ApiErrorBody>();
    expect(error.error.code).toBe('VALIDATION_ERROR');
    expect(error.error.message).toMatch(/[а-яіїєґ]/i);
    expect(error.error.fields).toEqual({ 'idempotency-key': 'Некоректне значення' });
    expect(await stored()).toEqual(before);
  });

  it('accepts a key of 16 and of 100 characters', async () => {
    for (const key of [`${randomUUID().slice(0, 8)}.:_-abcd`, `${randomUUID()}${'x'.repeat(64)}`]) {
      const response = await post(await submission(), key);
      expect(response.statusCode).toBe(201);
      expect(response.headers['idempotent-replayed']).toBeUndefined();
    }
  });

  it('stores every submission sent without a key, the same body included', async () => {
    const before = await stored();
    // The same fields sent twice, each time with the token and proof of its own fill (a token is taken once).
    const fields = anotherPerson(valid);
    const responses = [await post(await submission(fields)), await post(await submission(fields))];
    for (const response of responses) {
      expect(response.statusCode).toBe(201);
      expect(response.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(idOf(responses[0]!)).not.toBe(idOf(responses[1]!));
    expect(await stored()).toEqual({ submissions: before.submissions + 2, outbox: before.outbox + 2 });
  });
});

describe.each(Object.keys(ROUTES) as RouteName[])('the spam defence on %s', (route) => {
  const { url, valid, table, kind, form } = ROUTES[route];
  const METRICS_TOKEN = 'spam-metrics-token';
  // An app of its own that queues every lead for a webhook (a held one must not be) and has /metrics.
  let guarded: TestContext;
  let webhook: HttpReceiver;

  beforeAll(async () => {
    webhook = await startHttpReceiver();
    guarded = await startTestApp({ leads: { webhook: { url: `${webhook.url}/leads`, secret: 'webhook-secret' } }, metricsToken: METRICS_TOKEN });
  });

  afterAll(async () => {
    await guarded.close();
    await webhook.close();
  });

  async function stored() {
    return { submissions: await countRows(guarded.db, table), leads: await countRows(guarded.db, 'leads'), outbox: await countRows(guarded.db, 'lead_outbox') };
  }

  /** The inbox row of the submission `id` answered: its status and why it was held. */
  async function leadOf(id: number): Promise<{ status: string; reasons: string[] | null }> {
    const lead = await guarded.db.kysely.selectFrom('leads').select(['status', 'spam_reasons']).where('kind', '=', kind).where('submission_id', '=', id).executeTakeFirstOrThrow();
    return { status: lead.status, reasons: lead.spam_reasons === null ? null : (JSON.parse(lead.spam_reasons) as string[]) };
  }

  async function outboxOf(id: number) {
    return guarded.db.kysely.selectFrom('lead_outbox').select('channel').where('submission_kind', '=', kind).where('submission_id', '=', id).execute();
  }

  /** The count of submissions dropped unstored for `reason`, as /metrics shows it (0 before the first). */
  async function dropped(reason: string): Promise<number> {
    const response = await guarded.request('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(response.statusCode).toBe(200);
    const series = `agency_submissions_dropped_total{form="${form}",reason="${reason}"} `;
    const line = response.body.split('\n').find((candidate) => candidate.startsWith(series));
    return line === undefined ? 0 : Number(line.slice(series.length));
  }

  it('answers JSON without a form token from a program (no Sec-Fetch-Site) 201 with an id, stores nothing, and counts it in /metrics', async () => {
    const before = await stored();
    const droppedBefore = await dropped('direct-without-token');
    const response = await guarded.request('POST', url, { json: anotherPerson(valid) });
    expect(response.statusCode).toBe(201);
    expect(Number.isInteger(response.json<{ id: number }>().id)).toBe(true);
    expect(await stored()).toEqual(before);
    expect(await dropped('direct-without-token')).toBe(droppedBefore + 1);
  });

  it('stores JSON without a form token from a browser, held as spam (no-token), and queues no notification', async () => {
    const before = await stored();
    const response = await guarded.request('POST', url, { json: anotherPerson(valid), headers: { ...BROWSER_FETCH_HEADERS } });
    expect(response.statusCode).toBe(201);
    const { id } = response.json<{ id: number }>();
    const lead = await leadOf(id);
    expect(lead.status).toBe('spam');
    expect(lead.reasons).toContain('no-token');
    expect(await outboxOf(id)).toEqual([]);
    expect(await stored()).toEqual({ submissions: before.submissions + 1, leads: before.leads + 1, outbox: before.outbox });
  });

  it('stores a person’s submission (a fresh token, a solved proof, from a browser) as new, and queues it', async () => {
    const response = await guarded.request('POST', url, await asPerson(guarded, form, anotherPerson(valid)));
    expect(response.statusCode).toBe(201);
    const { id } = response.json<{ id: number }>();
    expect(await leadOf(id)).toEqual({ status: 'new', reasons: null });
    expect(await outboxOf(id)).toEqual([{ channel: 'webhook' }]);
  });

  it('holds a second submission with a token already used (reused-token), without a key to make it a replay', async () => {
    const person = await asPerson(guarded, form, anotherPerson(valid));
    const first = await guarded.request('POST', url, person);
    const second = await guarded.request('POST', url, person);
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    const [firstId, secondId] = [first, second].map((response) => response.json<{ id: number }>().id) as [number, number];
    expect(secondId).not.toBe(firstId);
    expect(await leadOf(firstId)).toEqual({ status: 'new', reasons: null });
    const held = await leadOf(secondId);
    expect(held.status).toBe('spam');
    expect(held.reasons).toContain('reused-token');
    expect(await outboxOf(secondId)).toEqual([]);
  });
});
