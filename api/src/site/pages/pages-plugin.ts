import { releaseSet, REMOTES_PATH } from '@agency/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../../platform/config';
import { RELEASES_REFRESH_MS } from '../../delivery';
import { ApiError, MESSAGES } from '../../platform/http/api-error';
import { PageCache, PAGE_CACHE_MAX_ENTRIES } from './page-cache';
import { createPageGeneration } from './page-generation';
import { createPageRenderer } from './render-page';
import { createPageServer } from './serve-page';
import { SlotMarkupMemo, SLOT_MARKUP_MAX_ENTRIES, SLOT_MARKUP_SHARE } from './slot-markup-memo';

export interface PagesPluginOptions {
  config: Pick<AppConfig, 'staticRoot' | 'remoteBuildsDir' | 'siteUrl' | 'pageCacheMaxBytes' | 'telemetry'>;
}

/** A name with an extension (`/missing.js`, `/../secret.txt`) asks for a file, not a page; `.html` names are pages. */
function isPagePath(pathname: string): boolean {
  const isApi = pathname === '/api' || pathname.startsWith('/api/');
  const isFile = /\.(?!html?$)[a-z0-9]+$/i.test(pathname.slice(pathname.lastIndexOf('/') + 1));
  return !isApi && !isFile && !pathname.startsWith(REMOTES_PATH) && !pathname.startsWith('/media/');
}

/**
 * Every page path is rendered on the server (404 for what does not exist) from the releases the
 * visitor gets, kept in memory per release set and content revision, then run in the browser.
 * Pages have no route pattern: they answer what no route does; anything else is a JSON 404.
 */
async function pagesPlugin(app: FastifyInstance, { config }: PagesPluginOptions): Promise<void> {
  const { delivery, metrics, contentCache } = app;
  const slotMarkupBytes = Math.floor(config.pageCacheMaxBytes * SLOT_MARKUP_SHARE);
  const renderer = createPageRenderer({
    app,
    releasesOf: delivery.releasesOf,
    staticRoot: config.staticRoot,
    remoteBuildsDir: config.remoteBuildsDir,
    telemetrySample: config.telemetry.enabled ? config.telemetry.sample : 0,
    onRenderError: delivery.renderFailed,
    slotMarkup: new SlotMarkupMemo({ maxBytes: slotMarkupBytes, maxEntries: SLOT_MARKUP_MAX_ENTRIES }),
  });
  const servePage = createPageServer({
    renderer,
    cache: new PageCache({ maxBytes: config.pageCacheMaxBytes - slotMarkupBytes, maxEntries: PAGE_CACHE_MAX_ENTRIES }),
    generation: createPageGeneration({
      remotesDocument: delivery.currentRemotes,
      contentRevision: () => contentCache.revision(),
      origin: config.siteUrl,
      staticRoot: config.staticRoot,
      remoteBuildsDir: config.remoteBuildsDir,
    }),
    visitorReleases: delivery.visitorReleases,
    origin: config.siteUrl,
    formToken: (form) => app.spamDefence.tokens.issue(form),
    onLookup: metrics.pageCache,
    onRender: metrics.pageRender,
    onPageSent: delivery.pageSent,
  });

  // The server bundles of the releases visitors get are loaded once the server is up and after
  // every release, as often as the releases are re-read, before a page asks for them.
  let prepared: string | undefined;
  const prepareCurrent = async () => {
    const remotes = await delivery.currentRemotes();
    const releases = JSON.stringify(releaseSet(remotes));
    if (releases === prepared) return;
    await renderer.prepare(remotes);
    prepared = releases;
  };
  let preparing: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    preparing = preparing.then(prepareCurrent).catch((error: unknown) => app.log.warn({ err: error }, 'loading the server bundles ahead of a page failed'));
  }, RELEASES_REFRESH_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await preparing;
  });

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    if (isPagePath(pathname) && (request.method === 'GET' || request.method === 'HEAD')) {
      if (await servePage(request, reply)) return reply;
    }
    const error = new ApiError(404, 'NOT_FOUND', MESSAGES.notFound);
    return reply.code(404).header('cache-control', 'no-store').send(error.toBody());
  });
}

export default fp(pagesPlugin, { name: 'pages', dependencies: ['delivery', 'metrics', 'content'] });
