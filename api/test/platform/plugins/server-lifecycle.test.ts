import { buildApp } from '../../../src/app';
import { selfRequestHeaders, shutDown } from '../../../src/platform/plugins/server-lifecycle';
import { testConfig, VALID_CONTACT } from '../../helpers/app';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { httpRequest, type HttpResponse } from '../../helpers/http';
import { asPerson } from '../../helpers/person-submission';
import { openRawClient, partialPost } from '../../helpers/raw-socket';

// The server's side of a shutdown and of malformed URLs, on an app listening on 127.0.0.1.

let testDb: TestDatabase;

beforeEach(async () => {
  testDb = await createTestDatabase();
});

afterEach(async () => {
  await testDb.drop();
});

async function listening() {
  const app = await buildApp({ config: testConfig(testDb.url) });
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, baseUrl };
}

/** Headers every answer carries whatever it is (helmet's among them), as a normal 404 shows them. */
function commonHeaders(response: HttpResponse): Record<string, unknown> {
  const perResponse = new Set(['date', 'content-length', 'content-type', 'connection', 'keep-alive', 'retry-after']);
  return Object.fromEntries(Object.entries(response.headers).filter(([name]) => !perResponse.has(name)));
}

describe('malformed URLs', () => {
  it.each(['/api/blog/%', '/api/blog/%c0%ae', '/%', '/blog/%E0%A4%A?x=1'])(
    'answer %s with the API error format and the security headers of any other answer',
    async (path) => {
      const { app, baseUrl } = await listening();
      try {
        const normal = await httpRequest(baseUrl, 'GET', '/api/missing');
        expect(normal.statusCode).toBe(404);
        const response = await httpRequest(baseUrl, 'GET', path);
        expect(response.statusCode).toBe(400);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(response.json()).toEqual({ error: { code: 'BAD_URL', message: 'Некоректна адреса запиту' } });
        expect(commonHeaders(response)).toEqual(commonHeaders(normal));
        expect(response.headers['content-security-policy']).toBeDefined();
      } finally {
        await app.close();
      }
    },
  );
});

describe('shutdown', () => {
  it('answers new requests 503 with connection: close while a stalled client is cut off at the deadline', async () => {
    const { app, baseUrl } = await listening();
    const stalled = await openRawClient(baseUrl);
    const post = partialPost('/api/contact', JSON.stringify(VALID_CONTACT), 10);
    stalled.socket.write(post.start);
    // Let the server take the request in before the shutdown starts.
    await httpRequest(baseUrl, 'GET', '/api/services');

    const result = shutDown(app, 1000);
    const during = await httpRequest(baseUrl, 'GET', '/api/health');
    expect(during.statusCode).toBe(503);
    expect(during.headers.connection).toBe('close');
    expect(during.headers['retry-after']).toBe('5');
    expect(during.headers['x-content-type-options']).toBe('nosniff');
    const error = { code: 'SHUTTING_DOWN', message: 'Сервіс тимчасово недоступний' };
    expect(during.json()).toEqual({ status: 'unavailable', error });
    const api = await httpRequest(baseUrl, 'GET', '/api/services');
    expect(api.statusCode).toBe(503);
    expect(api.json()).toEqual({ error });

    expect(await result).toEqual({ drained: false });
    await stalled.closed;
    expect(stalled.received()).toBe('');
  });

  it('serves the page renderer’s own API requests while draining, so a page in flight is rendered whole', async () => {
    const { app, baseUrl } = await listening();
    const stalled = await openRawClient(baseUrl);
    stalled.socket.write(partialPost('/api/contact', JSON.stringify(VALID_CONTACT), 10).start);
    await httpRequest(baseUrl, 'GET', '/api/services');

    const result = shutDown(app, 1000);
    const own = await httpRequest(baseUrl, 'GET', '/api/services', { headers: selfRequestHeaders(app) });
    expect(own.statusCode).toBe(200);
    const [[header]] = Object.entries(selfRequestHeaders(app)) as [[string, string]];
    const forged = await httpRequest(baseUrl, 'GET', '/api/services', { headers: { [header]: 'a guess' } });
    expect(forged.statusCode).toBe(503);
    expect(await result).toEqual({ drained: false });
    await stalled.closed;
  });

  it('lets a request in flight finish and be stored, then closes', async () => {
    const { app, baseUrl } = await listening();
    const client = await openRawClient(baseUrl);
    // A person's submission, as the form's script sends it: stored, not dropped as a program's.
    const person = await asPerson({ app }, 'contact', VALID_CONTACT);
    const post = partialPost('/api/contact', JSON.stringify(person.json), 10, person.headers);
    client.socket.write(post.start);
    await httpRequest(baseUrl, 'GET', '/api/services');

    const result = shutDown(app, 10_000);
    client.socket.write(post.rest);
    expect(await result).toEqual({ drained: true });
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 201 /);
  });
});
