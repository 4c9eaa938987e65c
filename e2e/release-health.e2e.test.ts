import { rmSync } from 'node:fs';
import { SECTION_IDS } from '@agency/shared';
import type { Page } from 'playwright-core';
import type { AppName } from '../api/src/delivery';
import { eventually } from '../api/test/helpers/eventually';
import { describeInBrowser, openPage, waitForHydration } from './support/browser';
import { TEASER_ERROR, TEASER_SOURCE, throwingBlogBuild } from './support/changed-blog-build';
import { releaseStatusReader } from './support/release-status';
import { runRelease } from './support/site';
import { startVisitorNetwork, type VisitorNetwork } from './support/visitor-network';
import { setUpSiteAndBrowser } from './support/suite';

const METRICS_TOKEN = 'release-health-e2e-token';

/** The shell's telemetry reporter chunk (with web-vitals), which loads after the page. */
const REPORTER_CODE = (response: { url(): string }) => /\/telemetry\.[0-9a-f]+\.js$/.test(response.url());

interface StatusReport {
  app: string;
  releases: {
    id: string;
    current: boolean;
    page_views: number;
    errors: number;
    load_failures: number;
    vitals_samples: { lcp: number; inp: number };
    vitals: { lcp_p75_ms: number | null; inp_p75_ms: number | null; cls_p75: number | null; fcp_p75_ms: number | null; ttfb_p75_ms: number | null };
    top_errors: { message: string; count: number; source: string | null }[];
  }[];
}

