import { randomUUID } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import { createDatabase, type Database } from '../../../src/platform/db/connection';
import { startTestApp, VALID_APPLICATION, VALID_CONTACT } from '../../helpers/app';
import { countRows, createTestDatabase, testDialect, type TestDatabase } from '../../helpers/database';
import { eventually } from '../../helpers/eventually';
import { answered, httpRequest, type HttpResponse } from '../../helpers/http';
import { asPerson, BROWSER_FETCH_HEADERS, spamFields } from '../../helpers/person-submission';
import { startServerProcess, type ServerProcess } from '../../helpers/server-process';
import { startDatabaseProxy, type TcpProxy } from '../../helpers/tcp-proxy';

// The API through a real database outage: what clients get while the database is gone, what the
// staff read in the logs, and that it carries on once the database is back, without a restart.
jest.setTimeout(90_000);

const UNAVAILABLE = { code: 'DATABASE_UNAVAILABLE', message: 'Сервіс тимчасово недоступний' };

function expectRetryLater(response: HttpResponse) {
  expect(response.statusCode).toBe(503);
  expect(response.headers['retry-after']).toBe('2');
  expect(response.headers['cache-control']).toBe('no-store');
}

(testDialect() === 'postgres' ? describe : describe.skip)('PostgreSQL gone and back (a TCP proxy between the API and the server)', () => {
  let testDb: TestDatabase;
  let proxy: TcpProxy;
  let server: ServerProcess;
  /** Straight to the database, past the proxy: what is stored. */
  let direct: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    let url: string;
    ({ proxy, url } = await startDatabaseProxy(testDb.url));
    server = await startServerProcess({ DATABASE_URL: url, LOG_LEVEL: 'info' });
    direct = createDatabase(testDb.url, { poolSize: 1 });
  });

  afterAll(async () => {
    server.child.kill('SIGKILL');
    await server.exited;
    await proxy.close();
    await direct.destroy();
    await testDb.drop();
  });

  /** The server's JSON log entries so far. */
  function logged(message: string): Array<{ level: number; msg: string }> {
    return server
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((entry) => entry.msg.startsWith(message));
  }

  const get = (path: string) => answered(httpRequest(server.baseUrl, 'GET', path));
  /** Posts a person's submission as the form's script does: from a browser, under `key`. */
  const post = (path: string, body: object, key: string) =>
    answered(httpRequest(server.baseUrl, 'POST', path, { json: body, headers: { ...BROWSER_FETCH_HEADERS, 'idempotency-key': key } }));

  it('answers 503 (retry) to submissions and health, keeps serving cached content, logs the outage once, and recovers without a restart', async () => {
    // Cached while the database answers.
    const services = await get('/api/services');
    const blog = await get('/api/blog');
    expect([services.statusCode, blog.statusCode]).toEqual([200, 200]);
    expect(JSON.parse(blog.body)).not.toEqual([]);

    // Each submission is filled in once (its token and proof made while the database answers) and
    // every try of it sends that very body, as the form's script does.
    const contactBody = { ...VALID_CONTACT, ...(await spamFields(direct, 'contact')) };
    const applicationBody = { ...VALID_APPLICATION, ...(await spamFields(direct, 'job-application')) };

    // Gone: the open connections end, new ones hang.
    proxy.cut();
    const contactKey = randomUUID();
    const applicationKey = randomUUID();

    const contact = await post('/api/contact', contactBody, contactKey);
    expectRetryLater(contact);
    expect(contact.json()).toEqual({ error: UNAVAILABLE });
    const application = await post('/api/jobs/apply', applicationBody, applicationKey);
    expectRetryLater(application);
    expect(application.json()).toEqual({ error: UNAVAILABLE });

    const health = await get('/api/health');
    expectRetryLater(health);
    expect(health.json()).toEqual({ status: 'unavailable', error: UNAVAILABLE });

    for (const [path, before] of [
      ['/api/services', services],
      ['/api/blog', blog],
    ] as const) {
      // Twice: past the revalidation interval too, when the revision cannot be read.
      for (let round = 0; round < 2; round += 1) {
        const cached = await get(path);
        expect(cached.statusCode).toBe(200);
        expect(cached.body).toBe(before.body);
        await new Promise((resolve) => setTimeout(resolve, 1100));
      }
    }
    expect((await post('/api/contact', contactBody, contactKey)).statusCode).toBe(503);

    expect(await countRows(direct, 'contact_messages')).toBe(0);
    expect(await countRows(direct, 'job_applications')).toBe(0);
    const lost = await eventually('the outage logged', () => logged('database unreachable'), (entries) => entries.length > 0);
    expect(lost).toEqual([expect.objectContaining({ level: 50 })]);
    expect(logged('request failed')).toEqual([]);
    expect(logged('database reachable again')).toEqual([]);

    // Back: the same process takes the same submissions.
    proxy.restore();
    const stored = await post('/api/contact', contactBody, contactKey);
    expect(stored.statusCode).toBe(201);
    // The tries during the outage stored nothing, so this one is not a replay of them.
    expect(stored.headers['idempotent-replayed']).toBeUndefined();
    expect((await post('/api/jobs/apply', applicationBody, applicationKey)).statusCode).toBe(201);
    const healthy = await get('/api/health');
    expect(healthy.statusCode).toBe(200);
    expect(healthy.json()).toMatchObject({ status: 'ok' });

    expect(await countRows(direct, 'contact_messages')).toBe(1);
    expect(await countRows(direct, 'job_applications')).toBe(1);
    const back = await eventually('the recovery logged', () => logged('database reachable again'), (entries) => entries.length > 0);
    expect(back).toEqual([expect.objectContaining({ level: 30, downForMs: expect.any(Number) })]);
    expect(logged('database unreachable')).toHaveLength(1);
  });
});

(testDialect() === 'sqlite' ? describe : describe.skip)('SQLite locked by another writer', () => {
  it('answers a submission 503 (retry) once the busy timeout has passed, storing nothing, and 201 once the lock is released', async () => {
    const ctx = await startTestApp();
    // A person's submission, filled in before the lock (its token is made with the site's secrets):
    // its retry sends the very same body.
    const person = await asPerson(ctx, 'contact', VALID_CONTACT);
    // Another process's connection (a CLI, a backup) holding the write lock.
    const other = new BetterSqlite3(ctx.testDb.url.slice('sqlite:'.length));
    try {
      other.exec('begin immediate');
      const key = randomUUID();
      const send = () => answered(ctx.request('POST', '/api/contact', { json: person.json, headers: { ...person.headers, 'idempotency-key': key } }));

      const locked = await send();
      expectRetryLater(locked);
      expect(locked.json()).toEqual({ error: UNAVAILABLE });
      // Readers are not blocked by a writer (WAL), so the API's own reads still work.
      expect((await ctx.request('GET', '/api/services')).statusCode).toBe(200);
      expect(await countRows(ctx.db, 'contact_messages')).toBe(0);

      other.exec('rollback');
      const stored = await send();
      expect(stored.statusCode).toBe(201);
      expect(stored.headers['idempotent-replayed']).toBeUndefined();
      expect(await countRows(ctx.db, 'contact_messages')).toBe(1);
    } finally {
      other.close();
      await ctx.close();
    }
  });
});
