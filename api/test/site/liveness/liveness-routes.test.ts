import { sql } from 'kysely';
import { buildApp } from '../../../src/app';
import { createDatabase } from '../../../src/platform/db/connection';
import { testConfig } from '../../helpers/app';
import { createTestDatabase } from '../../helpers/database';
import { httpRequest } from '../../helpers/http';
import { asPerson } from '../../helpers/person-submission';

it('GET /api/health answers 200 {status: ok} while the database answers, 503 JSON when it does not', async () => {
  const testDb = await createTestDatabase();
  const database = createDatabase(testDb.url);
  const app = await buildApp({ config: testConfig(testDb.url), database });
  try {
    const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    const ok = await httpRequest(baseUrl, 'GET', '/api/health');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ status: 'ok', outbox: { pending: 0, failed: 0, oldest_pending_at: null } });
    expect(ok.headers['cache-control']).toBe('no-store');

    await database.destroy();
    const down = await httpRequest(baseUrl, 'GET', '/api/health');
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({
      status: 'unavailable',
      error: { code: 'DATABASE_UNAVAILABLE', message: 'Сервіс тимчасово недоступний' },
    });

    // Any other failure of the database is a generic 500, without internals.
    const failed = await httpRequest(baseUrl, 'GET', '/api/services');
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({
      error: { code: 'INTERNAL_ERROR', message: 'Внутрішня помилка сервера. Спробуйте пізніше' },
    });
  } finally {
    await app.close();
    await testDb.drop();
  }
});

it('GET /api/health answers 503 while the database reads but cannot store a submission (full disk, read-only)', async () => {
  const testDb = await createTestDatabase();
  // One PostgreSQL connection, so the read-only session setting below covers every query.
  const database = createDatabase(testDb.url, { poolSize: 1 });
  const app = await buildApp({ config: testConfig(testDb.url), database });
  try {
    const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    expect((await httpRequest(baseUrl, 'GET', '/api/health')).statusCode).toBe(200);
    // A person's submission, filled in while the database still takes writes (its token is made with the site's secrets).
    const person = await asPerson({ db: database }, 'contact', { name: 'Олена', email: 'olena@example.com', phone: '0671234567', message: 'Добрий день' });

    await sql
      .raw(database.dialect.name === 'sqlite' ? 'pragma query_only = on' : 'set default_transaction_read_only = on')
      .execute(database.kysely);
    expect((await httpRequest(baseUrl, 'GET', '/api/services')).statusCode).toBe(200);
    const submission = await httpRequest(baseUrl, 'POST', '/api/contact', person);
    expect(submission.statusCode).toBe(500);

    const health = await httpRequest(baseUrl, 'GET', '/api/health');
    expect(health.statusCode).toBe(503);
    expect(health.json()).toEqual({
      status: 'unavailable',
      error: { code: 'DATABASE_UNAVAILABLE', message: 'Сервіс тимчасово недоступний' },
    });
  } finally {
    await app.close();
    await database.destroy();
    await testDb.drop();
  }
});
