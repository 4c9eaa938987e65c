import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import { deliveryPlugin } from './delivery';
import type { AppConfig } from './platform/config';
import type { Database } from './platform/db/connection';
import { sharedSchemaCompilers } from './platform/http/schema-compilers';
import { loggerOptions } from './platform/http/logger-options';
import { acceleratedClock, systemClock, type Clock } from './platform/lib/clock';
import backupPlugin from './platform/backup/backup-plugin';
import metricsPlugin from './platform/metrics/metrics-plugin';
import { metricsRoutes } from './platform/metrics/metrics-route';
import databasePlugin from './platform/plugins/database';
import errorHandler from './platform/plugins/error-handler';
import rateLimit from './platform/plugins/rate-limit';
import securityHeaders from './platform/plugins/security-headers';
import { drainPlugin, rewriteRequestUrl, SERVER_TIMEOUTS } from './platform/plugins/server-lifecycle';
import { outboxBacklog, sitePlugin } from './site';
import { overrideHolderMayAct, staffPlugin } from './staff';

export const BODY_LIMIT_BYTES = 64 * 1024;

export interface BuildAppOptions {
  config: AppConfig;
  /** A database opened by the caller (it then also closes it); by default one is opened from config. */
  database?: Database;
  /** Where the log's JSON lines go instead of stdout (tests read what the server logged). */
  logStream?: { write(line: string): void };
  /** The clock the leads' follow-up works by (API tests move one by hand); by default the system's, or the config's test clock. */
  clock?: Clock;
}

declare module 'fastify' {
  interface FastifyInstance {
    clock: Clock;
  }
}

/**
 * The API and the site in one process: the platform's cross-cutting plugins first (database,
 * metrics, headers, drain, compression, rate limit, errors), then each product with its routes
 * and background work: delivery (releases, each visitor's choice of them, their health), the
 * public site (which renders pages from delivery's releases) and the staff console. Closing runs
 * the products' onClose hooks (pending work written) before the database closes.
 */
export async function buildApp({ config, database, logStream, clock }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config, undefined, logStream),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    requestTimeout: SERVER_TIMEOUTS.requestTimeout,
    keepAliveTimeout: SERVER_TIMEOUTS.keepAliveTimeout,
    rewriteUrl: rewriteRequestUrl,
    // Requests during a shutdown get the API's own 503 (the drain plugin), not Fastify's plain one.
    return503OnClosing: false,
    // Start-up does real work (migrations, the content's covers made with sharp, the releases
    // imported): on a busy machine it can take longer than avvio's 10 s, which would end the start.
    pluginTimeout: 120_000,
    ajv: {
      customOptions: { coerceTypes: false, removeAdditional: true, allErrors: true, useDefaults: false },
    },
    schemaController: { compilersFactory: sharedSchemaCompilers },
  });
  app.server.headersTimeout = SERVER_TIMEOUTS.headersTimeout;
  app.decorate('clock', clock ?? (config.testClock ? acceleratedClock(config.testClock.start, config.testClock.rate) : systemClock));

  await app.register(databasePlugin, { databaseUrl: config.databaseUrl, database });
  await app.register(metricsPlugin, { outbox: () => outboxBacklog(app.db) });
  await app.register(securityHeaders, { remoteUrls: config.remoteUrls });
  await app.register(drainPlugin);
  // API JSON and server-rendered pages are compressed per response (brotli, else gzip); static
  // files come precompressed from the build and already carry their content-encoding.
  await app.register(compress, { encodings: ['br', 'gzip'], threshold: 1024 });
  await app.register(rateLimit, { redisUrl: config.redisUrl });
  // JSON is the only body type the API accepts.
  app.removeContentTypeParser('text/plain');
  await app.register(errorHandler);
  if (config.metricsToken) await app.register(metricsRoutes, { registry: app.metrics.registry, token: config.metricsToken });

  await app.register(backupPlugin, { backup: config.backup, databaseUrl: config.databaseUrl, siteUrl: config.siteUrl, opsWebhook: config.opsWebhook });
  // A browser's override of a remote holds while the staff session that set it may act on the app.
  await app.register(deliveryPlugin, { config, overrideHolder: (session, remote) => overrideHolderMayAct(app.db, session, remote) });
  await app.register(sitePlugin, { config });
  await app.register(staffPlugin, { config });
  return app;
}
