/**
 * The one entry into the site for the composition (app.ts): the plugin that registers the public
 * site, and the outbox backlog the server's metrics report. The staff console uses what it may of
 * the site through the entries of content/ and leads/ instead.
 */
export { default as sitePlugin, type SitePluginOptions } from './site-plugin';
export { outboxBacklog } from './leads/outbox/outbox-repository';
