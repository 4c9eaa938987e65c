import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the metrics read at scrape time, from the database and the releases. */
export interface MetricsSources {
  /** The current release of every app. */
  currentReleases(): Promise<Record<string, string>>;
  /** Lead notifications waiting to go out, and those given up on. */
  outbox(): Promise<{ pending: number; failed: number }>;
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
  knownReleases: MetricsSources['knownReleases'],
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

// Request and render latencies on this site run from well under a millisecond (cached answers)
// to the page render's one-second data deadline and beyond.
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * The server's Prometheus metrics (`GET /metrics`), in a registry of its own per app instance:
 * process metrics, requests, page rendering and the page cache, the lead outbox, refusals, the
 * current releases, and what visitors' browsers reported of each release.
 */
export function createSiteMetrics(sources: MetricsSources) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requestDuration = new Histogram({
    name: 'agency_http_request_duration_seconds',
    help: 'Time to answer a request, by route pattern, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const refusals = new Counter({
    name: 'agency_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit (429), by route pattern',
    labelNames: ['route'] as const,
    registers,
  });
  const unavailable = new Counter({
    name: 'agency_unavailable_refusals_total',
    help: 'Requests answered 503 (database unavailable, server shutting down), by route pattern',
    labelNames: ['route'] as const,
    registers,
  });
  const renderDuration = new Histogram({
    name: 'agency_page_render_duration_seconds',
    help: 'Time to render a page on the server (a page cache miss)',
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const renderErrors = releaseCounter(
    {
      name: 'agency_page_render_errors_total',
      help: 'Server renders in which an app release failed (that part then renders in the browser)',
      labelNames: ['app', 'release'],
      registers,
    },
    sources.knownReleases,
  );
  const pageCache = new Counter({
    name: 'agency_page_cache_requests_total',
    help: 'Page requests answered from the page cache (hit) or by a render (miss)',
    labelNames: ['result'] as const,
    registers,
  });
  const browserPageViews = releaseCounter(
    {
      name: 'agency_browser_page_views_total',
      help: 'Page views visitors browsers reported, per app release on the page',
      labelNames: ['app', 'release'],
      registers,
    },
    sources.knownReleases,
  );
  const browserErrors = releaseCounter(
    {
      name: 'agency_browser_errors_total',
      help: 'Errors visitors browsers reported, per app release and kind',
      labelNames: ['app', 'release', 'kind'],
      registers,
    },
    sources.knownReleases,
  );
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
    name: 'agency_outbox_notifications',
    help: 'Lead notifications in the outbox: pending (still to be delivered) and failed (given up)',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      const { pending, failed } = await sources.outbox();
      this.set({ status: 'pending' }, pending);
      this.set({ status: 'failed' }, failed);
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
    registry,
    request(method: string, route: string, status: number, seconds: number) {
      requestDuration.observe({ method, route, status: String(status) }, seconds);
      if (status === 429) refusals.inc({ route });
      if (status === 503) unavailable.inc({ route });
    },
    pageRender(seconds: number) {
      renderDuration.observe(seconds);
    },
    pageRenderError(app: string, release: string) {
      renderErrors.inc({ app, release });
    },
    telemetryDropped(reason: string, count: number) {
      telemetryDropped.inc({ reason }, count);
    },
    telemetryPruned(table: string, deleted: number) {
      telemetryPruned.inc({ table }, deleted);
    },
    pageCache(result: 'hit' | 'miss') {
      pageCache.inc({ result });
    },
    browserPageView(app: string, release: string) {
      browserPageViews.inc({ app, release });
    },
    browserError(app: string, release: string, kind: string, count: number) {
      browserErrors.inc({ app, release, kind }, count);
    },
  };
}

export type SiteMetrics = ReturnType<typeof createSiteMetrics>;
