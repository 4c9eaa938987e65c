import { timingSafeEqual } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Registry } from 'prom-client';
import { ApiError, MESSAGES } from '../http/api-error';

export const METRICS_PATH = '/metrics';

export interface MetricsRoutesOptions {
  registry: Registry;
  /** METRICS_TOKEN: what `Authorization: Bearer …` must carry. */
  token: string;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `GET /metrics` in Prometheus's text format, for a scraper that holds METRICS_TOKEN (401
 * otherwise). Registered only when the token is set: without one the route does not exist (404).
 */
export const metricsRoutes: FastifyPluginAsyncTypebox<MetricsRoutesOptions> = async (app, { registry, token }) => {
  app.get(
    METRICS_PATH,
    { schema: { headers: Type.Object({ authorization: Type.Optional(Type.String()) }) } },
    async (request, reply) => {
      const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim() ?? '';
      if (!sameToken(given, token)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new ApiError(401, 'UNAUTHORIZED', MESSAGES.unauthorized);
      }
      const body = await registry.metrics();
      return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(body);
    },
  );
};
