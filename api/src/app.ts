import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { releaseSet, REMOTES_PATH, type RemoteName } from '@agency/shared';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { REPO_ROOT, type AppConfig } from './config';
import { createDatabase, type Database } from './db/connection';
import { isDatabaseUnavailable } from './db/database-errors';
import { DATABASE_RETRY_AFTER_SECONDS, DatabaseWatch } from './db/database-watch';
import { migrateToLatest } from './db/migrate';
import { loggerOptions } from './logger-options';
import { seedIfEmpty } from './db/seed';
import { publishArticles } from './content/publish-at-start';
import { createChannels } from './leads/channels';
import { startDeliveryWorker } from './leads/delivery-worker';
import { contentRoutes } from './routes/content';
import { healthRoutes } from './routes/health';
import { seoRoutes } from './routes/seo';
import { submissionRoutes } from './routes/submissions';
import { metricsRoutes } from './routes/metrics';
import { createSiteMetrics, VITALS_WINDOW_MINUTES } from './metrics/site-metrics';
import { startSiteTelemetry } from './telemetry/site-telemetry';
import { readVitalsP75 } from './telemetry/release-health';
import { toMinute } from './telemetry/telemetry-kinds';
import { outboxBacklog } from './leads/outbox-store';
import { ReleaseReader } from './releases/reader';
import { NO_CACHE } from './static/cache-policy';
import { registerStatic } from './static';
import { startCanaryController } from './delivery/canary-controller';
import { createOpsWebhook } from './delivery/ops-webhook';
import { loadPreviewSecret } from './delivery/preview-token';
import { createVisitorReleases } from './delivery/visitor-releases';
import { knownReleases } from './releases/known-releases';
import { registerPreviewRoutes } from './routes/preview';
import { remotesDocument } from './static/remotes-document';
import { createPageRenderer } from './pages/render-page';
import { PageCache, PAGE_CACHE_MAX_ENTRIES } from './pages/page-cache';
import { createPageGeneration } from './pages/page-generation';
import { createPageServer } from './pages/serve-page';
import { ContentCache } from './cache/content-cache';
import { readContentRevision } from './db/database-state';
import { registerBadUrlRoute, registerDrain, rewriteRequestUrl, SERVER_TIMEOUTS } from './server-lifecycle';
import { ApiError, MESSAGES, validationError, type ValidationIssue } from './validation/errors';

export const BODY_LIMIT_BYTES = 64 * 1024;

/** `make()` the first time the result is asked for, that result after. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/**
 * How long a request waits for a PostgreSQL connection, new or from a busy pool. On the same
 * network one takes milliseconds; without a limit a server that is down or restarting would
 * hold every request until the operating system gives up. Past it the request is answered 503
 * (retry), within the shell's nginx read timeout (shell/deploy/nginx-site.conf.template).
 */
export const DATABASE_CONNECT_TIMEOUT_MS = 1000;

export interface BuildAppOptions {
  config: AppConfig;
  /** A database opened by the caller (it then also closes it); by default one is opened from config. */
  database?: Database;
}

type RemoteUrls = Partial<Record<RemoteName, string>>;

/** Origins of remote manifest URLs that point to another origin (absolute URLs). */
export function remoteOrigins(remoteUrls: RemoteUrls): string[] {
  const origins = new Set<string>();
  for (const url of Object.values(remoteUrls)) {
    if (!url || !/^https?:\/\//i.test(url)) continue;
    try {
      origins.add(new URL(url).origin);
    } catch {
      // Not a URL: nothing to allow.
    }
  }
  return [...origins];
}

function contentSecurityPolicy(remoteUrls: RemoteUrls) {
  const origins = remoteOrigins(remoteUrls);
  return {
    // Only these directives: helmet's defaults would add upgrade-insecure-requests,
    // which breaks a site served over plain http (localhost, tests).
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...origins],
      connectSrc: ["'self'", ...origins],
      // react-select (emotion) injects <style> elements at run time; remotes ship CSS chunks.
      styleSrc: ["'self'", "'unsafe-inline'", ...origins],
      imgSrc: ["'self'", 'data:', ...origins],
      fontSrc: ["'self'", 'data:', ...origins],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
    },
  };
}

/** Maps any error to the API's JSON error body; never leaks a stack trace or SQL. */
function toApiError(error: FastifyError | ApiError): ApiError {
  if (error instanceof ApiError) return error;
  if (error.validation) {
    return validationError(error.validation as unknown as ValidationIssue[], error.validationContext);
  }
  const status = error.statusCode ?? 500;
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', MESSAGES.unsupportedMediaType);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'PAYLOAD_TOO_LARGE', MESSAGES.payloadTooLarge);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, 'EMPTY_BODY', MESSAGES.emptyBody);
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError(400, 'INVALID_JSON', MESSAGES.invalidJson);
    default:
  }
  if (status === 429) return new ApiError(429, 'RATE_LIMITED', MESSAGES.rateLimited);
  if (isDatabaseUnavailable(error)) return new ApiError(503, 'DATABASE_UNAVAILABLE', MESSAGES.unavailable);
  if (error instanceof SyntaxError && status === 400) return new ApiError(400, 'INVALID_JSON', MESSAGES.invalidJson);
  if (status === 413) return new ApiError(413, 'PAYLOAD_TOO_LARGE', MESSAGES.payloadTooLarge);
  if (status === 404) return new ApiError(404, 'NOT_FOUND', MESSAGES.notFound);
  if (status >= 400 && status < 500) return new ApiError(status, 'BAD_REQUEST', MESSAGES.badRequest);
  return new ApiError(500, 'INTERNAL_ERROR', MESSAGES.internal);
}

