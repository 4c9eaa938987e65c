import { buildApp } from '../../../src/app';
import { testConfig } from '../../helpers/app';
import { createMigratedTestDatabase, testDialect, type TestDatabase } from '../../helpers/database';
import { eventually } from '../../helpers/eventually';
import { httpRequest } from '../../helpers/http';
import { startDatabaseProxy, type TcpProxy } from '../../helpers/tcp-proxy';

// A server starting while PostgreSQL does not answer yet, or answers slowly (a TCP proxy between
// them): it keeps trying for a while, rather than giving up at the first connection that takes
// longer than a request may wait.
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

  it('lets each connection of the start take longer than a request may wait for one, and no request after', async () => {
    // Each new connection answered 1.2 s late: more than the 1 s a request waits for one, less
    // than the 3 s a connection opened during the start may take.
    proxy.slowDown(1200);
    const app = await buildApp({ config: testConfig(proxiedUrl) });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as { port: number };
      const health = () => httpRequest(`http://127.0.0.1:${port}`, 'GET', '/api/health');
      expect((await health()).statusCode).toBe(200);

      // The pool's connections ended; every new one still 1.2 s late.
      proxy.cut();
      await eventually('the lost connections noticed', health, (response) => response.statusCode === 503);
      proxy.restore();
      for (let request = 0; request < 2; request += 1) expect((await health()).statusCode).toBe(503);

      proxy.slowDown(0);
      await eventually('the database reached again', health, (response) => response.statusCode === 200);
    } finally {
      await app.close();
    }
  });

  it('is given up on with its error once the wait is over', async () => {
    proxy.cut();
    await expect(buildApp({ config: testConfig(proxiedUrl) })).rejects.toThrow(/timeout/i);
  });
});
