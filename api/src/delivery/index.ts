/**
 * The one entry into delivery (releases, each visitor's choice of them, release health, canary
 * decisions, the release API). The site and the CLI import delivery from here only, and delivery
 * imports nothing of the site: a lint rule keeps both directions.
 */

// The server: the plugin and what the site's pages and files ask of it.
export { default as deliveryPlugin, type Delivery, type DeliveryPluginOptions } from './delivery-plugin';
export type { SentPage } from './health/evidence-intake';
export type { VisitorReleases } from './visitor/visitor-releases';
export { withPreviewBanner } from './visitor/preview-banner';
export { APP_NAMES, SHELL, appFolder, distDir, entryFile, isAppName, isRemote, type AppName } from './releases/apps';
export { REFRESH_MS as RELEASES_REFRESH_MS } from './releases/reader';
export { RELEASE_MANIFEST } from './artifacts/release-files';
export { loadAppReleases, withFolders, type AppReleases, type ReleaseInfo, type ReleaseRecord } from './releases/release-repository';

// The release command (npm run release), on the server.
export {
  abort,
  canary,
  DEFAULT_MIN_VIEWS,
  describeCanary,
  list,
  promote,
  promoteCandidate,
  publish,
  rollback,
  stage,
  type CanaryOptions,
  type ListedRelease,
  type ListResult,
  type PublishedBuild,
  type ReleaseBuild,
  type ReleaseContext,
  type ReleaseResult,
} from './releases/commands';
export { ConcurrentChangeError, RefusedError } from './releases/refused-error';
export { readBuildFolder } from './releases/build-folder';
export { openReleaseStorage, type ReleaseStorage } from './releases/release-storage';
export { loadPreviewSecret, previewUrl, signPreviewToken } from './visitor/preview-token';
export { DEFAULT_STATUS_WINDOW_MS, parseSince, releaseStatus, type ReleaseStatus } from './status/release-status';

// The release API and its tokens (npm run release -- tokens …; --site/--token from any machine).
export { RELEASE_API_PATH } from './release-api/release-api-routes';
export { packReleaseArchive } from './release-api/release-archive';
export {
  checkTokenApps,
  checkTokenName,
  createReleaseToken,
  listReleaseTokens,
  ReleaseTokenError,
  revokeReleaseToken,
  type ReleaseTokenInfo,
} from './release-api/release-tokens';
