import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';
import { STAFF_PREVIEW_PATH, type RemoteName } from '@agency/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';

type RemoteUrls = Partial<Record<RemoteName, string>>;

/** Origins of remote manifest URLs that point to another origin (absolute URLs). */
export function remoteOrigins(remoteUrls: RemoteUrls): string[] {
  const origins = new Set<string>();
  for (const url of Object.values(remoteUrls)) {
    if (!url || !/^https?:\/\//i.test(url)) continue;
    try {
      origins.add(new URL(url).origin);
    } catch {
      // Not a URL: nothing to allow.
    }
  }
  return [...origins];
}

function contentSecurityPolicy(remoteUrls: RemoteUrls) {
  const origins = remoteOrigins(remoteUrls);
  return {
    // Only these directives: helmet's defaults would add upgrade-insecure-requests,
    // which breaks a site served over plain http (localhost, tests).
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...origins],
      connectSrc: ["'self'", ...origins],
      // react-select (emotion) injects <style> elements at run time; remotes ship CSS chunks.
      styleSrc: ["'self'", "'unsafe-inline'", ...origins],
      imgSrc: ["'self'", 'data:', ...origins],
      fontSrc: ["'self'", 'data:', ...origins],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
    },
  };
}

/** The directives a remote's build loads through: its manifest and chunks, its styles, fonts and images. */
const REMOTE_DIRECTIVES = new Set(['script-src', 'connect-src', 'style-src', 'img-src', 'font-src']);

/**
 * This response's Content-Security-Policy admits `origin` too, for what a remote's build loads:
 * a build a release manager's own machine serves for their browser (an override). Every other
 * response keeps the site's policy.
 */
export function admitRemoteOrigin(reply: FastifyReply, origin: string): void {
  const policy = reply.getHeader('content-security-policy');
  if (typeof policy !== 'string') return;
  const directives = policy.split(';').map((directive) => (REMOTE_DIRECTIVES.has(directive.trim().split(/\s+/)[0] ?? '') ? `${directive} ${origin}` : directive));
  reply.header('content-security-policy', directives.join(';'));
}

const NOT_FRAMED = "frame-ancestors 'none'";
const FRAMED_BY_OWN_PAGES = "frame-ancestors 'self'";

/** The staff console's previews: pages of this site that the console frames (nobody else may). */
function isFramedPage(url: string): boolean {
  return url === STAFF_PREVIEW_PATH || url.startsWith(`${STAFF_PREVIEW_PATH}/`);
}

/**
 * Security headers on every answer: a CSP that admits the remotes' origins, and the referrer
 * policy. No other site may frame a page; the console's previews may be framed by the site itself.
 */
async function securityHeaders(app: FastifyInstance, { remoteUrls }: { remoteUrls: RemoteUrls }): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: contentSecurityPolicy(remoteUrls),
    // helmet's default (no-referrer) would keep the page address off our own form posts, and the
    // agency stores it with each submission; other sites still get only our origin.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!isFramedPage(request.url.split('?')[0]!)) return;
    const policy = reply.getHeader('content-security-policy');
    if (typeof policy === 'string') reply.header('content-security-policy', policy.replace(NOT_FRAMED, FRAMED_BY_OWN_PAGES));
  });
}

export default fp(securityHeaders, { name: 'security-headers' });
