import { IDEMPOTENCY_KEY_HEADER, newIdempotencyKey, SUBMISSION_RETRY_WINDOW_MS } from '@agency/shared';
import { createDatabase } from '../../../../src/platform/db/connection';
import type { LeadPayload } from '../../../../src/site/leads/lead/lead-payload';
import { VALID_CONTACT } from '../../../helpers/app';
import { createTestDatabase, type TestDatabase } from '../../../helpers/database';
import { eventually } from '../../../helpers/eventually';
import { httpRequest } from '../../../helpers/http';
import { startHttpReceiver, type HttpReceiver } from '../../../helpers/lead-receivers';
import { freePort, serverProcesses, type ServerProcess } from '../../../helpers/server-process';

// The lead outbox across real API processes (compiled): a crash between the answer and the delivery,
// and several processes delivering from one database.
jest.setTimeout(120_000);

let testDb: TestDatabase;
let receiver: HttpReceiver | undefined;
const servers = serverProcesses();

beforeEach(async () => {
  testDb = await createTestDatabase();
});

afterEach(async () => {
  await servers.stopAll();
  await receiver?.close();
  receiver = undefined;
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

/**
 * Sends a contact message as the site's form does: under one idempotency key, tried again while
 * the API answers 503. Thirty at once on a busy machine can leave a request without a database
 * connection within the second it waits for one, and the API then answers 503 as designed.
 */
async function submitAsTheSite(baseUrl: string, body: object) {
  const key = newIdempotencyKey();
  const deadline = Date.now() + SUBMISSION_RETRY_WINDOW_MS;
  for (;;) {
    const response = await httpRequest(baseUrl, 'POST', '/api/contact', { json: body, headers: { [IDEMPOTENCY_KEY_HEADER]: key } });
    if (response.statusCode !== 503 || Date.now() > deadline) return response;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

it('delivers a lead acknowledged just before the API was SIGKILLed, once the API is back', async () => {
  // The receiver is not up yet, so the lead cannot be delivered before the kill.
  const port = await freePort();
  const env = { LEADS_WEBHOOK_URL: `http://127.0.0.1:${port}/leads` };
  const first = await start(env);
  const response = await httpRequest(first.baseUrl, 'POST', '/api/contact', { json: VALID_CONTACT });
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
      const response = await submitAsTheSite(server.baseUrl, { ...VALID_CONTACT, name: `Клієнт ${index}` });
      expect(response.statusCode).toBe(201);
      ids.push(response.json<{ id: number }>().id);
    }),
  );
  await eventually('every lead delivered', readOutbox, (rows) => rows.length === 30 && rows.every((row) => row.status === 'delivered'), 60_000);
  const keys = receiver.received.map((request) => String(request.headers['idempotency-key']));
  expect([...keys].sort()).toEqual(ids.map((id) => `contact-${id}`).sort());
});
