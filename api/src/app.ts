import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import { releaseSet, REMOTES_PATH } from '@agency/shared';
import Fastify, { type FastifyInstance } from 'fastify';
import { REPO_ROOT, type AppConfig } from './config';
import { createDatabase, type Database } from './db/connection';
import { DatabaseWatch } from './db/database-watch';
import { migrateToLatest } from './db/migrate';
import { loggerOptions } from './logger-options';
import { seedIfEmpty } from './content/seed-services';
import { publishArticles } from './content/publish-at-start';
import { createChannels } from './leads/outbox/channels';
import { startDeliveryWorker } from './leads/outbox/outbox-worker';
import { contentRoutes } from './content/content-routes';
import { healthRoutes } from './health/health-routes';
import { seoRoutes } from './seo/seo-routes';
import { submissionRoutes } from './leads/submissions/submission-routes';
import { metricsRoutes } from './plugins/metrics-route';
import { createSiteMetrics, VITALS_WINDOW_MINUTES } from './plugins/metrics';
import { startSiteTelemetry } from './delivery/health/site-telemetry';
import { readVitalsP75 } from './delivery/health/release-health';
import { toMinute } from './delivery/health/telemetry-kinds';
import { outboxBacklog } from './leads/outbox/outbox-repository';
import { ReleaseReader } from './delivery/releases/reader';
import { NO_CACHE } from './http/cache-policy';
import { registerStatic } from './static/static-files';
import { startCanaryController } from './delivery/canary/canary-controller';
import { createOpsWebhook } from './delivery/canary/ops-webhook';
import { loadPreviewSecret } from './delivery/visitor/preview-token';
import { createVisitorReleases } from './delivery/visitor/visitor-releases';
import { knownReleases } from './delivery/releases/known-releases';
import { registerPreviewRoutes } from './delivery/visitor/preview-routes';
import { remotesDocument } from './delivery/visitor/remotes-document';
import { createPageRenderer } from './pages/render-page';
import { PageCache, PAGE_CACHE_MAX_ENTRIES } from './pages/page-cache';
import { createPageGeneration } from './pages/page-generation';
import { createPageServer } from './pages/serve-page';
import { ContentCache } from './content/content-cache';
import { readContentRevision } from './health/database-probe';
import { registerBadUrlRoute, registerDrain, rewriteRequestUrl, SERVER_TIMEOUTS } from './plugins/server-lifecycle';
import { ApiError, MESSAGES } from './http/api-error';
import { registerErrorHandler } from './plugins/error-handler';
import { registerRateLimit } from './plugins/rate-limit';
import { registerSecurityHeaders } from './plugins/security-headers';

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

  await registerSecurityHeaders(app, config.remoteUrls);
  registerDrain(app);
  // Read on every request (a canary's bucket, a preview's token); set only on pages (delivery/visitor-releases).
  await app.register(cookie);
  // API JSON and server-rendered pages are compressed per response (brotli, else gzip); static
  // files come precompressed from the build and already carry their content-encoding.
  await app.register(compress, { encodings: ['br', 'gzip'], threshold: 1024 });
  await registerRateLimit(app, config.redisUrl);

  // JSON is the only body type the API accepts.
  app.removeContentTypeParser('text/plain');

  registerErrorHandler(app, watch);

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