describeInBrowser('release health from visitors’ browsers', () => {
  const statusReader = releaseStatusReader(['shell', 'blog']);
  const suite = setUpSiteAndBrowser({ METRICS_TOKEN, ...statusReader.env });
  const cleanUp: string[] = [];
  afterAll(() => cleanUp.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  /** `npm run release -- <args>` on this suite's site: its database and release store. */
  const release = (...args: string[]) => runRelease(suite.site, ...args);

  /** An app's `--status` report, read through the release API (support/release-status.ts). */
  const status = (app: AppName = 'blog') => statusReader.read<StatusReport>(suite.site, app);

  /** The current release's entry in an app's --status report. */
  const currentHealth = async (app: AppName) => {
    const current = (await status(app)).releases.find((entry) => entry.current);
    if (!current) throw new Error(`no ${app} release is current`);
    return current;
  };

  /** The blog release the release command made current, as --status reports it. */
  async function currentBlogRelease(): Promise<string> {
    const current = (await status()).releases.find((entry) => entry.current);
    if (!current) throw new Error('no blog release is current');
    return current.id;
  }

  /** The blog's --status report once `check` passes (`what` it waits for, in a failure's message). */
  const statusOnce = (what: string, check: (report: StatusReport) => boolean, timeoutMs: number) =>
    eventually(`blog --status to report ${what}`, () => status(), check, timeoutMs, 250);

  /**
   * The current release of `app` once `check` passes, within 60 s. A page view is counted once its
   * page is left, the beacon received and the next write done: seconds on an idle machine; 15 s
   * once fell short on CI's busy one.
   */
  const currentHealthOnce = (app: AppName, what: string, check: (health: StatusReport['releases'][number]) => boolean) =>
    eventually(`the current ${app} release to report ${what}`, () => currentHealth(app), check, 60_000, 250);

  /** Waits until the site's remotes.json names blog release `id`. */
  async function blogReleaseServed(id: string): Promise<void> {
    const servedBlog = async () => ((await (await fetch(`${suite.site.baseUrl}/remotes.json`)).json()) as { remotes: { blog: { release: string } } }).remotes.blog.release;
    await eventually(`the site to serve blog ${id}`, servedBlog, (release) => release === id, 10_000, 100);
  }

  /** A visitor on the home page scrolls down to the blog's section and taps the page. */
  async function visitHomeAndScrollToBlog(): Promise<Page & { consoleErrors: string[] }> {
    const page = await openPage(suite.browser, undefined, { lazySections: true });
    // The reporter's code loads once the page has loaded and the visitor acts on it (here the
    // scroll); until then reports wait in the page.
    const reporterLoaded = page.waitForResponse(REPORTER_CODE);
    await page.goto(suite.site.baseUrl);
    await page.locator(`#${SECTION_IDS.blog}`).scrollIntoViewIfNeeded();
    await reporterLoaded;
    await page.locator(`#${SECTION_IDS.blog} [data-remote-module="blog/BlogTeaser"], #${SECTION_IDS.blog} [data-remote-unavailable]`).first().waitFor();
    // An interaction, so that the page has an INP to report.
    await page.locator('footer').last().click();
    return page;
  }

  let visitors = 0;
  const networks: VisitorNetwork[] = [];
  afterAll(() => Promise.all(networks.map((network) => network.close())));

  /**
   * A visitor who flings down the home page to its end (700 px every 150 ms) and, if `tap`, clicks
   * the footer at the end; the page is then left, often before the telemetry reporter has loaded.
   */
  async function flingThroughHome(tap: boolean): Promise<void> {
    // Each visitor from an address of its own: the site counts a few values of each vital per client.
    visitors += 1;
    const network = await startVisitorNetwork(`127.3.0.${visitors}`);
    networks.push(network);
    const page = await openPage(suite.browser, undefined, { lazySections: true, viewport: { width: 1280, height: 740 }, ...network.contextOptions });
    await page.goto(suite.site.baseUrl);
    await page.locator('#hero h1').waitFor();
    // A visitor flings once the page has shown itself: a scroll before the browser's first largest
    // paint ends LCP before it began, and that page view has none to report.
    await page.evaluate(
      () => new Promise<void>((resolve) => new PerformanceObserver(() => resolve()).observe({ type: 'largest-contentful-paint', buffered: true })),
    );
    for (let flings = 0; flings < 40; flings += 1) {
      await page.mouse.wheel(0, 700);
      await page.waitForTimeout(150);
      if (await page.evaluate(() => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1)) break;
    }
    if (tap) await page.locator('footer').last().click();
    await leave(page);
  }

  /**
   * Leaving the page: the browser sends what is left (page views, vitals) as the page hides. The
   * tab stays open until the test ends: closing it at once could cancel the beacon in flight.
   */
  async function leave(page: Page): Promise<void> {
    await page.goto('about:blank');
    left.push(page);
  }
  const left: Page[] = [];
  afterAll(() => Promise.all(left.map((page) => page.context().close())));

  /** The tab goes to the background and comes back (a switch to another tab or app). */
  const hideAndShow = (page: Page) =>
    page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
      Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    });

  const metrics = (token?: string) =>
    fetch(`${suite.site.baseUrl}/metrics`, token ? { headers: { authorization: `Bearer ${token}` } } : {});

  it('counts a throwing teaser against its release, at its original source line, and none against the release before', async () => {
    release('blog');
    const good = await currentBlogRelease();
    await blogReleaseServed(good);
    await leave(await visitHomeAndScrollToBlog());

    const broken = throwingBlogBuild();
    cleanUp.push(broken.dir);
    release('blog', '--dist', broken.dist);
    const bad = await currentBlogRelease();
    await blogReleaseServed(bad);

    const page = await visitHomeAndScrollToBlog();
    await page.locator(`#${SECTION_IDS.blog} [data-remote-unavailable="blog/BlogTeaser"]`).waitFor();
    const shown = Date.now();
    const report = await statusOnce('errors of the broken release', (current) => (current.releases.find((entry) => entry.id === bad)?.errors ?? 0) > 0, 10_000);
    expect(Date.now() - shown).toBeLessThan(10_000);

    const badHealth = report.releases.find((entry) => entry.id === bad)!;
    expect(badHealth.current).toBe(true);
    expect(badHealth.errors).toBeGreaterThan(0);
    expect(badHealth.top_errors[0]?.message).toContain(TEASER_ERROR);
    expect(badHealth.top_errors[0]?.source).toMatch(new RegExp(`^${TEASER_SOURCE.replaceAll('.', '\\.')}:${broken.line}:\\d+$`));
    const goodHealth = report.releases.find((entry) => entry.id === good)!;
    expect(goodHealth.current).toBe(false);
    expect(goodHealth.errors).toBe(0);
    expect(goodHealth.top_errors).toEqual([]);

    const scraped = await (await metrics(METRICS_TOKEN)).text();
    const counted = new RegExp(`^agency_browser_errors_total\\{app="blog",release="${bad}",kind="boundary"\\} (\\d+)$`, 'm').exec(scraped);
    expect(Number(counted?.[1])).toBeGreaterThan(0);
    expect(scraped).toMatch(new RegExp(`^agency_release_info\\{app="blog",release="${bad}"\\} 1$`, 'm'));
    expect((await metrics()).status).toBe(401);
    expect((await metrics('wrong')).status).toBe(401);

    await leave(page);
    // Page views and vitals arrive as the pages are left, for both releases.
    const afterVisits = await statusOnce('page views and vitals of every release', (current) => current.releases.every((entry) => entry.page_views > 0 && entry.vitals.ttfb_p75_ms !== null), 60_000);
    for (const entry of afterVisits.releases) {
      expect(entry.page_views).toBeGreaterThan(0);
      expect(entry.vitals.ttfb_p75_ms).not.toBeNull();
      expect(entry.vitals.fcp_p75_ms).not.toBeNull();
      expect(entry.vitals.lcp_p75_ms).not.toBeNull();
      expect(entry.vitals.cls_p75).not.toBeNull();
    }
    const text = release('blog', '--status');
    expect(text).toContain(`${bad}  (current)`);
    expect(text).toContain(TEASER_SOURCE);
  });

  it('reports LCP, CLS, FCP and TTFB of every visit that scrolls through and leaves, with a healthy blog and with one that throws; INP once visitors tap', async () => {
    const VISITS = 5;
    const broken = throwingBlogBuild();
    cleanUp.push(broken.dir);
    for (const blogBuild of ['healthy', 'throwing'] as const) {
      if (blogBuild === 'healthy') release('blog');
      else release('blog', '--dist', broken.dist);
      const blogRelease = await currentBlogRelease();
      await blogReleaseServed(blogRelease);
      const before = { shell: await currentHealth('shell'), blog: await currentHealth('blog') };

      for (let visit = 0; visit < VISITS; visit += 1) await flingThroughHome(false);
      for (const app of ['shell', 'blog'] as const) {
        const after = await currentHealthOnce(app, `${VISITS} more page views and LCPs`, (health) => health.page_views >= before[app].page_views + VISITS && health.vitals_samples.lcp >= before[app].vitals_samples.lcp + VISITS);
        expect({ app, blogBuild, pageViews: after.page_views - before[app].page_views }).toEqual({ app, blogBuild, pageViews: VISITS });
        // Every page view had a largest paint, so each one reports it.
        expect({ app, blogBuild, lcp: after.vitals_samples.lcp - before[app].vitals_samples.lcp }).toEqual({ app, blogBuild, lcp: VISITS });
        for (const vital of ['lcp_p75_ms', 'cls_p75', 'fcp_p75_ms', 'ttfb_p75_ms'] as const) {
          expect({ app, blogBuild, vital, value: after.vitals[vital] }).toEqual({ app, blogBuild, vital, value: expect.any(Number) });
        }
        // Nobody tapped or typed: no interaction, so no INP.
        expect(after.vitals_samples.inp - before[app].vitals_samples.inp).toBe(0);
      }
      if (blogBuild === 'throwing') expect((await currentHealth('blog')).errors).toBeGreaterThanOrEqual(VISITS);
    }

    const beforeTaps = await currentHealth('shell');
    for (let visit = 0; visit < 2; visit += 1) await flingThroughHome(true);
    const afterTaps = await currentHealthOnce('shell', 'two more INPs', (health) => health.vitals_samples.inp >= beforeTaps.vitals_samples.inp + 2);
    expect(afterTaps.vitals_samples.inp - beforeTaps.vitals_samples.inp).toBe(2);
    expect(afterTaps.vitals.inp_p75_ms).toEqual(expect.any(Number));
  }, 300_000);

  it('loads no telemetry code on a page nobody acts on, and counts its page view when it is left', async () => {
    const shellPageViews = async () => {
      const scraped = await (await metrics(METRICS_TOKEN)).text();
      return [...scraped.matchAll(/^agency_browser_page_views_total\{app="shell",release="[^"]+"\} (\d+)$/gm)].reduce((sum, [, n]) => sum + Number(n), 0);
    };
    const before = await shellPageViews();
    const page = await openPage(suite.browser);
    const scripts: string[] = [];
    const beacons: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
      if (request.url().endsWith('/api/telemetry')) beacons.push(request.url());
    });
    await page.goto(`${suite.site.baseUrl}/blog/1`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((url) => REPORTER_CODE({ url: () => url }))).toEqual([]);
    expect(beacons).toEqual([]);

    await leave(page);
    // How long the beacon may take to be counted: a hang guard (the container suites beside this
    // one have delayed it past 10 s), not a timing.
    const deadline = Date.now() + 45_000;
    while ((await shellPageViews()) === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    // One page view, sent once: by the page itself, as its reporter never loaded.
    expect(await shellPageViews()).toBe(before + 1);
  });

  it('works as usual with telemetry blocked, and shows no error', async () => {
    const page = await openPage(suite.browser);
    let blocked = 0;
    await page.route('**/api/telemetry', (route) => {
      blocked += 1;
      return route.abort('blockedbyclient');
    });
    const reporterLoaded = page.waitForResponse(REPORTER_CODE);
    await page.goto(`${suite.site.baseUrl}/blog`);
    const firstPost = page.locator('article a').first();
    await waitForHydration(firstPost);
    // Hidden and shown again: the page sends its page view itself (refused), and loads the reporter.
    await hideAndShow(page);
    await reporterLoaded;
    await hideAndShow(page);
    await firstPost.click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expect(page.locator('[data-remote-unavailable]').count()).resolves.toBe(0);
    expect(blocked).toBeGreaterThan(0);
    expect(page.consoleErrors.filter((message) => !/ERR_BLOCKED_BY_CLIENT|telemetry/.test(message))).toEqual([]);
    await page.context().close();
  });
});
