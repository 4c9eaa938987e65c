import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the metrics read at scrape time, from the database and the releases. */
export interface MetricsSources {
  /** The current release of every app. */
  currentReleases(): Promise<Record<string, string>>;
  /** Lead notifications waiting to go out, and those given up on. */
  outbox(): Promise<{ pending: number; failed: number }>;
  /** p75 of each Web Vital per app release over the last minutes (VITALS_WINDOW_MINUTES). */
  vitalsP75(): Promise<{ app: string; release: string; vital: string; p75: number }[]>;
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
  const renderErrors = new Counter({
    name: 'agency_page_render_errors_total',
    help: 'Server renders in which an app release failed (that part then renders in the browser)',
    labelNames: ['app', 'release'] as const,
    registers,
  });
  const pageCache = new Counter({
    name: 'agency_page_cache_requests_total',
    help: 'Page requests answered from the page cache (hit) or by a render (miss)',
    labelNames: ['result'] as const,
    registers,
  });
  const browserPageViews = new Counter({
    name: 'agency_browser_page_views_total',
    help: 'Page views visitors browsers reported, per app release on the page',
    labelNames: ['app', 'release'] as const,
    registers,
  });
  const browserErrors = new Counter({
    name: 'agency_browser_errors_total',
    help: 'Errors visitors browsers reported, per app release and kind',
    labelNames: ['app', 'release', 'kind'] as const,
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
