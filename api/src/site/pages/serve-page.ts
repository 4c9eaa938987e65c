import { formTokenField, isStaffPath, localBuildOrigin, matchPageRoute, pageRenderUrl, releaseSet, UNKNOWN_PAGE, type FormName, type RemotesDocument } from '@agency/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cachedBody } from '../../platform/http/cached-body';
import { acceptedEncoding, sendCached } from '../../platform/http/send-cached';
import { OVERRIDE_CACHE_CONTROL, withOverrideBanner, withPreviewBanner, type SentPage, type VisitorReleases } from '../../delivery';
import { NO_CACHE } from '../../platform/http/cache-policy';
import { admitRemoteOrigin } from '../../platform/plugins/security-headers';
import type { CachedPage, PageCache } from './page-cache';
import type { PageGeneration } from './page-generation';
import type { createPageRenderer } from './render-page';

/**
 * Pages may be kept by a shared cache (the shell's nginx, a CDN) for a second, served stale for
 * ten more while it asks again in the background, and for ten minutes while the site cannot
 * answer; browsers ask every time. Asking again is cheap: the ETag of a page no release or
 * content change touched still matches (304).
 */
export const PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=1, stale-while-revalidate=10, stale-if-error=600';

/**
 * While a canary runs, a page depends on the visitor's bucket cookie: only the browser may keep
 * it (asking again each time). The server still keeps one copy per release set.
 */
export const CANARY_PAGE_CACHE_CONTROL = 'private, no-cache';

/** A preview is for one browser, and never kept anywhere. */
export const PREVIEW_PAGE_CACHE_CONTROL = 'private, no-store';

/**
 * A page with forms carries each response's own form tokens: only the browser that asked may keep
 * it, asking again each time (there is no ETag to match: no two responses are the same).
 */
export const FORM_PAGE_CACHE_CONTROL = 'private, no-cache';

/** The staff console's pages: for one signed-in person, kept nowhere, indexed by no search engine. */
export const STAFF_PAGE_CACHE_CONTROL = 'no-store';

/**
 * The redirect from another spelling of a page's path to its own: kept by the browser that asked,
 * never by a shared cache, so however many spellings are asked for, nginx and a CDN keep pages
 * under their one address only.
 */
export const CANONICAL_REDIRECT_CACHE_CONTROL = 'private, max-age=3600';

/**
 * The route `url`'s path names (UNKNOWN_PAGE for none), or undefined once it has answered with a
 * 301 to the page's own spelling: when the path is another spelling of it (case, percent-encoded
 * plain characters, doubled or trailing slashes, dot segments); its query is kept. A path that
 * names no page is answered 404 as it is.
 */
function routeOrRedirect(url: string, reply: FastifyReply): string | undefined {
  const queryStart = url.indexOf('?');
  const pathname = queryStart < 0 ? url : url.slice(0, queryStart);
  const route = matchPageRoute(pathname);
  if (!route) return UNKNOWN_PAGE;
  if (route.path === pathname) return route.pattern;
  reply.header('cache-control', CANONICAL_REDIRECT_CACHE_CONTROL).redirect(`${route.path}${queryStart < 0 ? '' : url.slice(queryStart)}`, 301);
  return undefined;
}

export interface PageServerOptions {
  renderer: ReturnType<typeof createPageRenderer>;
  cache: PageCache;
  generation: () => Promise<PageGeneration>;
  /** The releases this visitor gets (a canary's bucket, a preview), with the cookies that say so set. */
  visitorReleases: (request: FastifyRequest, reply: FastifyReply) => Promise<VisitorReleases>;
  /** The site's public origin (SITE_URL): never the request's Host, which the client chooses. */
  origin: string;
  /** A fresh form token for `form` (the spam defence's), for each form on a page sent. */
  formToken: (form: FormName) => string;
  /** Each page request: answered from the cache (or a render another request started), or rendered for it. */
  onLookup?(result: 'hit' | 'miss'): void;
  /** Each render's duration, in seconds. */
  onRender?(seconds: number): void;
  /** A page was sent (rendered or kept, any status): its releases, the apps on it and its route. */
  onPageSent?(request: FastifyRequest, page: SentPage): void;
}

/**
 * Answers a page request from the page cache, rendering it on a miss. The page is rendered from
 * the part of the address it reads (pageRenderUrl) and the release set the visitor gets, and
 * nothing else of the request: no header, cookie or other query parameter can put a byte into a
 * page another visitor is then sent. Pages of each release set are kept apart (a canary's
 * candidate and the current release side by side); a preview and an override are rendered for
 * their browser alone, never read from the cache nor put into it.
 * False, with nothing sent, when there is no shell build to render pages with.
 */
