import { PREVIEW_COOKIE, PREVIEW_EXIT_PATH } from '@agency/shared';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { deliveryCookieOptions } from './visitor-releases';

export interface PreviewRoutesOptions {
  secureCookies: boolean;
}

/** A path of this site to go back to: one leading slash (never `//host`), no backslash or control character. */
export const SITE_PATH = '^/(?![/\\\\])[^\\\\\\u0000-\\u001f]*$';

const BASE = 'http://site.invalid';

/**
 * Where the exit link sends the visitor: `to` as the URL parser resolves it (dot segments, percent-
 * encoding), so the check reads what the Location header will say. A path that then starts with
 * `//` or `/\` (`/.//evil.example`, `/%2e%2e//evil.example`, `/./%2Fevil.example`), decoded or
 * not, would leave the site: it is replaced by `/`.
 */
export function exitTarget(to: string | undefined): string {
  const target = new URL(to ?? '/', BASE);
  let decoded: string;
  try {
    decoded = decodeURIComponent(target.pathname);
  } catch {
    return '/';
  }
  const offSite = (path: string) => /^\/[/\\]/.test(path);
  if (target.origin !== BASE || offSite(target.pathname) || offSite(decoded)) return '/';
  // Percent-encoded as a Location header must be (`/блог`, a space).
  return `${target.pathname}${target.search}`;
}

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
      return reply.header('cache-control', 'no-store').redirect(exitTarget(request.query.to), 303);
    },
  );
};
