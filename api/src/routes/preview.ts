import { PREVIEW_COOKIE, PREVIEW_EXIT_PATH } from '@agency/shared';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { deliveryCookieOptions } from '../delivery/visitor-releases';

export interface PreviewRoutesOptions {
  secureCookies: boolean;
}

/** A path of this site to go back to: one leading slash (never `//host`), no backslash or control character. */
const SITE_PATH = '^/(?![/\\\\])[^\\\\\\u0000-\\u001f]*$';

/**
 * `GET /preview/exit?to=/blog`: the banner's exit link. The preview cookie is cleared and the
 * visitor is sent back to the page (only ever a path of this site) as everyone else sees it.
 */
export const registerPreviewRoutes: FastifyPluginAsyncTypebox<PreviewRoutesOptions> = async (app, { secureCookies }) => {
  app.get(
    PREVIEW_EXIT_PATH,
    { schema: { querystring: Type.Object({ to: Type.Optional(Type.String({ pattern: SITE_PATH, maxLength: 2000 })) }) } },
    async (request, reply) => {
      reply.clearCookie(PREVIEW_COOKIE, deliveryCookieOptions(secureCookies));
      // Percent-encoded as a Location header must be (`/блог`, a space): the pattern let only a path through.
      const target = new URL(request.query.to ?? '/', 'http://site.invalid');
      return reply.header('cache-control', 'no-store').redirect(`${target.pathname}${target.search}`, 303);
    },
  );
};
