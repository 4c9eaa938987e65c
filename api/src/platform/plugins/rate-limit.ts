import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { ApiError, MESSAGES } from '../http/api-error';

/**
 * The client the rate limit counts in (REDIS_URL). Tuned to fail fast, as the @fastify/rate-limit
 * docs advise: a check against a Redis that is down fails at once (no offline queue, one try per
 * command) and one against a hung Redis within commandTimeout, so a submission is never held up
 * long. A Redis unreachable at start does not stop the server: ioredis keeps reconnecting in the
 * background, and one warning is logged per outage.
 */
async function connectRateLimitRedis(url: string, log: FastifyBaseLogger): Promise<Redis> {
  // Loaded only here: a process without REDIS_URL (the default) would load its modules for nothing.
  const { Redis } = await import('ioredis');
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2000,
    commandTimeout: 1000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
  });
  let reachable = true;
  // Also keeps ioredis from printing every failed reconnection to the console.
  client.on('error', (error: Error) => {
    if (!reachable) return;
    reachable = false;
    log.warn({ err: error }, 'rate limit: Redis (REDIS_URL) is unreachable; submissions are accepted without a limit until it is back');
  });
  client.on('ready', () => {
    if (!reachable) log.info('rate limit: Redis (REDIS_URL) is reachable again');
    reachable = true;
  });
  // Connected before the first request when Redis is up, so the first submissions are counted too.
  await client.connect().catch(() => {
    // Already warned by the error handler.
  });
  return client;
}

/** @fastify/rate-limit for the routes that ask for a limit (global: false), in Redis when REDIS_URL is set. */
async function rateLimitPlugin(app: FastifyInstance, { redisUrl }: { redisUrl?: string }): Promise<void> {
  // With REDIS_URL every API process counts in one Redis, so a client's budget is shared by all of
  // them; without it each process counts in its own memory.
  const rateLimitRedis = redisUrl ? await connectRateLimitRedis(redisUrl, app.log) : undefined;
  if (rateLimitRedis) {
    app.addHook('onClose', async () => {
      // quit() waits for replies still due; it fails at once when there is no connection.
      await rateLimitRedis.quit().catch(() => rateLimitRedis.disconnect());
    });
  }
  await app.register(rateLimit, {
    global: false,
    ...(rateLimitRedis && {
      redis: rateLimitRedis,
      nameSpace: 'agency-rate-limit:',
      // A Redis that is down or too slow lets the submission through (unlimited) rather than
      // refusing it: a lead is never lost to the limiter. connectRateLimitRedis warns of an outage.
      skipOnError: true,
    }),
    // Thrown, then shaped by the API's error handler (error-handler.ts).
    errorResponseBuilder: () => new ApiError(429, 'RATE_LIMITED', MESSAGES.rateLimited),
  });
}

export default fp(rateLimitPlugin, { name: 'rate-limit' });
