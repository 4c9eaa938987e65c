import { sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../db/connection';
import { MESSAGES } from '../validation/errors';
import { errorResponseSchema } from '../validation/schemas';

export const healthRoutes: FastifyPluginAsync<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/health',
    {
      schema: {
        response: {
          200: { type: 'object', required: ['status'], properties: { status: { type: 'string' } } },
          503: {
            type: 'object',
            required: ['status', 'error'],
            properties: { status: { type: 'string' }, error: errorResponseSchema.properties.error },
          },
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      try {
        await sql`select 1`.execute(db.kysely);
        return { status: 'ok' };
      } catch (error) {
        request.log.error({ err: error }, 'health check: database does not answer');
        return reply
          .code(503)
          .send({ status: 'unavailable', error: { code: 'DATABASE_UNAVAILABLE', message: MESSAGES.unavailable } });
      }
    },
  );
};
