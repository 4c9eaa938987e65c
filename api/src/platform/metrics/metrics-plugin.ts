import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

// Request and render latencies on this site run from well under a millisecond (cached answers)
// to the page render's one-second data deadline and beyond.
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export interface SiteMetricsSources {
  /** Lead notifications waiting to go out, and those given up on. */
  outbox(): Promise<{ pending: number; failed: number }>;
}

/**
 * The server's Prometheus metrics (`GET /metrics`), in a registry of its own per app instance:
 * process metrics, requests, refusals, page rendering and the page cache, the lead outbox.
 * Delivery adds what is known of each release to the same registry.
 */
export function createSiteMetrics(sources: SiteMetricsSources) {
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
  const pageCache = new Counter({
    name: 'agency_page_cache_requests_total',
    help: 'Page requests answered from the page cache (hit) or by a render (miss)',
    labelNames: ['result'] as const,
    registers,
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
    pageCache(result: 'hit' | 'miss') {
      pageCache.inc({ result });
    },
  };
}

export type SiteMetrics = ReturnType<typeof createSiteMetrics>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The site's metrics registry and its request, page and outbox metrics. */
    metrics: SiteMetrics;
  }
}

/** Every answer is measured, on the registry `GET /metrics` serves (metrics-route.ts). */
async function metricsPlugin(app: FastifyInstance, sources: SiteMetricsSources): Promise<void> {
  const metrics = createSiteMetrics(sources);
  app.decorate('metrics', metrics);
  app.addHook('onResponse', async (request, reply) => {
    // Pages and unknown paths are answered by the not-found handler, which has no route pattern.
    const page = String(reply.getHeader('content-type') ?? '').startsWith('text/html');
    metrics.request(request.method, request.routeOptions.url ?? (page ? 'page' : 'unmatched'), reply.statusCode, reply.elapsedTime / 1000);
  });
}

export default fp(metricsPlugin, { name: 'metrics' });
