/**
 * The one entry into delivery (releases, each visitor's choice of them, release health, canary
 * decisions). The site and the CLI import delivery from here only, and delivery imports nothing
 * of the site: a lint rule keeps both directions.
 */

// The server: the plugin and what the site's pages and files ask of it.
export { default as deliveryPlugin, type Delivery, type DeliveryPluginOptions } from './delivery-plugin';
export type { SentPage } from './health/evidence-intake';
export type { VisitorReleases } from './visitor/visitor-releases';
export { withPreviewBanner } from './visitor/preview-banner';
export { APP_NAMES, SHELL, appFolder, distDir, entryFile, isAppName, isRemote, type AppName } from './releases/apps';
export { REFRESH_MS as RELEASES_REFRESH_MS } from './releases/reader';
export type { AppReleases, ReleaseInfo } from './releases/store';

// The release command (npm run release).
export {
  abort,
  canary,
  describeCanary,
  list,
  promote,
  promoteCandidate,
  publish,
  RefusedError,
  rollback,
  stage,
  type CanaryOptions,
  type ListedRelease,
  type ListResult,
  type PublishedBuild,
  type ReleaseContext,
  type ReleaseResult,
} from './releases/commands';
export { LockHeldError } from './releases/lock';
export { loadPreviewSecret, previewUrl, signPreviewToken } from './visitor/preview-token';
export { DEFAULT_STATUS_WINDOW_MS, parseSince, releaseStatus, type ReleaseStatus } from './status/release-status';
