import { ERROR_RESPONSES, HealthOkSchema, HealthUnavailableSchema, type HealthOk } from '@agency/shared/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import type { Database } from '../db/connection';
import { MESSAGES } from '../validation/errors';

export const healthRoutes: FastifyPluginAsyncTypebox<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/health',
    { schema: { response: { 200: HealthOkSchema, 503: HealthUnavailableSchema, ...ERROR_RESPONSES } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      try {
        await sql`select 1`.execute(db.kysely);
        return { status: 'ok' } satisfies HealthOk;
      } catch (error) {
        request.log.error({ err: error }, 'health check: database does not answer');
        return reply
          .code(503)
          .send({ status: 'unavailable', error: { code: 'DATABASE_UNAVAILABLE', message: MESSAGES.unavailable } });
      }
    },
  );
};
