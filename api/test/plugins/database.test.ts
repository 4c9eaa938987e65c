import { buildApp } from '../../src/app';
import { testConfig } from '../helpers/app';
import { createMigratedTestDatabase, testDialect, type TestDatabase } from '../helpers/database';
import { httpRequest } from '../helpers/http';
import { startDatabaseProxy, type TcpProxy } from '../helpers/tcp-proxy';

// A server starting while PostgreSQL does not answer yet (a TCP proxy between them that accepts
// connections and answers none): it keeps trying for a while, rather than giving up at the first
// connection that takes longer than a request may wait.
jest.setTimeout(30_000);

(testDialect() === 'postgres' ? describe : describe.skip)('the database at a server’s start', () => {
  let testDb: TestDatabase;
  let proxy: TcpProxy;
  let proxiedUrl: string;

  beforeEach(async () => {
    testDb = await createMigratedTestDatabase();
    ({ proxy, url: proxiedUrl } = await startDatabaseProxy(testDb.url));
  });

  afterEach(async () => {
    await proxy.close();
    await testDb.drop();
  });

  it('is waited for while it does not answer, and the server then starts and serves', async () => {
    proxy.cut();
    const starting = buildApp({ config: testConfig(proxiedUrl) });
    // Two of the first connection's tries time out before the database answers again.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    proxy.restore();
    const app = await starting;
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as { port: number };
      const health = await httpRequest(`http://127.0.0.1:${port}`, 'GET', '/api/health');
      expect(health.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('is given up on with its error once the wait is over', async () => {
    proxy.cut();
    await expect(buildApp({ config: testConfig(proxiedUrl) })).rejects.toThrow(/timeout/i);
  });
});