/**
 * The client the rate limit counts in (REDIS_URL). Tuned to fail fast, as the @fastify/rate-limit
 * docs advise: a check against a Redis that is down fails at once (no offline queue, one try per
 * command) and one against a hung Redis within commandTimeout, so a submission is never held up
 * long. A Redis unreachable at start does not stop the server: ioredis keeps reconnecting in the
 * background, and one warning is logged per outage.
 */
async function connectRateLimitRedis(url: string, log: FastifyBaseLogger): Promise<Redis> {
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

export async function buildApp({ config, database }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    requestTimeout: SERVER_TIMEOUTS.requestTimeout,
    keepAliveTimeout: SERVER_TIMEOUTS.keepAliveTimeout,
    rewriteUrl: rewriteRequestUrl,
    // Requests during a shutdown get the API's own 503 (registerDrain), not Fastify's plain one.
    return503OnClosing: false,
    ajv: {
      customOptions: { coerceTypes: false, removeAdditional: true, allErrors: true, useDefaults: false },
    },
  });

  app.server.headersTimeout = SERVER_TIMEOUTS.headersTimeout;

  const watch = new DatabaseWatch(app.log);
  const db =
    database ??
    createDatabase(config.databaseUrl, {
      connectTimeoutMs: DATABASE_CONNECT_TIMEOUT_MS,
      // A restarted server ends its clients' connections: reported (once) as the database lost.
      onPoolError: (error) => watch.failed(error) || app.log.error({ err: error }, 'idle PostgreSQL client failed'),
      onQuery: (event) => (event.level === 'query' ? watch.reached() : watch.failed(event.error)),
    });
  try {
    await migrateToLatest(db);
    const seeded = await seedIfEmpty(db);
    if (seeded.services) app.log.info(seeded, 'seeded services into an empty database');
    await publishArticles(db, config, app.log);
  } catch (error) {
    if (!database) await db.destroy();
    throw error;
  }

  // Leads go out from the outbox, not from the request: a receiver that is down never fails
  // or slows a submission, and what is stored is delivered after a restart.
  const channels = createChannels(config.leads);
  const delivery = startDeliveryWorker({ db, channels, log: app.log });
  // Published releases (npm run release), re-read about once a second: no restart to switch.
  const releases = new ReleaseReader(config.releasesDir, (error, name) =>
    app.log.error({ err: error, app: name }, 'cannot read the published releases; serving the last known state'),
  );
  const currentRemotes = () => remotesDocument(releases, config.remoteUrls);
  // An https site sends its cookies over https only.
  const secureCookies = config.siteUrl.startsWith('https:');
  const previewSecret = once(() => loadPreviewSecret({ RELEASE_PREVIEW_SECRET: config.previewSecret }, config.releasesDir));
  const visitorReleases = createVisitorReleases({ releases, remoteUrls: config.remoteUrls, previewSecret, secureCookies });

  const metrics = createSiteMetrics({
    currentReleases: async () => releaseSet(await currentRemotes()),
    outbox: () => outboxBacklog(db),
    vitalsP75: () => readVitalsP75(db, toMinute(Date.now()) - VITALS_WINDOW_MINUTES),
    knownReleases: async () => knownReleases(releases, await currentRemotes()),
  });
  const telemetry = startSiteTelemetry({ db, config: config.telemetry, releases, visitorReleases, metrics, log: app.log });
  let stopCanaries = async () => {};
  app.addHook('onClose', async () => {
    // Deliveries in flight end (and are recorded), and pending reports are written, before the database closes.
    await Promise.all([delivery.stop(), telemetry.stop(), stopCanaries()]);
    if (!database) await db.destroy();
  });
  // A canary's candidate is promoted or rolled back on the evidence telemetry keeps, by one process at a time.
  const canaries = startCanaryController({
    db,
    context: { releasesDir: config.releasesDir, staticRoot: config.staticRoot, remoteUrls: config.remoteUrls, keep: config.releasesKeep, repoRoot: REPO_ROOT },
    releases,
    log: app.log,
    site: config.siteUrl,
    notify: config.opsWebhook && createOpsWebhook(config.opsWebhook, app.log),
  });
  stopCanaries = () => canaries.stop();

  app.addHook('onResponse', async (request, reply) => {
    // Pages and unknown paths are answered by the not-found handler, which has no route pattern.
    const page = String(reply.getHeader('content-type') ?? '').startsWith('text/html');
    metrics.request(request.method, request.routeOptions.url ?? (page ? 'page' : 'unmatched'), reply.statusCode, reply.elapsedTime / 1000);
  });

  await app.register(helmet, {
    contentSecurityPolicy: contentSecurityPolicy(config.remoteUrls),
    // helmet's default (no-referrer) would keep the page address off our own form posts, and the
    // agency stores it with each submission; other sites still get only our origin.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  registerDrain(app);
  // Read on every request (a canary's bucket, a preview's token); set only on pages (delivery/visitor-releases).
  await app.register(cookie);
  // API JSON and server-rendered pages are compressed per response (brotli, else gzip); static
  // files come precompressed from the build and already carry their content-encoding.
  await app.register(compress, { encodings: ['br', 'gzip'], threshold: 1024 });
  // With REDIS_URL every API process counts in one Redis, so a client's budget is shared by all of
  // them; without it each process counts in its own memory.
  const rateLimitRedis = config.redisUrl ? await connectRateLimitRedis(config.redisUrl, app.log) : undefined;
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
    // Thrown, then shaped by the error handler below.
    errorResponseBuilder: () => new ApiError(429, 'RATE_LIMITED', MESSAGES.rateLimited),
  });

  // JSON is the only body type the API accepts.
  app.removeContentTypeParser('text/plain');

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = toApiError(error);
    // Nothing was stored: the same request can succeed once the database is back, and says when.
    if (apiError.code === 'DATABASE_UNAVAILABLE') {
      watch.failed(error);
      reply.header('retry-after', DATABASE_RETRY_AFTER_SECONDS);
    } else if (apiError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.debug({ code: apiError.code }, 'request rejected');
    return reply.code(apiError.statusCode).header('cache-control', 'no-store').send(apiError.toBody());
  });

  registerBadUrlRoute(app);
  await app.register(healthRoutes, { db, watch });
  // Every content answer is serialized once per content revision and then served from memory,
  // also while the database is down; pages are kept under the same revision.
  const content = new ContentCache({
    readRevision: () => readContentRevision(db),
    onRevisionError: (error) => watch.failed(error),
  });
  await app.register(contentRoutes, { db, cache: content });
  await app.register(seoRoutes, { db, siteUrl: config.siteUrl });
  await app.register(submissionRoutes, {
    db,
    rateLimitMax: config.rateLimitMax,
    rateLimitWindow: config.rateLimitWindow,
    leadChannels: channels.map((channel) => channel.name),
    onLeadStored: delivery.wake,
  });

  await telemetry.registerRoutes(app);
  if (config.metricsToken) await app.register(metricsRoutes, { registry: metrics.registry, token: config.metricsToken });

  // What a page asks after a failed load: the same releases as its page (its bucket, its preview).
  app.get('/remotes.json', async (request, reply) => {
    reply.header('cache-control', NO_CACHE);
    return (await visitorReleases(request)).remotes;
  });
  await app.register(registerPreviewRoutes, { secureCookies });

  await registerStatic(app, { staticRoot: config.staticRoot, releases, mediaDir: config.mediaDir });
  const servePage = createPageServer({
    renderer: createPageRenderer({
      app,
      releases,
      staticRoot: config.staticRoot,
      remoteBuildsDir: config.remoteBuildsDir,
      telemetrySample: config.telemetry.enabled ? config.telemetry.sample : 0,
      onRenderError: telemetry.renderFailed,
    }),
    cache: new PageCache({ maxBytes: config.pageCacheMaxBytes, maxEntries: PAGE_CACHE_MAX_ENTRIES }),
    generation: createPageGeneration({
      remotesDocument: currentRemotes,
      contentRevision: () => content.revision(),
      origin: config.siteUrl,
      staticRoot: config.staticRoot,
      remoteBuildsDir: config.remoteBuildsDir,
    }),
    visitorReleases,
    origin: config.siteUrl,
    onLookup: metrics.pageCache,
    onRender: metrics.pageRender,
    onPageSent: telemetry.pageSent,
  });

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    const isApi = pathname === '/api' || pathname.startsWith('/api/');
    // A name with an extension (`/missing.js`, `/../secret.txt`) asks for a file, not a page;
    // `.html` names are pages.
    const isFile = /\.(?!html?$)[a-z0-9]+$/i.test(pathname.slice(pathname.lastIndexOf('/') + 1));
    const isAsset = isFile || pathname.startsWith(REMOTES_PATH) || pathname.startsWith('/media/');
    if (!isApi && !isAsset && (request.method === 'GET' || request.method === 'HEAD')) {
      // Every page path: rendered on the server (404 for what does not exist), then run in the browser.
      if (await servePage(request, reply)) return reply;
    }
    const error = new ApiError(404, 'NOT_FOUND', MESSAGES.notFound);
    return reply.code(404).header('cache-control', 'no-store').send(error.toBody());
  });

  return app;
}
