import { releaseSet, type RemotesDocument } from '@agency/shared';
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { REPO_ROOT, type AppConfig } from '../platform/config';
import { NO_CACHE } from '../platform/http/cache-policy';
import { toMinute } from '../platform/lib/minutes';
import { startCanaryController } from './canary/canary-controller';
import { createOpsWebhook } from '../platform/alerts/ops-webhook';
import { createReleaseMetrics, VITALS_WINDOW_MINUTES } from './health/release-metrics';
import { readVitalsP75 } from './health/release-health';
import { startSiteTelemetry } from './health/site-telemetry';
import type { BeaconListener } from './health/telemetry-routes';
import type { SentPage } from './health/evidence-intake';
import type { AppName } from './releases/apps';
import { importReleasesDir } from './releases/import-releases-dir';
import { knownReleases } from './releases/known-releases';
import { ReleaseReader } from './releases/reader';
import { openReleaseStorage } from './releases/release-storage';
import type { AppReleases, ReleaseInfo } from './releases/release-repository';
import { provisionReleaseTokens } from './release-api/release-tokens';
import { registerReleaseApi } from './release-api/release-api-routes';
import { createReleaseDesk, type ReleaseDesk } from './release-desk/release-desk';
import { remotesDocument } from './visitor/remotes-document';
import { loadPreviewSecret, previewUrl, signPreviewToken } from './visitor/preview-token';
import { registerPreviewRoutes } from './visitor/preview-routes';
import { registerOverrideRoutes } from './visitor/override-routes';
import { createRemoteOverrides, OVERRIDE_CACHE_CONTROL, OVERRIDE_SECRET, type RemoteOverrides } from './visitor/remote-override';
import { siteSecret } from '../platform/db/site-secrets';
import { createVisitorReleases, type VisitorReleases } from './visitor/visitor-releases';

/** What the site asks of delivery: which releases a request gets, and what happened to them. */
export interface Delivery {
  /** The releases this request's visitor gets (a canary's bucket, a preview); with `reply`, the cookies that say so are set. */
  visitorReleases(request: FastifyRequest, reply?: FastifyReply): Promise<VisitorReleases>;
  /** Where the shell loads each remote from now, for visitors outside any canary or preview. */
  currentRemotes(): Promise<RemotesDocument>;
  /**
   * An app's kept releases with their folders on this machine, and its current one (re-read about
   * once a second; `fresh`: now, for a release another process may have just published).
   */
  releasesOf(app: AppName, options?: { fresh?: boolean }): Promise<AppReleases<ReleaseInfo>>;
  /** A page was sent: counted for the releases on it, without holding up the answer. */
  pageSent(request: FastifyRequest, page: SentPage): void;
  /** A server render failed in an app's release: release health (and a canary's judge) sees it. */
  renderFailed(app: string, release: string): void;
  /**
   * Overrides for one browser, as the console sets them (through app.ts: the console does not
   * import delivery): the cookie's view, setting and ending it.
   */
  remoteOverrides: Pick<RemoteOverrides, 'of' | 'set' | 'clear'>;
  /**
   * Tells `listener` of every beacon the telemetry route accepts (valid by its schema), with its
   * request: the site's own counting reads the page views from it.
   */
  onBeacon(listener: BeaconListener): void;
  /**
   * What the staff console's «Релізи» reads of releases and does to them (as a person, with the
   * release API's commands, gate and rules): the console imports nothing of delivery.
   */
  releaseDesk: ReleaseDesk;
}

declare module 'fastify' {
  interface FastifyInstance {
    delivery: Delivery;
  }
}

export interface DeliveryPluginOptions {
  config: Pick<
    AppConfig,
    | 'releasesDir'
    | 'releaseStore'
    | 'releaseCacheDir'
    | 'releaseTokens'
    | 'releaseUploadMaxBytes'
    | 's3'
    | 'releasesKeep'
    | 'staticRoot'
    | 'remoteUrls'
    | 'previewSecret'
    | 'siteUrl'
    | 'opsWebhook'
    | 'telemetry'
  >;
  /**
   * Whether a staff session (by its hash) is still live and its member may still act on `app`'s
   * releases: asked for each request that carries an override (app.ts asks the console). Without
   * it no override applies.
   */
  overrideHolder?: (session: string, app: AppName) => Promise<boolean>;
}

/** `make()` the first time the result is asked for, that result after (a failed promise is asked again). */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make().catch((error: unknown) => {
    made = undefined;
    throw error;
  }));
}

/** Who the site's own release decisions (a canary's automatic promotion or rollback) are recorded as. */
const SITE_ACTOR = 'site';

