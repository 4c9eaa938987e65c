import { ATTRIBUTION_KEYS } from '@agency/shared';
import type { Database } from '../../../src/platform/db/connection';
import { insertContactMessage, insertJobApplication } from '../../../src/site/leads/submissions/submissions-repository';
import type { LeadPayload } from '../../../src/site/leads/lead/lead-payload';
import { enqueueLead, getOutboxEntry, markAttemptFailed, markDelivered } from '../../../src/site/leads/outbox/outbox-repository';
import { openMigratedTestDatabase, type MigratedTestDatabase } from '../../helpers/database';
import { parseCsv } from '../../helpers/csv';
import { runApiProcess } from '../../helpers/server-process';

// Runs the real command (src/site/cli/submissions.ts, compiled, as `npm run submissions` runs it)
// against a database filled here.
jest.setTimeout(60_000);

let testDb: MigratedTestDatabase;
let db: Database;

const TRICKY_MESSAGE = 'Рядок 1, з комою; і крапкою з комою\nРядок 2 — "лапки" та емодзі 🎉';

const FACEBOOK_ATTRIBUTION = {
  utm_source: 'facebook',
  utm_medium: 'cpc',
  utm_campaign: 'black-friday',
  landing_path: '/blog/6',
  landed_at: '2026-11-24T08:30:00.000Z',
};

beforeAll(async () => {
  testDb = await openMigratedTestDatabase();
  db = testDb.db;
  // An old message, written with an explicit timestamp, for --since.
  await db.kysely
    .insertInto('contact_messages')
    .values({
      name: 'Старий запис',
      email: 'old@example.com',
      phone: '0671112233',
      company: '',
      service_type: '',
      message: 'Давнє повідомлення',
      user_agent: null,
      referrer: null,
      created_at: db.dialect.timestamp(new Date('2025-03-01T10:00:00Z')),
    })
    .execute();
  await insertContactMessage(
    db,
    {
      name: 'Олена Петренко',
      email: 'olena@example.com',
      phone: '+380 (67) 123-45-67',
      company: 'ТОВ «Хмарка»',
      service_type: 'analytics',
      message: TRICKY_MESSAGE,
    },
    { user_agent: 'Mozilla/5.0', referrer: 'http://localhost/', attribution: FACEBOOK_ATTRIBUTION },
  );
  await insertJobApplication(
    db,
    {
      name: 'Іван Ґудзь',
      email: 'ivan@example.com',
      phone: '0501234567',
      city: 'Львів',
      position: 'Адміністратор соціальних мереж',
      resume_text: '=SUM(A1:A2) — не формула',
    },
    { user_agent: null, referrer: null, attribution: null },
  );
});

afterAll(() => testDb.close());

function runCli(args: string[], databaseUrl = testDb.url): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  const child = runApiProcess('src/site/cli/submissions.ts', args, { DATABASE_URL: databaseUrl });
  const stdout: Buffer[] = [];
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(stdout), stderr }));
  });
}

it('prints contact messages as one JSON array with every field and created_at', async () => {
  const { code, stdout, stderr } = await runCli(['contact', '--format', 'json']);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  const rows = JSON.parse(stdout.toString('utf8')) as Record<string, unknown>[];
  expect(rows).toHaveLength(2);
  expect(Object.keys(rows[1] ?? {})).toEqual([
    'id', 'created_at', 'name', 'email', 'phone', 'company', 'service_type', 'message', 'user_agent', 'referrer', ...ATTRIBUTION_KEYS,
  ]);
  expect(rows[1]).toMatchObject({
    name: 'Олена Петренко',
    company: 'ТОВ «Хмарка»',
    service_type: 'analytics',
    message: TRICKY_MESSAGE,
    user_agent: 'Mozilla/5.0',
    referrer: 'http://localhost/',
    ...FACEBOOK_ATTRIBUTION,
    utm_term: null,
    gclid: null,
    referrer_host: null,
  });
  expect(rows[0]).toMatchObject({ name: 'Старий запис', created_at: '2025-03-01T10:00:00.000Z', user_agent: null, utm_source: null });
});

it('defaults to JSON and filters with --since', async () => {
  const { code, stdout } = await runCli(['contact', '--since', '2025-03-02']);
  expect(code).toBe(0);
  const rows = JSON.parse(stdout.toString('utf8')) as { name: string }[];
  expect(rows.map((row) => row.name)).toEqual(['Олена Петренко']);
});

