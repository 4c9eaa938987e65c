import type { FastifyRequest } from 'fastify';

/**
 * The origin absolute links are built on (`https://example.com`, no trailing slash).
 * SITE_URL wins: the Host header is chosen by the client, and search engines should see one
 * canonical origin however the site was reached. Without it, the request's own origin keeps
 * local and preview deployments working; Fastify 5's `request.host` and `request.protocol`
 * already read X-Forwarded-Host/-Proto when the proxy is trusted (TRUST_PROXY).
 */
export function siteOrigin(request: FastifyRequest, configured: string | undefined): string {
  if (configured) return configured;
  return `${request.protocol}://${request.host}`;
}
