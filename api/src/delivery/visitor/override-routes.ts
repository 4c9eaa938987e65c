import { REMOTE_OVERRIDE_EXIT_PATH } from '@agency/shared';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { exitTarget, SITE_PATH } from './preview-routes';
import type { RemoteOverrides } from './remote-override';

/**
 * `GET /override/exit?to=/blog`: the override banner's exit link. The override cookie is cleared
 * and the browser sent back to the page (only ever a path of this site) as everyone else sees it.
 * A GET anyone can send: ending an override harms nobody, so no session or token is asked for.
 */
export const registerOverrideRoutes: FastifyPluginAsyncTypebox<{ overrides: Pick<RemoteOverrides, 'clear'> }> = async (app, { overrides }) => {
  app.get(
    REMOTE_OVERRIDE_EXIT_PATH,
    { schema: { querystring: Type.Object({ to: Type.Optional(Type.String({ pattern: SITE_PATH, maxLength: 2000 })) }) } },
    async (request, reply) => {
      overrides.clear(reply);
      return reply.header('cache-control', 'no-store').redirect(exitTarget(request.query.to), 303);
    },
  );
};
