import { Redis } from 'ioredis';
import { createDatabase, type Database } from '../../../src/platform/db/connection';
import { listContactMessages } from '../../../src/site/leads/submissions/submissions-repository';
import { startTestApp, VALID_CONTACT } from '../../helpers/app';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { eventually } from '../../helpers/eventually';
import { httpRequest } from '../../helpers/http';
import { asPerson, BROWSER_FETCH_HEADERS, spamFields } from '../../helpers/person-submission';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server';
import { freePort, serverProcesses, type ServerProcess } from '../../helpers/server-process';
import { describeWithTools } from '../../helpers/system-tools';

// REDIS_URL: the submission rate limit shared by real API processes (compiled) through a real redis-server.
jest.setTimeout(120_000);

describeWithTools('redis-server')('the rate limit in Redis (REDIS_URL)', () => {
  let testDb: TestDatabase;
  let redis: RedisServer | undefined;
  /** The servers' database, for the site's secrets a person's form token and proof are made with. */
  let site: Database | undefined;
  const servers = serverProcesses();

  beforeEach(async () => {
    testDb = await createTestDatabase();
  });

  afterEach(async () => {
    await servers.stopAll();
    await redis?.stop();
    redis = undefined;
    await site?.destroy();
    site = undefined;
    await testDb.drop();
  });

  /** Two API processes on the test database, RATE_LIMIT_MAX=3 (instead of the helper's very high default). */
  async function startTwo(redisUrl: string): Promise<ServerProcess[]> {
    const env = { DATABASE_URL: testDb.url, REDIS_URL: redisUrl, RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW: '1 minute' };
    return Promise.all([servers.start(env), servers.start(env)]);
  }

  /**
   * The `index`th person's contact message, sent as the form's script sends it: an e-mail, a phone
   * and a message of its own (the spam defence holds a sender's fourth lead, and one text from many).
   */
  async function submit(server: ServerProcess, index: number) {
    site ??= createDatabase(testDb.url, { poolSize: 1 });
    const person = {
      ...VALID_CONTACT,
      name: `Спроба ${index}`,
      email: `try.${index}@example.com`,
      phone: `+380 93 ${String(index).padStart(7, '0')}`,
      message: `${VALID_CONTACT.message} Спроба ${index}.`,
    };
    return httpRequest(server.baseUrl, 'POST', '/api/contact', { json: { ...person, ...(await spamFields(site, 'contact')) }, headers: { ...BROWSER_FETCH_HEADERS } });
  }

  async function storedCount(): Promise<number> {
    const db = createDatabase(testDb.url, { poolSize: 1 });
    try {
      return (await listContactMessages(db)).length;
    } finally {
      await db.destroy();
    }
  }

  it('shares one budget per client between processes that count in the same Redis', async () => {
    redis = await startRedisServer();
    const [first, second] = (await startTwo(redis.url)) as [ServerProcess, ServerProcess];

    const statuses: number[] = [];
    for (let index = 0; index < 3; index += 1) {
      const response = await submit(index % 2 === 0 ? first : second, index);
      statuses.push(response.statusCode);
    }
    // 3 in total, not 3 per process: the 4th is refused whichever process it reaches.
    expect(statuses).toEqual([201, 201, 201]);
    for (const [index, server] of [second, first].entries()) {
      const limited = await submit(server, 3 + index);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({
        error: { code: 'RATE_LIMITED', message: 'Забагато запитів. Спробуйте, будь ласка, трохи пізніше' },
      });
      expect(limited.headers['retry-after']).toBeDefined();
    }
    expect(await storedCount()).toBe(3);

    // The counter lives in Redis under the API's own prefix.
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    try {
      const keys = await client.keys('*');
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatch(/^agency-rate-limit:POST\/api\/contact-/);
      expect(Number(await client.get(keys[0]!))).toBe(5);
    } finally {
      client.disconnect();
    }
  });

  it('accepts and stores every submission when REDIS_URL points where no Redis listens', async () => {
    const [first, second] = (await startTwo(`redis://127.0.0.1:${await freePort()}`)) as [ServerProcess, ServerProcess];
    for (let index = 0; index < 5; index += 1) {
      expect((await submit(index % 2 === 0 ? first : second, index)).statusCode).toBe(201);
    }
    expect(await storedCount()).toBe(5);
    for (const server of [first, second]) {
      expect(server.output()).toMatch(/Redis \(REDIS_URL\) is unreachable/);
    }
  });

  it('keeps accepting submissions when Redis stops while the servers run', async () => {
    redis = await startRedisServer();
    const [first, second] = (await startTwo(redis.url)) as [ServerProcess, ServerProcess];
    expect((await submit(first, 0)).statusCode).toBe(201);
    expect((await submit(second, 1)).statusCode).toBe(201);
    await redis.stop();
    // Past RATE_LIMIT_MAX: with Redis gone the limit is skipped, never the lead.
    for (let index = 2; index < 6; index += 1) {
      expect((await submit(index % 2 === 0 ? first : second, index)).statusCode).toBe(201);
    }
    expect(await storedCount()).toBe(6);
  });

  it('closes its Redis connection when the app closes', async () => {
    redis = await startRedisServer();
    const observer = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    const clientCount = async () => String(await observer.client('LIST')).trim().split('\n').length;
    try {
      const ctx = await startTestApp({ redisUrl: redis.url, rateLimitMax: 3 });
      try {
        expect((await ctx.request('POST', '/api/contact', await asPerson(ctx, 'contact', VALID_CONTACT))).statusCode).toBe(201);
        // The app's own connection, next to the observer's.
        expect(await clientCount()).toBe(2);
      } finally {
        await ctx.close();
      }
      await eventually('the app to close its Redis connection', clientCount, (count) => count === 1);
    } finally {
      observer.disconnect();
    }
  });
});
