import type { Registry } from 'prom-client';
import { Counter, Gauge } from 'prom-client';

/** What release metrics read at scrape time. */
export interface ReleaseMetricsSources {
  /** The current release of every app. */
  currentReleases(): Promise<Record<string, string>>;
  /** p75 of each Web Vital per app release over the last minutes (VITALS_WINDOW_MINUTES). */
  vitalsP75(): Promise<{ app: string; release: string; vital: string; p75: number }[]>;
  /** Whether the site knows a release of an app (kept or served): series of any other go. */
  knownReleases(): Promise<(app: string, release: string) => boolean>;
}

type ReleaseLabels = { app: string; release: string; kind?: string };

/**
 * A counter per app release whose series live as long as the site knows the release: each scrape
 * first removes the series of a release pruned since, so /metrics holds a bounded set of series
 * whatever was counted.
 */
function releaseCounter(
  config: { name: string; help: string; labelNames: readonly ('app' | 'release' | 'kind')[]; registers: Registry[] },
  knownReleases: ReleaseMetricsSources['knownReleases'],
) {
  const series = new Map<string, ReleaseLabels>();
  const counter: Counter<string> = new Counter({
    ...config,
    async collect() {
      const known = await knownReleases();
      for (const [key, labels] of series) {
        if (known(labels.app, labels.release)) continue;
        counter.remove(labels);
        series.delete(key);
      }
    },
  });
  return {
    inc(labels: ReleaseLabels, value = 1) {
      series.set(JSON.stringify(labels), labels);
      counter.inc(labels, value);
    },
  };
}

/** The window the vitals' p75 gauges cover. */
export const VITALS_WINDOW_MINUTES = 5;

/**
 * What is known of each release, on the site's metrics registry: the current releases, what
 * visitors' browsers reported of each release, failed server renders, and what telemetry dropped
 * or pruned.
 */
export function createReleaseMetrics(registry: Registry, sources: ReleaseMetricsSources) {
  const registers = [registry];
  const perRelease = (name: string, help: string, labelNames: readonly ('app' | 'release' | 'kind')[]) =>
    releaseCounter({ name, help, labelNames, registers }, sources.knownReleases);
  const renderErrors = perRelease(
    'agency_page_render_errors_total',
    'Server renders in which an app release failed (that part then renders in the browser)',
    ['app', 'release'],
  );
  const browserPageViews = perRelease(
    'agency_browser_page_views_total',
    'Page views visitors browsers reported, per app release on the page',
    ['app', 'release'],
  );
  const browserErrors = perRelease('agency_browser_errors_total', 'Errors visitors browsers reported, per app release and kind', ['app', 'release', 'kind']);
  const telemetryDropped = new Counter({
    name: 'agency_telemetry_dropped_total',
    help: 'Reported events not counted: for a release the client is not assigned (unassigned), past its allowance (client_limit), new errors past the hourly samples (error_samples), or while writes were failing (buffer_full)',
    labelNames: ['reason'] as const,
    registers,
  });
  const telemetryPruned = new Counter({
    name: 'agency_telemetry_pruned_rows_total',
    help: 'Oldest telemetry rows deleted to keep a table within its budget, per table',
    labelNames: ['table'] as const,
    registers,
  });
  new Gauge({
    name: 'agency_release_info',
    help: 'The current release of each app (1)',
    labelNames: ['app', 'release'] as const,
    registers,
    async collect() {
      this.reset();
      for (const [app, release] of Object.entries(await sources.currentReleases())) this.set({ app, release }, 1);
    },
  });
  new Gauge({
    name: 'agency_browser_vital_p75',
    help: `p75 of each Web Vital visitors browsers reported over the last ${VITALS_WINDOW_MINUTES} minutes (milliseconds; CLS unitless)`,
    labelNames: ['app', 'release', 'vital'] as const,
    registers,
    async collect() {
      this.reset();
      for (const { app, release, vital, p75 } of await sources.vitalsP75()) this.set({ app, release, vital }, p75);
    },
  });

  return {
    pageRenderError(app: string, release: string) {
      renderErrors.inc({ app, release });
    },
    telemetryDropped(reason: string, count: number) {
      telemetryDropped.inc({ reason }, count);
    },
    telemetryPruned(table: string, deleted: number) {
      telemetryPruned.inc({ table }, deleted);
    },
    browserPageView(app: string, release: string) {
      browserPageViews.inc({ app, release });
    },
    browserError(app: string, release: string, kind: string, count: number) {
      browserErrors.inc({ app, release, kind }, count);
    },
  };
}

export type ReleaseMetrics = ReturnType<typeof createReleaseMetrics>;
