import { pageRenderUrl } from '@agency/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendCached } from '../cache/send-cached';
import { NO_CACHE } from '../static/cache-policy';
import type { PageCache } from './page-cache';
import type { PageGeneration } from './page-generation';
import type { createPageRenderer } from './render-page';

/**
 * Pages may be kept by a shared cache (the shell's nginx, a CDN) for a second, served stale for
 * ten more while it asks again in the background, and for ten minutes while the site cannot
 * answer; browsers ask every time. Asking again is cheap: the ETag of a page no release or
 * content change touched still matches (304).
 */
export const PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=1, stale-while-revalidate=10, stale-if-error=600';

export interface PageServerOptions {
  renderer: ReturnType<typeof createPageRenderer>;
  cache: PageCache;
  generation: () => Promise<PageGeneration>;
  /** The site's public origin (SITE_URL): never the request's Host, which the client chooses. */
  origin: string;
  /** Each page request: answered from the cache (or a render another request started), or rendered for it. */
  onLookup?(result: 'hit' | 'miss'): void;
  /** Each render's duration, in seconds. */
  onRender?(seconds: number): void;
}

/**
 * Answers a page request from the page cache, rendering it on a miss. The page is rendered from
 * the part of the address it reads (pageRenderUrl) and nothing else of the request: no header,
 * cookie or other query parameter can put a byte into a page another visitor is then sent.
 * False, with nothing sent, when there is no shell build to render pages with.
 */
export function createPageServer({ renderer, cache, generation, origin, onLookup = () => {}, onRender = () => {} }: PageServerOptions) {
  return async function servePage(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const { remotes, key } = await generation();
    const url = pageRenderUrl(request.url);
    let rendered = false;
    const page = await cache.get(key, url, async (target) => {
      rendered = true;
      const started = performance.now();
      try {
        return await renderer.render(target, remotes, origin, request.log);
      } finally {
        onRender((performance.now() - started) / 1000);
      }
    });
    if (!page) return false;
    onLookup(rendered ? 'miss' : 'hit');
    sendCached(request, reply.code(page.status), page.body, {
      contentType: 'text/html; charset=utf-8',
      cacheControl: page.cacheable ? PAGE_CACHE_CONTROL : NO_CACHE,
    });
    return true;
  };
}
