import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { TelemetryConfig } from '../../platform/config';
import type { Database } from '../../platform/db/connection';
import { siteSecret } from '../../platform/db/site-secrets';
import type { ReleaseMetrics } from './release-metrics';
import type { ReleaseReader } from '../releases/reader';
import { telemetryRoutes, type BeaconListener } from './telemetry-routes';
import { createEvidenceIntake, TELEMETRY_CLIENT_KEY, type EvidenceIntakeOptions, type SentPage } from './evidence-intake';
import { TelemetryRecorder } from './telemetry-recorder';
import { startTelemetryPruning } from './telemetry-retention';

/** The page a failed server render is counted on in release health (the route is in the log line). */
const SERVER_RENDER_PAGE = '(server render)';

export interface SiteTelemetryOptions {
  db: Database;
  config: TelemetryConfig;
  releases: ReleaseReader;
  visitorReleases: EvidenceIntakeOptions['visitorReleases'];
  metrics: ReleaseMetrics;
  log: FastifyBaseLogger;
}

/**
 * What the site learns of each release: browsers' reports (POST /api/telemetry) and the pages the
 * server sends, aggregated in memory and written about once a second, kept within retention and
 * the tables' budgets. Started here; `stop` writes what is pending before the database closes.
 */
export function startSiteTelemetry({ db, config, releases, visitorReleases, metrics, log }: SiteTelemetryOptions) {
  const recorder = new TelemetryRecorder(db, (error) => log.warn({ err: error }, 'telemetry: writing reports failed; kept for the next try'), Date.now, {
    budget: config.budget,
    onDropped: metrics.telemetryDropped,
    onPruned: metrics.telemetryPruned,
  });
  recorder.start();
  const evidence = createEvidenceIntake({
    recorder,
    releases,
    visitorReleases,
    secret: () => siteSecret(db, TELEMETRY_CLIENT_KEY),
    onSecretError: (error) => log.warn({ err: error }, 'telemetry: cannot read the key clients are told apart by; reports are counted without it'),
  });
  const beaconListeners: BeaconListener[] = [];
  const pruning = startTelemetryPruning(db, config.retentionDays, () => recorder.enforceBudget(), log);

  return {
    /** The beacon route, when telemetry is on (TELEMETRY_ENABLED). */
    async registerRoutes(app: FastifyInstance): Promise<void> {
      if (!config.enabled) return;
      await app.register(telemetryRoutes, {
        recorder,
        admission: evidence.admission,
        reporter: evidence.reporter,
        onDropped: metrics.telemetryDropped,
        rateLimitPerMinute: config.rateLimitPerMinute,
        onBeacon: (request, batch) => {
          for (const listener of beaconListeners) listener(request, batch);
        },
        onRecorded: ({ pageViews, errors }) => {
          for (const { app: name, release } of pageViews) metrics.browserPageView(name, release);
          for (const { app: name, release, kind, count } of errors) metrics.browserError(name, release, kind, count);
        },
      });
    },

    /** Tells `listener` of every accepted beacon, with its request. */
    onBeacon(listener: BeaconListener): void {
      beaconListeners.push(listener);
    },

    /** A page was sent: counted for the releases on it, without holding up the answer. */
    pageSent(request: FastifyRequest, page: SentPage): void {
      evidence.pageSent(request, page).catch((error: unknown) => request.log.warn({ err: error }, 'telemetry: counting a sent page failed'));
    },

    /** A server render failed in an app's release: release health (and a canary's judge) sees it. */
    renderFailed(app: string, release: string): void {
      metrics.pageRenderError(app, release);
      recorder.recordRenderFailure(app, release, SERVER_RENDER_PAGE);
    },

    /** Pending reports are written and pruning ends. */
    async stop(): Promise<void> {
      await Promise.all([recorder.stop(), pruning.stop()]);
    },
  };
}
