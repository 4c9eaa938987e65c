import type { ApiErrorBody } from '@agency/shared';
import { SKEW_WINDOW_MS } from '../../../src/delivery/releases/prune';
import { loadAppReleases } from '../../../src/delivery/releases/release-repository';
import { enqueueLead } from '../../../src/site/leads/outbox/outbox-repository';
import type { LeadPayload } from '../../../src/site/leads/lead/lead-payload';
import { startTestApp, testConfig, VALID_CONTACT, type TestContext } from '../../helpers/app';
import { eventually } from '../../helpers/eventually';
import { publishFixture, setUpReleaseSuite } from '../../helpers/releases';
import { browserError, eventuallyStored, readTelemetry, settleTelemetry } from '../../helpers/telemetry';

// GET /metrics on a real server and database: Prometheus's text format for a scraper that holds
// METRICS_TOKEN, and nothing for anyone else.
jest.setTimeout(60_000);

const TOKEN = 'scrape-me-7f3a9c';

describe('without METRICS_TOKEN', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await startTestApp();
  });

  afterAll(async () => {
    await ctx.close();
  });

  it('has no /metrics route (404), whatever the token', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }] as Record<string, string>[]) {
      const response = await ctx.request('GET', '/metrics', { headers });
      expect(response.statusCode).toBe(404);
      expect(response.json<ApiErrorBody>().error.code).toBe('NOT_FOUND');
      expect(response.body).not.toContain('process_cpu');
    }
  });
});

