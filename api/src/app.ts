import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppConfig } from './config';
import type { Database } from './db/connection';
import { loggerOptions } from './logger-options';
import contentPlugin from './content/content-plugin';
import { deliveryPlugin } from './delivery';
import { healthRoutes } from './health/health-routes';
import { leadsPlugin } from './leads/leads-plugin';
import { outboxBacklog } from './leads/outbox/outbox-repository';
import pagesPlugin from './pages/pages-plugin';
import databasePlugin from './plugins/database';
import errorHandler from './plugins/error-handler';
import metricsPlugin from './plugins/metrics';
import { metricsRoutes } from './plugins/metrics-route';
import rateLimit from './plugins/rate-limit';
import securityHeaders from './plugins/security-headers';
import { drainPlugin, rewriteRequestUrl, SERVER_TIMEOUTS } from './plugins/server-lifecycle';
import { sharedSchemaCompilers } from './http/schema-compilers';
import { seoRoutes } from './seo/seo-routes';
import { staffPlugin } from './staff/staff-plugin';
import { registerStatic } from './static/static-files';
import { readMedia } from './content/media-store';

export const BODY_LIMIT_BYTES = 64 * 1024;

export interface BuildAppOptions {
  config: AppConfig;
  /** A database opened by the caller (it then also closes it); by default one is opened from config. */
  database?: Database;
}

/**
 * The API and the site in one process: cross-cutting plugins first (database, metrics, headers,
 * drain, compression, rate limit, errors), then each feature with its routes and background work.
 * Closing runs the features' onClose hooks (pending work written) before the database closes.
 */
export async function buildApp({ config, database }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    requestTimeout: SERVER_TIMEOUTS.requestTimeout,
    keepAliveTimeout: SERVER_TIMEOUTS.keepAliveTimeout,
    rewriteUrl: rewriteRequestUrl,
    // Requests during a shutdown get the API's own 503 (the drain plugin), not Fastify's plain one.
    return503OnClosing: false,
    ajv: {
      customOptions: { coerceTypes: false, removeAdditional: true, allErrors: true, useDefaults: false },
    },
    schemaController: { compilersFactory: sharedSchemaCompilers },
  });
  app.server.headersTimeout = SERVER_TIMEOUTS.headersTimeout;

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

  await app.register(healthRoutes, { db: app.db, watch: app.databaseWatch });
  await app.register(contentPlugin, { config });
  await app.register(seoRoutes, { db: app.db, siteUrl: config.siteUrl });
  await app.register(leadsPlugin, { config });
  await app.register(deliveryPlugin, { config });
  await app.register(staffPlugin, { config });
  await registerStatic(app, { staticRoot: config.staticRoot, releasesOf: app.delivery.releasesOf, mediaDir: config.mediaDir, readMedia: (name) => readMedia(app.db, name) });
  await app.register(pagesPlugin, { config });
  return app;
}
