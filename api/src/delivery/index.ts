/**
 * The one entry into delivery (releases, each visitor's choice of them, release health, canary
 * decisions, the release API) for the rest of the API: the plugin (for app.ts), and what the site's
 * pages and files ask of it. Delivery imports nothing of the site or the console; the site uses
 * delivery through this file only, the console not at all (its «Релізи» reaches releases through
 * `app.delivery.releaseDesk`, a browser's override through `app.delivery.remoteOverrides`, in the
 * contracts' shapes): lint rules keep each direction. Its
 * command (`npm run release`) lives inside it, in cli/.
 */
export { default as deliveryPlugin, type Delivery, type DeliveryPluginOptions } from './delivery-plugin';
export type { SentPage } from './health/evidence-intake';
export type { BeaconListener } from './health/telemetry-routes';
export type { VisitorReleases } from './visitor/visitor-releases';
export { withOverrideBanner, withPreviewBanner } from './visitor/preview-banner';
export { OVERRIDE_CACHE_CONTROL } from './visitor/remote-override';
export { APP_NAMES, SHELL, distDir, entryFile, isRemote, type AppName } from './releases/apps';
export { REFRESH_MS as RELEASES_REFRESH_MS } from './releases/reader';
export { RELEASE_MANIFEST } from './artifacts/release-files';