describe('with METRICS_TOKEN', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await startTestApp({ metricsToken: TOKEN, telemetry: { ...testConfig('sqlite::memory:').telemetry, rateLimitPerMinute: 2 } });
  });

  afterAll(async () => {
    await ctx.close();
  });

  const scrape = async () => {
    const response = await ctx.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.statusCode).toBe(200);
    return response.body;
  };
  /** The value of one sample (`name{labels}`) in the scrape, or undefined when it is not there. */
  const sample = (text: string, series: string): number | undefined => {
    const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };

  it.each([
    ['no token', {}],
    ['a wrong token', { authorization: 'Bearer scrape-me-7f3a9d' }],
    ['a longer token', { authorization: `Bearer ${TOKEN}x` }],
    ['the token without the Bearer scheme', { authorization: TOKEN }],
    ['the token as Basic credentials', { authorization: `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}` }],
    ['an empty bearer', { authorization: 'Bearer ' }],
  ])('answers 401 with WWW-Authenticate for %s, and no metrics', async (_label, headers) => {
    const response = await ctx.request('GET', '/metrics', { headers });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(response.json<ApiErrorBody>().error.code).toBe('UNAUTHORIZED');
    expect(response.body).not.toContain('agency_');
  });

  it('answers Prometheus text with process metrics for the right token, never cached', async () => {
    const response = await ctx.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toMatch(/^# TYPE process_cpu_user_seconds_total counter$/m);
    expect(sample(response.body, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(response.body).toMatch(/^nodejs_heap_size_used_bytes \d+/m);
    // The scheme's name is case-insensitive.
    expect((await ctx.request('GET', '/metrics', { headers: { authorization: `bearer ${TOKEN}` } })).statusCode).toBe(200);
  });

  it('times requests by route pattern, method and status', async () => {
    const services = '{method="GET",route="/api/services",status="200"}';
    const before = sample(await scrape(), `agency_http_request_duration_seconds_count${services}`) ?? 0;
    expect((await ctx.request('GET', '/api/services')).statusCode).toBe(200);
    expect((await ctx.request('GET', '/api/services')).statusCode).toBe(200);
    // Counted once the response has gone out.
    const text = await eventually('the request counted', scrape, (body) => sample(body, `agency_http_request_duration_seconds_count${services}`) === before + 2);
    expect(text).toMatch(/^agency_http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/api\/services",status="200"\} \d+$/m);
    // A post's route is its pattern, not its address.
    expect((await ctx.request('GET', '/api/blog/999999')).statusCode).toBe(404);
    const later = await eventually('the 404 counted', scrape, (body) => body.includes('route="/api/blog/:id",status="404"'));
    expect(later).not.toContain('/api/blog/999999');
  });

  it('says which release of each app is current (dist: none is published)', async () => {
    const text = await scrape();
    const remotes = (await ctx.request('GET', '/remotes.json')).json<{ shell: { release: string }; remotes: Record<string, { release: string }> }>();
    expect(remotes.shell.release).toBe('dist');
    expect(sample(text, 'agency_release_info{app="shell",release="dist"}')).toBe(1);
    for (const [app, { release }] of Object.entries(remotes.remotes)) expect(sample(text, `agency_release_info{app="${app}",release="${release}"}`)).toBe(1);
    expect(text.split('\n').filter((line) => line.startsWith('agency_release_info{'))).toHaveLength(1 + Object.keys(remotes.remotes).length);
  });

  it('counts the page views and errors of accepted beacons per app release, and p75 of the vitals once written', async () => {
    // What the server serves every visitor here: no app is released (dist).
    const blog = 'dist';
    const releases = { shell: 'dist', blog };
    const beacon = {
      page_views: [
        { page: '/blog/:postId', releases },
        { page: '/blog', releases },
      ],
      vitals: [
        { name: 'LCP', value: 2000, page: '/blog/:postId', releases },
        { name: 'CLS', value: 0.1, page: '/blog/:postId', releases },
      ],
      errors: [browserError({ kind: 'boundary', app: 'blog', release: blog, count: 3 }), browserError({ kind: 'load_retry', app: 'blog', release: blog })],
    };
    const from = { localAddress: '127.0.0.7' };
    expect((await ctx.request('POST', '/api/telemetry', { json: beacon, ...from })).statusCode).toBe(204);
    expect((await ctx.request('POST', '/api/telemetry', { json: { errors: [browserError({ kind: 'boundary', app: 'blog', release: blog })] }, ...from })).statusCode).toBe(204);
    // Refused beacons count nowhere (sent from elsewhere: this app allows two beacons a minute per address).
    expect((await ctx.request('POST', '/api/telemetry', { json: { errors: [{ ...browserError({ app: 'blog', release: blog }), count: 0 }] }, localAddress: '127.0.0.9' })).statusCode).toBe(400);

    await eventuallyStored(ctx.db, 'blog', blog, (stored) => stored.minutes.some((row) => row.kind === 'LCP'));
    const text = await scrape();
    expect(sample(text, `agency_browser_page_views_total{app="shell",release="dist"}`)).toBe(2);
    expect(sample(text, `agency_browser_page_views_total{app="blog",release="${blog}"}`)).toBe(2);
    expect(sample(text, `agency_browser_errors_total{app="blog",release="${blog}",kind="boundary"}`)).toBe(4);
    expect(sample(text, `agency_browser_errors_total{app="blog",release="${blog}",kind="load_retry"}`)).toBe(1);
    expect(sample(text, `agency_browser_errors_total{app="blog",release="${blog}",kind="uncaught"}`)).toBeUndefined();
    const lcp = sample(text, `agency_browser_vital_p75{app="blog",release="${blog}",vital="LCP"}`) ?? NaN;
    expect(Math.abs(lcp - 2000) / 2000).toBeLessThanOrEqual(0.04);
    const cls = sample(text, `agency_browser_vital_p75{app="shell",release="dist",vital="CLS"}`) ?? NaN;
    expect(Math.abs(cls - 0.1) / 0.1).toBeLessThanOrEqual(0.04);
    expect(sample(text, `agency_browser_vital_p75{app="blog",release="${blog}",vital="INP"}`)).toBeUndefined();
  });

  it('counts requests refused by a rate limit, by route', async () => {
    const series = 'agency_rate_limit_refusals_total{route="/api/telemetry"}';
    const before = sample(await scrape(), series) ?? 0;
    const from = { localAddress: '127.0.0.8' };
    const beacon = { page_views: [{ page: '/', releases: { shell: 'limited' } }] };
    const statuses: number[] = [];
    for (let index = 0; index < 4; index += 1) statuses.push((await ctx.request('POST', '/api/telemetry', { json: beacon, ...from })).statusCode);
    expect(statuses).toEqual([204, 204, 429, 429]);
    await eventually('the refusals counted', scrape, (body) => sample(body, series) === before + 2);
  });

  it('reports the lead notifications waiting in the outbox and those given up on', async () => {
    expect(sample(await scrape(), 'agency_outbox_notifications{status="pending"}')).toBe(0);
    expect(sample(await scrape(), 'agency_outbox_notifications{status="failed"}')).toBe(0);
    // No channel is configured here: the rows stay as they are put.
    const lead = { ...VALID_CONTACT, kind: 'contact', id: 1, created_at: new Date().toISOString() } as unknown as LeadPayload;
    await enqueueLead(ctx.db, lead, ['webhook', 'telegram', 'email']);
    await ctx.db.kysely.updateTable('lead_outbox').set({ status: 'failed' }).where('channel', '=', 'email').execute();
    const text = await scrape();
    expect(sample(text, 'agency_outbox_notifications{status="pending"}')).toBe(2);
    expect(sample(text, 'agency_outbox_notifications{status="failed"}')).toBe(1);
  });
});

describe('series of releases the site does not know', () => {
  const suite = setUpReleaseSuite({ metricsToken: TOKEN });

  const scrape = async () => (await suite.ctx.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).body;
  /** Every series of the browsers' counters. */
  const browserSeries = (text: string) => text.split('\n').filter((line) => /^agency_browser_(page_views|errors)_total\{/.test(line));
  const servedBlog = async () => (await suite.ctx.request('GET', '/remotes.json')).json<{ remotes: { blog: { release: string } } }>().remotes.blog.release;

  it('adds no series, and no row, for 2,000 made-up releases', async () => {
    const before = browserSeries(await scrape());
    for (let beacon = 0; beacon < 100; beacon += 1) {
      const made = (index: number) => `made-up-${beacon * 20 + index}`;
      const json = {
        page_views: Array.from({ length: 20 }, (_, index) => ({ page: '/', releases: { shell: made(index), blog: made(index) } })),
        errors: Array.from({ length: 20 }, (_, index) => browserError({ app: 'blog', release: made(index), message: `error ${index}` })),
      };
      expect((await suite.ctx.request('POST', '/api/telemetry', { json, localAddress: `127.0.2.${1 + (beacon % 200)}` })).statusCode).toBe(204);
    }
    await settleTelemetry(suite.ctx);
    const text = await scrape();
    expect(browserSeries(text)).toEqual(before);
    expect(text).not.toContain('made-up-');
    expect(Number(/^agency_telemetry_dropped_total\{reason="unassigned"\} (\d+)$/m.exec(text)?.[1])).toBe(2000 * 3);
    expect((await readTelemetry(suite.ctx.db)).minutes.filter((row) => row.release.startsWith('made-up-'))).toEqual([]);
  });

  it('removes the series of a release once it is pruned', async () => {
    const first = await publishFixture(suite.fixture, 'blog', { label: 'first' });
    await eventually('the first release served', servedBlog, (release) => release === first);
    const beacon = { page_views: [{ page: '/', releases: { blog: first } }], errors: [browserError({ app: 'blog', release: first })] };
    expect((await suite.ctx.request('POST', '/api/telemetry', { json: beacon })).statusCode).toBe(204);
    await eventually('its series', scrape, (text) => text.includes(`agency_browser_page_views_total{app="blog",release="${first}"} 1`));
    expect(await scrape()).toContain(`agency_browser_errors_total{app="blog",release="${first}",kind="uncaught"} 1`);

    // Two more releases, keeping one, the last past the skew window (the fixture's clock moved on):
    // the first is pruned (the current and the previous stay).
    await publishFixture(suite.fixture, 'blog', { label: 'second' }, 1);
    const clock = suite.fixture.context.now!;
    suite.fixture.context.now = () => new Date(clock().getTime() + SKEW_WINDOW_MS + 3_600_000);
    const third = await publishFixture(suite.fixture, 'blog', { label: 'third' }, 1);
    expect((await loadAppReleases(suite.fixture.db, 'blog')).releases.map((release) => release.id)).not.toContain(first);
    await eventually('the third release served', servedBlog, (release) => release === third);
    // Publishing and pruning are two steps: the site may serve the third release before it has
    // read the pruning, and a scrape after that leaves the first release's series out.
    const text = await eventually('the pruned release’s series gone', scrape, (scraped) => !scraped.includes(`release="${first}"`));
    expect(text).toContain(`agency_release_info{app="blog",release="${third}"} 1`);
  });
});