export function createPageServer({ renderer, cache, generation, visitorReleases, origin, formToken, onLookup = () => {}, onRender = () => {}, onPageSent = () => {} }: PageServerOptions) {
  /** What follows a page with forms' kept start in this response: a token field for each form, then the page's tail. */
  const formsEnd = (forms: NonNullable<CachedPage['forms']>) => forms.names.map((form) => formTokenField(form, formToken(form))).join('') + forms.tail;
  /** A page's whole markup as this response sends it. */
  const markupOf = (page: CachedPage) => (page.forms ? page.body.start + formsEnd(page.forms) : page.body.text);

  /** The release sets pages of this generation were rendered for, by their key: what a render ahead needs. */
  let sets = new Map<string, RemotesDocument>();
  let setsGeneration: string | undefined;

  async function timedRender(url: string, remotes: RemotesDocument, request: FastifyRequest) {
    const started = performance.now();
    try {
      return await renderer.render(url, remotes, origin, request.log);
    } finally {
      onRender((performance.now() - started) / 1000);
    }
  }

  /** A console page: the shell's frame rendered for this request alone (the console draws itself in the browser). */
  async function serveStaffPage(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const visitor = await visitorReleases(request, reply);
    const page = await timedRender(pageRenderUrl(request.url), visitor.remotes, request);
    if (!page) return false;
    reply.code(page.status).header('x-robots-tag', 'noindex, nofollow').header('cache-control', STAFF_PAGE_CACHE_CONTROL).type('text/html; charset=utf-8');
    reply.send(page.html);
    return true;
  }

  return async function servePage(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    if (isStaffPath(request.url.split('?')[0] ?? '')) return serveStaffPage(request, reply);
    const pattern = routeOrRedirect(request.url, reply);
    if (pattern === undefined) return true;
    const [{ key }, visitor] = await Promise.all([generation(), visitorReleases(request, reply)]);
    const url = pageRenderUrl(request.url);
    if (visitor.override) {
      const { override } = visitor;
      const page = await timedRender(url, visitor.remotes, request);
      if (!page) return false;
      onLookup('miss');
      // The overridden remote is the member's own try: its page counts for no release of it.
      onPageSent(request, { remotes: visitor.remotes, apps: page.apps.filter((app) => app !== override.app), pattern });
      // A build from the member's machine loads from there: this response's policy alone admits it.
      if ('port' in override.target) admitRemoteOrigin(reply, localBuildOrigin(override.target.port));
      reply.code(page.status).header('x-robots-tag', 'noindex');
      sendCached(request, reply, cachedBody(withOverrideBanner(page.html, override, request.url)), {
        contentType: 'text/html; charset=utf-8',
        cacheControl: OVERRIDE_CACHE_CONTROL,
      });
      return true;
    }
    if (visitor.preview) {
      const page = await timedRender(url, visitor.remotes, request);
      if (!page) return false;
      onLookup('miss');
      onPageSent(request, { remotes: visitor.remotes, apps: page.apps, pattern });
      reply.code(page.status).header('x-robots-tag', 'noindex');
      sendCached(request, reply, cachedBody(withPreviewBanner(page.html, visitor, request.url)), {
        contentType: 'text/html; charset=utf-8',
        cacheControl: PREVIEW_PAGE_CACHE_CONTROL,
      });
      return true;
    }
    if (key !== setsGeneration) {
      setsGeneration = key;
      sets = new Map();
    }
    const set = JSON.stringify(releaseSet(visitor.remotes));
    sets.set(set, visitor.remotes);
    let rendered = false;
    // The cache's address is the release set and the page's; a render ahead (after a release) of
    // a set no visitor has asked for in this generation is skipped.
    const page = await cache.get(key, `${set}\n${url}`, async (target) => {
      const split = target.indexOf('\n');
      const remotes = sets.get(target.slice(0, split));
      if (!remotes) return undefined;
      rendered = true;
      return timedRender(target.slice(split + 1), remotes, request);
    });
    if (!page) return false;
    onLookup(rendered ? 'miss' : 'hit');
    onPageSent(request, { remotes: visitor.remotes, apps: page.apps, pattern });
    if (visitor.previewNotice) {
      // A preview link that cannot be used (forged, altered, expired) shows the page everyone
      // gets, as kept, with the banner that says so: it costs no render, however many are sent.
      reply.code(page.status).header('x-robots-tag', 'noindex').header('cache-control', PREVIEW_PAGE_CACHE_CONTROL).type('text/html; charset=utf-8');
      reply.send(withPreviewBanner(markupOf(page), visitor, request.url));
      return true;
    }
    if (page.forms) {
      const encoding = acceptedEncoding(request);
      reply.code(page.status).header('cache-control', FORM_PAGE_CACHE_CONTROL).header('vary', 'accept-encoding').type('text/html; charset=utf-8');
      if (encoding) reply.header('content-encoding', encoding);
      reply.send(page.body.closedWith(formsEnd(page.forms), encoding));
      return true;
    }
    sendCached(request, reply.code(page.status), page.body, {
      contentType: 'text/html; charset=utf-8',
      // During a canary even a page rendered without some part depends on the bucket: private too.
      cacheControl: visitor.canary ? CANARY_PAGE_CACHE_CONTROL : page.cacheable ? PAGE_CACHE_CONTROL : NO_CACHE,
    });
    return true;
  };
}