it('prints CSV that a spreadsheet opens: UTF-8 BOM, CRLF, quoted cells, Ukrainian intact', async () => {
  const { code, stdout } = await runCli(['contact', '--format', 'csv']);
  expect(code).toBe(0);
  expect([...stdout.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = stdout.toString('utf8').replace(/^\uFEFF/, '');
  const rows = parseCsv(text);
  expect(rows[0]).toEqual(['id', 'created_at', 'name', 'email', 'phone', 'company', 'service_type', 'message', 'user_agent', 'referrer', ...ATTRIBUTION_KEYS]);
  expect(rows).toHaveLength(3);
  const olena = rows[2] ?? [];
  expect(olena[rows[0]!.indexOf('utm_campaign')]).toBe('black-friday');
  expect(olena[rows[0]!.indexOf('landing_path')]).toBe('/blog/6');
  expect(olena[2]).toBe('Олена Петренко');
  expect(olena[5]).toBe('ТОВ «Хмарка»');
  expect(olena[7]).toBe(TRICKY_MESSAGE);
  // Cells a spreadsheet would run as formulas are defused with a leading apostrophe.
  expect(olena[4]).toBe("'+380 (67) 123-45-67");
});

it('prints job applications in both formats', async () => {
  const json = await runCli(['applications', '--format=json']);
  expect(json.code).toBe(0);
  const rows = JSON.parse(json.stdout.toString('utf8')) as Record<string, unknown>[];
  expect(rows).toEqual([
    expect.objectContaining({ name: 'Іван Ґудзь', city: 'Львів', position: 'Адміністратор соціальних мереж', resume_text: '=SUM(A1:A2) — не формула' }),
  ]);
  const csv = await runCli(['applications', '--format', 'csv']);
  const table = parseCsv(csv.stdout.toString('utf8').replace(/^\uFEFF/, ''));
  expect(table[0]).toEqual(['id', 'created_at', 'name', 'email', 'phone', 'city', 'position', 'resume_text', 'user_agent', 'referrer', ...ATTRIBUTION_KEYS]);
  expect(table[1]?.[7]).toBe("'=SUM(A1:A2) — не формула");
});

it.each([
  [[], /contact, applications, outbox або report/],
  [['contact', '--retry', '3'], /--retry працює лише з outbox/],
  [['outbox', '--retry', 'x'], /Некоректний номер доставки/],
  [['outbox', '--since', '2026-01-01'], /--since працює лише з contact, applications і report/],
  [['report', '--since', '2026-02-30'], /Некоректна дата/],
  [['orders'], /Невідомий тип/],
  [['contact', '--format', 'xml'], /Невідомий формат/],
  [['contact', '--since', '2026-13-01'], /Некоректна дата/],
  [['contact', '--verbose'], /^Невідомий параметр --verbose$/m],
  [['contact', '--format'], /^Для --format потрібне значення$/m],
  [['contact', '--format', 'csv', '--format', 'json'], /^--format вказано двічі$/m],
  [['contact', 'applications'], /^Зайві аргументи: applications$/m],
])('refuses bad arguments %p with exit code 2 and a Ukrainian message', async (args, message) => {
  const { code, stdout, stderr } = await runCli(args);
  expect(code).toBe(2);
  expect(stdout.length).toBe(0);
  expect(stderr).toMatch(message);
  expect(stderr).toMatch(/Використання/);
});

it.each(['--help', '-h', 'contact --help'])('prints the usage to stdout for "%s", exit code 0', async (line) => {
  const { code, stdout, stderr } = await runCli(line.split(' '));
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  expect(stdout.toString('utf8')).toMatch(/^Використання: npm run submissions -- <contact\|applications>/);
  expect(stdout.toString('utf8')).toMatch(/^ +npm run submissions -- --help +ця довідка$/m);
});

describe('report', () => {
  const MINUTE = 60_000;
  const minuteOf = (date: Date) => Math.floor(date.getTime() / MINUTE);
  const session = (id: string, source: string, medium: string, campaign: string, at = new Date()) => ({
    id: id.padStart(32, '0'),
    first_minute: minuteOf(at),
    source,
    medium,
    campaign,
  });

  beforeAll(async () => {
    await db.kysely
      .insertInto('visit_sessions')
      .values([
        session('1', 'facebook', 'cpc', 'black-friday'),
        session('2', 'facebook', 'cpc', 'black-friday'),
        session('3', '(direct)', '(none)', '(not set)'),
        session('4', 'facebook', 'cpc', 'black-friday', new Date('2025-03-01T09:00:00Z')),
      ])
      .execute();
  });

  it('prints sessions, leads of each kind and conversion per source, medium and campaign over the last 30 days', async () => {
    const { code, stdout, stderr } = await runCli(['report']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const since = new Date();
    since.setUTCDate(since.getUTCDate() - 29);
    expect(JSON.parse(stdout.toString('utf8'))).toEqual({
      since: since.toISOString().slice(0, 10),
      rows: [
        { source: 'facebook', medium: 'cpc', campaign: 'black-friday', sessions: 2, contact: 1, applications: 0, conversion_rate: 0.5 },
        { source: '(direct)', medium: '(none)', campaign: '(not set)', sessions: 1, contact: 0, applications: 0, conversion_rate: 0 },
        // The application came without attribution: counted, under no source.
        { source: '(not set)', medium: '(not set)', campaign: '(not set)', sessions: 0, contact: 0, applications: 1, conversion_rate: null },
      ],
    });
  });

  it('counts from --since on, and prints CSV', async () => {
    const { code, stdout } = await runCli(['report', '--since', '2025-01-01', '--format', 'csv', '--delimiter', ';']);
    expect(code).toBe(0);
    const table = parseCsv(stdout.toString('utf8').replace(/^\uFEFF/, ''), ';');
    expect(table).toEqual([
      ['source', 'medium', 'campaign', 'sessions', 'contact', 'applications', 'conversion_rate'],
      ['facebook', 'cpc', 'black-friday', '3', '1', '0', '0.3333'],
      ['(direct)', '(none)', '(not set)', '1', '0', '0', '0'],
      // The 2025 message came without attribution too.
      ['(not set)', '(not set)', '(not set)', '0', '1', '1', ''],
    ]);
  });
});

describe('outbox', () => {
  const lead = (id: number): LeadPayload => ({
    kind: 'contact',
    id,
    idempotency_key: `contact-${id}`,
    created_at: new Date().toISOString(),
    referrer: null,
    attribution: null,
    submission: { name: 'Олена', email: 'olena@example.com', phone: '0671234567', company: '', service_type: '', message: 'Привіт' },
  });
  let ids: Record<'webhook' | 'telegram' | 'email', number>;

  beforeAll(async () => {
    await enqueueLead(db, lead(1), ['webhook', 'telegram', 'email']);
    const rows = await db.kysely.selectFrom('lead_outbox').select(['id', 'channel']).execute();
    ids = Object.fromEntries(rows.map((row) => [row.channel, Number(row.id)])) as typeof ids;
    await markAttemptFailed(db, ids.telegram, 'telegram answered 401: Unauthorized', undefined);
    await markDelivered(db, [ids.email], new Date());
  });

  it('lists the deliveries still waiting and those given up, not the delivered ones', async () => {
    const json = await runCli(['outbox']);
    expect(json.code).toBe(0);
    const rows = JSON.parse(json.stdout.toString('utf8')) as Record<string, unknown>[];
    expect(rows).toEqual([
      expect.objectContaining({ id: ids.webhook, status: 'pending', channel: 'webhook', submission_kind: 'contact', submission_id: 1, last_error: null }),
      expect.objectContaining({ id: ids.telegram, status: 'failed', channel: 'telegram', last_error: 'telegram answered 401: Unauthorized' }),
    ]);
    const csv = await runCli(['outbox', '--format', 'csv']);
    const table = parseCsv(csv.stdout.toString('utf8').replace(/^\uFEFF/, ''));
    expect(table[0]?.slice(0, 3)).toEqual(['id', 'status', 'channel']);
    expect(table.slice(1).map((row) => row[1])).toEqual(['pending', 'failed']);
  });

  it('refuses a misspelt option, exit 2, and re-queues nothing', async () => {
    const run = await runCli(['outbox', '--retyr', String(ids.telegram)]);
    expect(run.code).toBe(2);
    expect(run.stdout.length).toBe(0);
    expect(run.stderr.split('\n')[0]).toBe('Невідомий параметр --retyr');
    expect(run.stderr).toContain('npm run submissions -- --help');
    expect((await getOutboxEntry(db, ids.telegram))?.status).toBe('failed');
  });

  it('re-queues a failed delivery with a fresh day to succeed, and refuses delivered or unknown ones', async () => {
    const retried = await runCli(['outbox', '--retry', String(ids.telegram)]);
    expect(retried.code).toBe(0);
    expect(retried.stdout.toString('utf8')).toContain(`Доставка №${ids.telegram} (telegram, contact-1) знову в черзі`);
    const entry = await getOutboxEntry(db, ids.telegram);
    expect(entry?.status).toBe('pending');
    expect(new Date(entry!.give_up_at).getTime() - Date.now()).toBeGreaterThan(23 * 3_600_000);
    expect(new Date(entry!.next_attempt_at).getTime()).toBeLessThanOrEqual(Date.now());

    const delivered = await runCli(['outbox', '--retry', String(ids.email)]);
    expect(delivered.code).toBe(1);
    expect(delivered.stderr).toContain('уже виконана');
    expect((await getOutboxEntry(db, ids.email))?.status).toBe('delivered');

    const unknown = await runCli(['outbox', '--retry', '999999']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Доставки №999999 немає');
  });
});