/**
 * Progressive delivery: published releases, each visitor's choice of them (canary buckets,
 * previews, `/remotes.json`), release health from browsers and served pages, and the canary
 * decisions made on it. Needs the database and metrics plugins; its workers stop on close,
 * pending telemetry written before the database closes.
 */
async function deliveryPlugin(app: FastifyInstance, { config, overrideHolder = async () => false }: DeliveryPluginOptions): Promise<void> {
  const { db } = app;
  const { store, cache } = openReleaseStorage(config);
  // Releases kept in a folder before the database held them come in once.
  await importReleasesDir(db, store, config.releasesDir, app.log);
  if (config.releaseTokens) {
    const { stillRevoked } = await provisionReleaseTokens(db, config.releaseTokens, config.siteUrl);
    if (stillRevoked.length > 0) app.log.warn({ tokens: stillRevoked }, 'RELEASE_TOKENS names tokens revoked with `npm run release -- tokens revoke`: they stay revoked');
  }
  // Published releases (npm run release, the release API), re-read about once a second: no restart to switch.
  const releases = new ReleaseReader(db, cache, (error) =>
    app.log.error({ err: error, store: store.location }, 'cannot read the published releases; serving the last known state'),
  );
  const currentRemotes = () => remotesDocument(releases, config.remoteUrls);
  // An https site sends its cookies over https only.
  const secureCookies = config.siteUrl.startsWith('https:');
  const previewSecret = once(() => loadPreviewSecret(config.previewSecret, db));
  const overrides = createRemoteOverrides({ releases, secret: once(() => siteSecret(db, OVERRIDE_SECRET)), holderMayOverride: overrideHolder, secureCookies });
  const visitorReleases = createVisitorReleases({ releases, remoteUrls: config.remoteUrls, previewSecret, overrides, secureCookies });

  const metrics = createReleaseMetrics(app.metrics.registry, {
    currentReleases: async () => releaseSet(await currentRemotes()),
    vitalsP75: () => readVitalsP75(db, toMinute(Date.now()) - VITALS_WINDOW_MINUTES),
    knownReleases: async () => knownReleases(releases, await currentRemotes()),
  });
  const telemetry = startSiteTelemetry({ db, config: config.telemetry, releases, visitorReleases, metrics, log: app.log });
  // A canary's candidate is promoted or rolled back on the evidence telemetry keeps, by one process at a time.
  const context = { db, store, staticRoot: config.staticRoot, remoteUrls: config.remoteUrls, keep: config.releasesKeep, repoRoot: REPO_ROOT };
  const canaries = startCanaryController({
    db,
    context: { ...context, actor: SITE_ACTOR },
    releases,
    log: app.log,
    site: config.siteUrl,
    notify: config.opsWebhook && createOpsWebhook(config.opsWebhook, app.log),
  });
  app.addHook('onClose', async () => {
    await Promise.all([telemetry.stop(), canaries.stop()]);
  });

  // Read on every request (a canary's bucket, a preview's token); set only on pages (visitor/visitor-releases).
  await app.register(cookie);
  await telemetry.registerRoutes(app);
  // What a page asks after a failed load: the same releases as its page (its bucket, its preview).
  app.get('/remotes.json', async (request, reply) => {
    const visitor = await visitorReleases(request);
    reply.header('cache-control', visitor.override ? OVERRIDE_CACHE_CONTROL : NO_CACHE);
    return visitor.remotes;
  });
  await app.register(registerPreviewRoutes, { secureCookies });
  await app.register(registerOverrideRoutes, { overrides });
  // Teams' CI release through HTTP with their tokens.
  const previewLinks = async () => {
    const secret = await previewSecret();
    return (pin: { app: AppName; release: string }) => previewUrl(config.siteUrl, signPreviewToken(pin, secret));
  };
  // A report read right after a change (the command on the server, another API process) shows
  // it: read now, not the copy visitors' pages are served from, up to a second old.
  const freshReleasesOf = (name: AppName) => releases.get(name, { fresh: true });
  await app.register(registerReleaseApi, {
    context,
    siteUrl: config.siteUrl,
    uploadMaxBytes: config.releaseUploadMaxBytes,
    previewLinks,
    releasesOf: freshReleasesOf,
  });

  app.decorate('delivery', {
    visitorReleases,
    currentRemotes,
    releasesOf: (name: AppName, options?: { fresh?: boolean }) => releases.get(name, options),
    pageSent: telemetry.pageSent,
    renderFailed: telemetry.renderFailed,
    remoteOverrides: overrides,
    onBeacon: telemetry.onBeacon,
    releaseDesk: createReleaseDesk({ context, previewLinks, releasesOf: freshReleasesOf }),
  } satisfies Delivery);
}

export default fp(deliveryPlugin, { name: 'delivery', dependencies: ['database', 'metrics'] });
