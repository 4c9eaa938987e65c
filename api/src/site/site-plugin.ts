import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../platform/config';
import contentPlugin from './content/content-plugin';
import { seoRoutes } from './content/seo-routes';
import { readMedia } from './content/media-store';
import { startSiteAnalytics } from './analytics/site-analytics';
import { leadsPlugin } from './leads/leads-plugin';
import { LeadFollowUp } from './leads/follow-up/lead-follow-up';
import { SpamDefence } from './leads/spam/spam-defence';
import { livenessRoutes } from './liveness/liveness-routes';
import pagesPlugin from './pages/pages-plugin';
import { registerStatic } from './pages/static-files';

export interface SitePluginOptions {
  config: AppConfig;
}

/**
 * The public site: liveness, content and its SEO files, the leads visitors send (stored, then
 * delivered by the outbox worker), the apps' static files and media, and the server-rendered
 * pages, which answer every path no route does. Its background work stops on close, before the
 * database closes. Registered without encapsulation: the pages' not-found handler is the whole
 * server's.
 */
async function sitePlugin(app: FastifyInstance, { config }: SitePluginOptions): Promise<void> {
  await app.register(livenessRoutes, { db: app.db, watch: app.databaseWatch });
  await app.register(contentPlugin, { config });
  await app.register(seoRoutes, { db: app.db, siteUrl: config.siteUrl });
  // The leads' routes judge submissions with it, the pages give their forms its tokens, the
  // console tunes it: one per app, on the app.
  app.decorate('spamDefence', await SpamDefence.open(app.db));
  app.decorate('leadFollowUp', new LeadFollowUp(app.db, config.leads.email !== undefined, app.clock));
  const analytics = startSiteAnalytics({ db: app.db, delivery: app.delivery, clock: app.clock, log: app.log });
  app.addHook('onClose', () => analytics.stop());
  await app.register(leadsPlugin, { config, onLeadStored: analytics.leadArrived });
  await registerStatic(app, {
    staticRoot: config.staticRoot,
    releasesOf: app.delivery.releasesOf,
    mediaDir: config.mediaDir,
    readMedia: (name) => readMedia(app.db, name),
  });
  await app.register(pagesPlugin, { config });
}

export default fp(sitePlugin, { name: 'site', dependencies: ['database', 'metrics', 'delivery'] });
