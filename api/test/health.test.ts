import { buildApp } from '../src/app';
import { createDatabase } from '../src/db/connection';
import { testConfig } from './helpers/app';
import { createTestDatabase } from './helpers/database';
import { httpRequest } from './helpers/http';

it('GET /api/health answers 200 {status: ok} while the database answers, 503 JSON when it does not', async () => {
  const testDb = await createTestDatabase();
  const database = createDatabase(testDb.url);
  const app = await buildApp({ config: testConfig(testDb.url), database });
  try {
    const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    const ok = await httpRequest(baseUrl, 'GET', '/api/health');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ status: 'ok' });
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
