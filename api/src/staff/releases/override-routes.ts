import { ERROR_RESPONSES, RemoteOverrideBodySchema, RemoteOverrideParamsSchema, RemoteOverrideStateSchema } from '@agency/shared/contracts';
import { isOverridableRemote, type RemoteName, type RemoteOverrideView } from '@agency/shared';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../platform/db/connection';
import { recordAudit } from '../../platform/audit/audit-log';
import { ApiError } from '../../platform/http/api-error';
import { STAFF_MESSAGES } from '../common/staff-messages';
import { sessionOf } from '../sessions/staff-guard';
import { checkMayAct } from './release-rights';

/** What the console needs of delivery's overrides (app.delivery.remoteOverrides): the console imports nothing of delivery. */
export interface OverrideCookie {
  /** This browser's override, when the signed-in session `session` (its hash) set it. */
  of(request: FastifyRequest, session: string): Promise<RemoteOverrideView | undefined>;
  /** Sets this browser's override (replacing any); undefined, with nothing set, when the release is not kept. */
  set(reply: FastifyReply, override: { app: RemoteName; target: { release: string } | { port: number }; session: string }): Promise<RemoteOverrideView | undefined>;
  clear(reply: FastifyReply): void;
}

/**
 * Overrides for one browser (`/api/staff/releases…/override`): a release manager points one
 * remote of the public pages, for their own browser, at a kept release of it or at a build their
 * own machine serves on `http://localhost:<port>/`. Staff routes, so the guard's session, Origin
 * and CSRF token stand between a link someone sends and the cookie; the cookie names the session,
 * so the override ends with it (or when the member may no longer act on the app). One per
 * browser: setting another replaces it. Setting one is audited; ending one (also the banner's
 * GET link, delivery's) harms nobody and is not.
 */
export const overrideRoutes: FastifyPluginAsyncTypebox<{ db: Db; cookie: OverrideCookie }> = async (app, { db, cookie }) => {
  const access = { staffRole: 'releases' as const };
  const response = { 200: RemoteOverrideStateSchema, ...ERROR_RESPONSES };

  /** Refuses an app an override may not replace (not a remote of the public pages), or one the member may not act on. */
  function checkOverridable(request: FastifyRequest, name: string): void {
    if (!isOverridableRemote(name)) throw new ApiError(404, 'NOT_FOUND', STAFF_MESSAGES.overrideNotARemote(name));
    checkMayAct(sessionOf(request).member, name);
  }

  app.get('/api/staff/releases/override', { config: access, schema: { response } }, async (request) => ({
    override: (await cookie.of(request, sessionOf(request).idHash)) ?? null,
  }));

  app.post(
    '/api/staff/releases/:app/override',
    {
      config: access,
      // Refused before the body is read unless the member may act on the app.
      preValidation: async (request) => checkOverridable(request, (request.params as { app: string }).app),
      schema: { params: RemoteOverrideParamsSchema, body: RemoteOverrideBodySchema, response },
    },
    async (request, reply) => {
      const { idHash, member } = sessionOf(request);
      const name = request.params.app;
      const { release, port } = request.body;
      const target = release !== undefined ? { release } : { port: port! };
      const override = await cookie.set(reply, { app: name, target, session: idHash });
      if (!override) throw new ApiError(404, 'NOT_FOUND', STAFF_MESSAGES.overrideReleaseNotKept(name));
      await recordAudit(db.kysely, { actorId: member.id, actor: member.email, action: 'remote-override-set', target: `releases:${name}`, address: request.ip, detail: target });
      return { override };
    },
  );

  app.delete('/api/staff/releases/:app/override', { config: access, schema: { params: RemoteOverrideParamsSchema, response } }, async (request, reply) => {
    const current = await cookie.of(request, sessionOf(request).idHash);
    // Ends this browser's override of `:app`; one of another app stays.
    if (current && current.app !== request.params.app) return { override: current };
    cookie.clear(reply);
    return { override: null };
  });
};
