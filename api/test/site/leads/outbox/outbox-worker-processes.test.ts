import { IDEMPOTENCY_KEY_HEADER, newIdempotencyKey, SUBMISSION_RETRY_WINDOW_MS } from '@agency/shared';
import { createDatabase, type Database } from '../../../../src/platform/db/connection';
import type { LeadPayload } from '../../../../src/site/leads/lead/lead-payload';
import { VALID_CONTACT } from '../../../helpers/app';
import { createTestDatabase, type TestDatabase } from '../../../helpers/database';
import { eventually } from '../../../helpers/eventually';
import { httpRequest } from '../../../helpers/http';
import { startHttpReceiver, type HttpReceiver } from '../../../helpers/lead-receivers';
import { BROWSER_FETCH_HEADERS, spamFields } from '../../../helpers/person-submission';
import { freePort, serverProcesses, type ServerProcess } from '../../../helpers/server-process';

// The lead outbox across real API processes (compiled): a crash between the answer and the delivery,
// and several processes delivering from one database.
jest.setTimeout(120_000);

let testDb: TestDatabase;
let receiver: HttpReceiver | undefined;
/** The servers' database, for the site's secrets a person's form token and proof are made with. */
let site: Database | undefined;
const servers = serverProcesses();

beforeEach(async () => {
  testDb = await createTestDatabase();
});

afterEach(async () => {
  await servers.stopAll();
  await receiver?.close();
  receiver = undefined;
  await site?.destroy();
  site = undefined;
  await testDb.drop();
});

async function start(env: Record<string, string>): Promise<ServerProcess> {
  return servers.start({ DATABASE_URL: testDb.url, ...env });
}

async function readOutbox() {
  const db = createDatabase(testDb.url, { poolSize: 1 });
  try {
    return await db.kysely.selectFrom('lead_outbox').select(['id', 'status', 'attempts', 'last_error']).orderBy('id').execute();
  } finally {
    await db.destroy();
  }
}

/** `fields` as a person's form sends them: with a fresh form token and a solved proof of work. */
async function asPersonsForm(fields: object): Promise<object> {
  site ??= createDatabase(testDb.url, { poolSize: 1 });
  return { ...fields, ...(await spamFields(site, 'contact')) };
}

/**
 * Sends a person's contact message as the site's form does: from a browser, under one idempotency
 * key, the same body (its one token) tried again while the API answers 503. Thirty at once on a
 * busy machine can leave a request without a database connection within the second it waits for
 * one, and the API then answers 503 as designed.
 */
async function submitAsTheSite(baseUrl: string, fields: object) {
  const body = await asPersonsForm(fields);
  const key = newIdempotencyKey();
  const deadline = Date.now() + SUBMISSION_RETRY_WINDOW_MS;
  for (;;) {
    const response = await httpRequest(baseUrl, 'POST', '/api/contact', { json: body, headers: { ...BROWSER_FETCH_HEADERS, [IDEMPOTENCY_KEY_HEADER]: key } });
    if (response.statusCode !== 503 || Date.now() > deadline) return response;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

it('delivers a lead acknowledged just before the API was SIGKILLed, once the API is back', async () => {
  // The receiver is not up yet, so the lead cannot be delivered before the kill.
  const port = await freePort();
  const env = { LEADS_WEBHOOK_URL: `http://127.0.0.1:${port}/leads` };
  const first = await start(env);
  const response = await httpRequest(first.baseUrl, 'POST', '/api/contact', { json: await asPersonsForm(VALID_CONTACT), headers: { ...BROWSER_FETCH_HEADERS } });
  expect(response.statusCode).toBe(201);
  const { id } = response.json<{ id: number }>();
  await eventually('a failed first attempt', readOutbox, (rows) => rows[0]?.last_error != null, 10_000);
  first.child.kill('SIGKILL');
  expect(await first.exited).toBe('SIGKILL');

  receiver = await startHttpReceiver(port);
  await start(env);
  await eventually('the delivery after the restart', () => receiver!.accepted().length, (n) => n === 1, 60_000);
  const lead = JSON.parse(receiver.accepted()[0]!.body) as LeadPayload;
  expect(lead).toMatchObject({ kind: 'contact', id, idempotency_key: `contact-${id}`, submission: { message: VALID_CONTACT.message } });
  await eventually('the row marked delivered', readOutbox, (rows) => rows[0]?.status === 'delivered');
});

it('two API processes on one database deliver every lead exactly once', async () => {
  receiver = await startHttpReceiver();
  // A slow receiver, so that leads pile up and both workers compete for the same rows.
  receiver.answer = () => ({ status: 204, delayMs: 150 });
  const env = { LEADS_WEBHOOK_URL: `${receiver.url}/leads` };
  const [a, b] = await Promise.all([start(env), start(env)]);
  const ids: number[] = [];
  await Promise.all(
    Array.from({ length: 30 }, async (_, index) => {
      const server = index % 2 === 0 ? a! : b!;
      // Thirty people, each with a message of their own: the spam defence holds a fourth lead of a
      // day from one e-mail or phone, and the same long message from another e-mail.
      const person = {
        ...VALID_CONTACT,
        name: `Клієнт ${index}`,
        email: `client.${index}@example.com`,
        phone: `+380 93 ${String(index).padStart(7, '0')}`,
        message: `${VALID_CONTACT.message} Заявка ${index}.`,
      };
      const response = await submitAsTheSite(server.baseUrl, person);
      expect(response.statusCode).toBe(201);
      ids.push(response.json<{ id: number }>().id);
    }),
  );
  await eventually('every lead delivered', readOutbox, (rows) => rows.length === 30 && rows.every((row) => row.status === 'delivered'), 60_000);
  const keys = receiver.received.map((request) => String(request.headers['idempotency-key']));
  expect([...keys].sort()).toEqual(ids.map((id) => `contact-${id}`).sort());
});
