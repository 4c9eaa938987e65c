import { ERROR_RESPONSES, HealthOkSchema, HealthUnavailableSchema, type HealthOk } from '@agency/shared/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '../../platform/db/connection';
import { probeWrite } from './database-probe';
import { DATABASE_RETRY_AFTER_SECONDS, type DatabaseWatch } from '../../platform/db/database-watch';
import { outboxBacklog } from '../leads/outbox/outbox-repository';
import { singleFlight } from '../../platform/lib/single-flight';
import { MESSAGES } from '../../platform/http/api-error';

export const livenessRoutes: FastifyPluginAsyncTypebox<{ db: Database; watch: DatabaseWatch }> = async (app, { db, watch }) => {
  // Healthy means submissions can be stored: the probe writes and commits, so a full disk or a
  // read-only database answers 503 even though reads still work. Health checks that arrive
  // together share one probe, so a burst costs one write.
  // The outbox backlog rides along: a channel that is down shows as a growing `pending`, while
  // the site itself stays healthy (leads are safely stored meanwhile).
  const probe = singleFlight(async () => {
    await probeWrite(db);
    return outboxBacklog(db);
  });

  app.get(
    '/api/health',
    { schema: { response: { 200: HealthOkSchema, 503: HealthUnavailableSchema, ...ERROR_RESPONSES } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      try {
        return { status: 'ok', outbox: await probe() } satisfies HealthOk;
      } catch (error) {
        // An unreachable database is logged once per outage (DatabaseWatch), not per check.
        if (!watch.failed(error)) request.log.error({ err: error }, 'health check: the database does not take writes');
        return reply
          .code(503)
          .header('retry-after', DATABASE_RETRY_AFTER_SECONDS)
          .send({ status: 'unavailable', error: { code: 'DATABASE_UNAVAILABLE', message: MESSAGES.unavailable } });
      }
    },
  );
};
