import { listContactMessages } from '../../../src/site/leads/submissions/submissions-repository';
import { startTestApp, VALID_APPLICATION, VALID_CONTACT, type TestContext } from '../../helpers/app';

describe('per-client rate limit on the POST routes', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await startTestApp({ rateLimitMax: 3, rateLimitWindow: 60_000 });
  });

  afterAll(async () => {
    await ctx.close();
  });

  it('answers 429 in Ukrainian after RATE_LIMIT_MAX requests, and stores nothing more', async () => {
    const from = { localAddress: '127.0.0.2' };
    for (let index = 0; index < 3; index += 1) {
      const response = await ctx.request('POST', '/api/contact', { ...from, json: { ...VALID_CONTACT, name: `Спроба ${index}` } });
      expect(response.statusCode).toBe(201);
    }
    const stored = (await listContactMessages(ctx.db)).length;
    const limited = await ctx.request('POST', '/api/contact', { ...from, json: VALID_CONTACT });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      error: { code: 'RATE_LIMITED', message: 'Забагато запитів. Спробуйте, будь ласка, трохи пізніше' },
    });
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await listContactMessages(ctx.db)).length).toBe(stored);
    // Each route has its own budget; reads are never limited.
    expect((await ctx.request('POST', '/api/jobs/apply', { ...from, json: VALID_APPLICATION })).statusCode).toBe(201);
    for (let index = 0; index < 5; index += 1) {
      expect((await ctx.request('GET', '/api/services', from)).statusCode).toBe(200);
    }
  });

  it('counts each client address separately', async () => {
    for (let index = 0; index < 3; index += 1) {
      expect((await ctx.request('POST', '/api/contact', { localAddress: '127.0.0.3', json: VALID_CONTACT })).statusCode).toBe(201);
    }
    expect((await ctx.request('POST', '/api/contact', { localAddress: '127.0.0.3', json: VALID_CONTACT })).statusCode).toBe(429);
    expect((await ctx.request('POST', '/api/contact', { localAddress: '127.0.0.4', json: VALID_CONTACT })).statusCode).toBe(201);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    for (let index = 0; index < 3; index += 1) {
      const response = await ctx.request('POST', '/api/contact', {
        localAddress: '127.0.0.5',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${index}` },
        json: VALID_CONTACT,
      });
      expect(response.statusCode).toBe(201);
    }
    const spoofed = await ctx.request('POST', '/api/contact', {
      localAddress: '127.0.0.5',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.99' },
      json: VALID_CONTACT,
    });
    expect(spoofed.statusCode).toBe(429);
  });
});

describe('behind a trusted proxy (TRUST_PROXY)', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await startTestApp({ rateLimitMax: 2, rateLimitWindow: 60_000, trustProxy: '127.0.0.1' });
  });

  afterAll(async () => {
    await ctx.close();
  });

  const viaProxy = (client: string) => ({
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
    json: VALID_CONTACT,
  });

  it('limits by the forwarded client address', async () => {
    expect((await ctx.request('POST', '/api/contact', viaProxy('198.51.100.1'))).statusCode).toBe(201);
    expect((await ctx.request('POST', '/api/contact', viaProxy('198.51.100.1'))).statusCode).toBe(201);
    expect((await ctx.request('POST', '/api/contact', viaProxy('198.51.100.1'))).statusCode).toBe(429);
    expect((await ctx.request('POST', '/api/contact', viaProxy('198.51.100.2'))).statusCode).toBe(201);
  });
});
