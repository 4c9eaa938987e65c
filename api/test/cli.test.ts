import { createDatabase, type Database } from '../src/db/connection';
import { migrateToLatest } from '../src/db/migrate';
import { insertContactMessage, insertJobApplication } from '../src/db/repository';
import { createTestDatabase, type TestDatabase } from './helpers/database';
import { parseCsv } from './helpers/csv';
import { runTs } from './helpers/server-process';

// Runs the real command (src/cli/submissions.ts through tsx, the code `npm run submissions`
// runs compiled) against a database filled here.
jest.setTimeout(60_000);

let testDb: TestDatabase;
let db: Database;

const TRICKY_MESSAGE = 'Рядок 1, з комою; і крапкою з комою\nРядок 2 — "лапки" та емодзі 🎉';

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase(testDb.url);
  await migrateToLatest(db);
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
    { user_agent: 'Mozilla/5.0', referrer: 'http://localhost/' },
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
    { user_agent: null, referrer: null },
  );
});

afterAll(async () => {
  await db.destroy();
  await testDb.drop();
});

function runCli(args: string[], databaseUrl = testDb.url): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  const child = runTs('src/cli/submissions.ts', args, { DATABASE_URL: databaseUrl });
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
    'id', 'created_at', 'name', 'email', 'phone', 'company', 'service_type', 'message', 'user_agent', 'referrer',
  ]);
  expect(rows[1]).toMatchObject({
    name: 'Олена Петренко',
    company: 'ТОВ «Хмарка»',
    service_type: 'analytics',
    message: TRICKY_MESSAGE,
    user_agent: 'Mozilla/5.0',
    referrer: 'http://localhost/',
  });
  expect(rows[0]).toMatchObject({ name: 'Старий запис', created_at: '2025-03-01T10:00:00.000Z', user_agent: null });
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
  expect(rows[0]).toEqual(['id', 'created_at', 'name', 'email', 'phone', 'company', 'service_type', 'message', 'user_agent', 'referrer']);
  expect(rows).toHaveLength(3);
  const olena = rows[2] ?? [];
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
  expect(table[0]).toEqual(['id', 'created_at', 'name', 'email', 'phone', 'city', 'position', 'resume_text', 'user_agent', 'referrer']);
  expect(table[1]?.[7]).toBe("'=SUM(A1:A2) — не формула");
});

it.each([
  [[], /contact або applications/],
  [['orders'], /Невідомий тип/],
  [['contact', '--format', 'xml'], /Невідомий формат/],
  [['contact', '--since', '2026-13-01'], /Некоректна дата/],
  [['contact', '--verbose'], /Невідомий параметр/],
])('refuses bad arguments %p with exit code 2 and a Ukrainian message', async (args, message) => {
  const { code, stdout, stderr } = await runCli(args);
  expect(code).toBe(2);
  expect(stdout.length).toBe(0);
  expect(stderr).toMatch(message);
  expect(stderr).toMatch(/Використання/);
});
