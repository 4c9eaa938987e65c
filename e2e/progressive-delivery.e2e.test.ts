import { createHmac } from 'node:crypto';
import { rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PREVIEW_BANNER, PREVIEW_COOKIE, RELEASE_BUCKET_COOKIE, RELEASE_BUCKETS, SECTION_IDS, type RemotesDocument } from '@agency/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describeInBrowser, launchBrowser, openPage, waitForHydration } from './support/browser';
import { fetchAsBrowser } from './support/get-as-browser';
import { changedBlogBuild, NEW_BACK_LINK, OLD_BACK_LINK, throwingBlogBuild } from './support/changed-blog-build';
import { releaseStatusReader } from './support/release-status';
import { runRelease, startSite, type RunningSite } from './support/site';
import { startVisitorNetwork, type VisitorNetwork } from './support/visitor-network';
import { MIN_CLIENTS } from '../api/src/delivery/canary/canary-judge';

jest.setTimeout(240_000);

const OPS_SECRET = 'progressive-delivery-e2e-secret';

/** The shell's telemetry reporter chunk, which loads once the visitor acts on the page. */
const REPORTER_CODE = (response: { url(): string }) => /\/telemetry\.[0-9a-f]+\.js$/.test(response.url());

interface StatusReport {
  releases: { id: string; current: boolean; candidate: boolean; share?: number; page_views: number; errors: number }[];
  canary: { release: string; share: number; verdict: { action: string; reason: string } } | null;
  events: { at: string; release: string; action: string; reason: string; actor: string }[];
}

/** The ops channel: every automatic decision the site sends, with its signature and idempotency key. */
interface OpsMessage {
  body: string;
  signature: string | undefined;
  key: string | undefined;
}

describeInBrowser('progressive delivery of a remote: preview, canary, automatic rollback and promotion', () => {
  const ops: OpsMessage[] = [];
  const receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      ops.push({ body, signature: request.headers['x-signature'] as string | undefined, key: request.headers['idempotency-key'] as string | undefined });
      response.writeHead(204).end();
    });
  });
  /** Two API processes on one database and one release store, as two replicas of the site. */
  const sites: RunningSite[] = [];
  const statusReader = releaseStatusReader(['blog']);
  let browser: Browser;
  const cleanUp: string[] = [];

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const env = {
      ...statusReader.env,
      OPS_WEBHOOK_URL: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/ops`,
      OPS_WEBHOOK_SECRET: OPS_SECRET,
    };
    browser = await launchBrowser();
    const first = await startSite(env);
    sites.push(first);
    // Started after the first, which has migrated the database they share; the release files are
    // in the first one's store too (each has a cache folder of its own, unused with a local store).
    sites.push(await startSite({ ...env, DATABASE_URL: first.databaseUrl, RELEASE_STORE: first.releaseEnv.RELEASE_STORE! }));
  });
  afterAll(async () => {
    // The second process first: the database and the store they share are in the first one's folder.
    const stopSites = async () => {
      for (const site of [...sites].reverse()) await site.stop();
    };
    await Promise.all([browser?.close(), stopSites()]);
    await new Promise((resolve) => receiver.close(resolve));
    cleanUp.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  });

  // A test that failed halfway leaves no canary to the next one.
  afterEach(async () => {
    if ((await status()).canary) release('blog', '--abort');
  });

  /** `npm run release -- <args>` on the site's database and release store (the first process's URL for preview links). */
  const release = (...args: string[]) => runRelease(sites[0]!, ...args);

  /** The blog's `--status` report, read through the release API (support/release-status.ts). */
  const status = () => statusReader.read<StatusReport>(sites[0]!, 'blog');

  async function until<T>(what: string, ms: number, read: () => T | Promise<T>, check: (value: T) => boolean): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await read();
      if (check(value)) return value;
      if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms; last: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /**
   * A browser's first navigation to a site's home page, as its headers say (`fetch` would send
   * `Sec-Fetch-Mode: cors` whatever it is told).
   */
  function firstNavigation(site: RunningSite): Promise<{ setCookie: string; cacheControl: string; html: string }> {
    return new Promise((resolve, reject) => {
      const request = http.get(`${site.baseUrl}/`, { headers: { 'sec-fetch-mode': 'navigate', accept: 'text/html' } }, (response) => {
        let html = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (html += chunk));
        response.on('end', () =>
          resolve({ setCookie: response.headers['set-cookie']?.join('\n') ?? '', cacheControl: String(response.headers['cache-control']), html }),
        );
      });
      request.on('error', reject);
    });
  }

  /** The blog release `/remotes.json` of a site names for a visitor with `cookie`. */
  async function servedBlog(site: RunningSite, cookie = ''): Promise<string> {
    // Asked after a minute of waiting on the release status, its kept-alive connection may just be closing.
    const response = await fetchAsBrowser(`${site.baseUrl}/remotes.json`, { headers: cookie ? { cookie } : {} });
    return ((await response.json()) as RemotesDocument).remotes.blog.release;
  }

  /** Both processes serve `id` as the blog to a visitor with `cookie`. */
  const bothServe = (id: string, cookie = '') =>
    until(`both processes serving blog ${id}`, 10_000, () => Promise.all(sites.map((site) => servedBlog(site, cookie))), (served) => served.every((entry) => entry === id));

  const currentBlog = async () => (await status()).releases.find((entry) => entry.current)!.id;

  interface Visit {
    /** The blog release the page ran. */
    blog: string;
    /** Every blog file the page fetched. */
    blogFiles: string[];
    context: BrowserContext;
  }

  const networks: VisitorNetwork[] = [];
  let visitors = 0;
  afterAll(() => Promise.all(networks.map((network) => network.close())));

  /**
   * A visitor opens the home page of a site in a browser of its own (or `context`), acts on it,
   * and leaves: the page's views and errors are reported as it hides. Each new browser is another
   * client, reaching the site from an address of its own (the site decides a canary only on
   * evidence from several clients).
   */
  async function visit(site: RunningSite, context?: BrowserContext): Promise<Visit> {
    let page: Page;
    if (context) page = await context.newPage();
    else {
      visitors += 1;
      const network = await startVisitorNetwork(`127.1.${Math.floor(visitors / 250)}.${1 + (visitors % 250)}`);
      networks.push(network);
      page = await openPage(browser, undefined, { lazySections: true, ...network.contextOptions });
    }
    const blogFiles: string[] = [];
    // What the page went through, for the message of a visit that never loads the reporter.
    const started = Date.now();
    const seen: string[] = [];
    const note = (what: string) => seen.push(`${Date.now() - started} ms: ${what}`);
    const unanswered = new Set<string>();
    page.on('request', (request) => {
      if (request.url().includes('/remotes/blog/')) blogFiles.push(request.url());
      unanswered.add(request.url());
      if (REPORTER_CODE(request)) note(`requested ${request.url()}`);
    });
    page.on('response', (response) => unanswered.delete(response.url()));
    page.on('requestfailed', (request) => note(`failed ${request.url()}: ${request.failure()?.errorText}`));
    page.on('console', (message) => message.type() === 'error' && note(`console: ${message.text()}`));
    page.on('pageerror', (error) => note(`page error: ${error.message}`));
    // A hang guard, not a timing: with four visitors at once beside the container suites, a
    // starved machine has taken over Playwright's default 30 s to fetch the reporter.
    const reporterLoaded = page.waitForResponse(REPORTER_CODE, { timeout: 90_000 });
    await page.goto(site.baseUrl);
    note('loaded');
    await page.locator(`#${SECTION_IDS.blog}`).scrollIntoViewIfNeeded();
    note(`scrolled to ${await page.evaluate(() => window.scrollY)}`);
    await reporterLoaded.catch(async (error: Error) => {
      const state = await page.evaluate(() => ({ scrollY: window.scrollY, readyState: document.readyState, visibility: document.visibilityState })).catch(() => null);
      const waiting = [...unanswered].map((url) => `no answer: ${url}`);
      throw new Error([error.message, `page: ${JSON.stringify(state)}`, ...seen, ...waiting].join('\n'));
    });
    // The server sends the teaser whole, so its markup is there from the start: the visit lasts
    // until the remote's code has run on it, adopted it (its links React's) or failed (the slot's
    // notice). A visitor gone before that never ran a throwing candidate, and reports no error.
    await page.waitForFunction(
      (id) => {
        const section = document.getElementById(id);
        const adopted = [...(section?.querySelectorAll('article a') ?? [])].some((link) => Object.keys(link).some((key) => key.startsWith('__reactFiber')));
        return adopted || Boolean(section?.querySelector('[data-remote-unavailable]'));
      },
      SECTION_IDS.blog,
      { timeout: 90_000 },
    );
    await page.locator('footer').last().click();
    const blog = await page.evaluate(() => window.__AGENCY_RELEASES__?.remotes.blog?.release ?? '');
    await page.goto('about:blank');
    return { blog, blogFiles, context: page.context() };
  }

  /**
   * The decisions sent about `release`, each message checked against its signature. Delivery is
   * at least once (a retry after a lost answer repeats a message): repeats share their key.
   */
  function opsMessagesAbout(release: string): { action: string; release: string; current: string }[] {
    const decisions = new Map<string, { action: string; release: string; current: string }>();
    for (const message of ops) {
      expect(message.signature).toBe(`sha256=${createHmac('sha256', OPS_SECRET).update(message.body).digest('hex')}`);
      const decision = JSON.parse(message.body) as { app: string; action: string; release: string; current: string; at: string };
      expect(message.key).toBe(`${decision.app}:${decision.release}:${decision.action}:${decision.at}`);
      if (decision.release === release) decisions.set(message.key!, decision);
    }
    return [...decisions.values()];
  }

  it('shows a staged release to the one browser that opened its preview link, with a banner, until it leaves', async () => {
    release('blog');
    const current = await currentBlog();
    const changed = changedBlogBuild();
    cleanUp.push(changed);
    const output = release('blog', '--stage', '--dist', changed);
    const link = /(http:\/\/\S+\?preview=\S+)/.exec(output)?.[1];
    const staged = /blog release (\S+) is staged/.exec(output)?.[1];
    expect(link).toBeDefined();
    expect(staged).not.toBe(current);
    // Staged is not current: everyone else, on either process, still gets the current release.
    await bothServe(current);
    // Each process reads the releases about once a second: the link is opened once both know the staged one.
    await bothServe(staged!, `${PREVIEW_COOKIE}=${new URL(link!).searchParams.get('preview')}`);

    const previewing = await openPage(browser, link);
    const banner = previewing.locator('[data-preview-banner]');
    await expect(banner.textContent()).resolves.toContain(PREVIEW_BANNER.pinned('blog', staged!));
    await expect(previewing.locator('meta[name="robots"][content="noindex"]').count()).resolves.toBe(1);
    const postLink = previewing.locator(`#${SECTION_IDS.blog} article a`).first();
    await waitForHydration(postLink);
    await postLink.click();
    await previewing.getByRole('link', { name: NEW_BACK_LINK }).waitFor();
    await expect(previewing.evaluate(() => window.__AGENCY_RELEASES__?.remotes.blog?.release)).resolves.toBe(staged);
    // A reload, server render included, stays in the preview.
    await previewing.reload();
    await previewing.getByRole('link', { name: NEW_BACK_LINK }).waitFor();
    await expect(banner.count()).resolves.toBe(1);

    const other = await openPage(browser, `${sites[1]!.baseUrl}${new URL(previewing.url()).pathname}`);
    await other.getByRole('link', { name: OLD_BACK_LINK }).waitFor();
    await expect(other.locator('[data-preview-banner]').count()).resolves.toBe(0);

    await banner.getByRole('link', { name: PREVIEW_BANNER.exit }).click();
    await previewing.getByRole('link', { name: OLD_BACK_LINK }).waitFor();
    await expect(previewing.locator('[data-preview-banner]').count()).resolves.toBe(0);

    const tampered = await openPage(browser, `${link!.slice(0, -3)}abc`);
    await expect(tampered.locator('[data-preview-banner]').textContent()).resolves.toContain(PREVIEW_BANNER.invalid);
    await expect(tampered.evaluate(() => window.__AGENCY_RELEASES__?.remotes.blog?.release)).resolves.toBe(current);
    await Promise.all([previewing, other, tampered].map((page) => page.context().close()));
  });

  it('keeps each visitor on one release set, and the candidate’s share within 10 points over 200 fresh visitors', async () => {
    const current = await currentBlog();
    const changed = changedBlogBuild();
    cleanUp.push(changed);
    release('blog', '--canary', '50', '--dist', changed);
    const report = await status();
    const candidate = report.releases.find((entry) => entry.candidate)!;
    expect(candidate).toMatchObject({ candidate: true, share: 50, current: false });
    expect(report.events.at(-1)).toMatchObject({ release: candidate.id, action: 'canary' });
    // Each process reads the releases about once a second: visitors come once both serve the canary.
    await bothServe(candidate.id, `${RELEASE_BUCKET_COOKIE}=0`);

    // Fresh visitors: a browser's first navigation, with no cookie yet.
    const assigned = await Promise.all(
      Array.from({ length: 200 }, async (_, index) => {
        const response = await firstNavigation(sites[index % 2]!);
        const bucket = Number(new RegExp(`^${RELEASE_BUCKET_COOKIE}=(\\d+);`).exec(response.setCookie)?.[1]);
        const remotes = JSON.parse(/<script type="application\/json" id="agency-remotes">([^<]*)<\/script>/.exec(response.html)![1]!) as RemotesDocument;
        expect(response.cacheControl).toBe('private, no-cache');
        return { bucket, blog: remotes.remotes.blog.release };
      }),
    );
    expect(assigned.every(({ bucket }) => Number.isInteger(bucket) && bucket >= 0 && bucket < RELEASE_BUCKETS)).toBe(true);
    for (const { bucket, blog } of assigned) expect(blog).toBe(bucket < RELEASE_BUCKETS / 2 ? candidate.id : current);
    const share = assigned.filter(({ blog }) => blog === candidate.id).length / assigned.length;
    expect(Math.abs(share - 0.5)).toBeLessThanOrEqual(0.1);
    // A client without cookies that is not a browser's navigation (a crawler, a monitor) gets the current release.
    const crawler = await fetch(sites[0]!.baseUrl);
    expect(crawler.headers.get('set-cookie')).toBeNull();
    expect(await crawler.text()).toContain(`"release":"${current}"`);

    // One browser, five page loads and client-side navigation: one release set throughout.
    let visitor: Visit | undefined;
    for (let attempt = 0; attempt < 20 && visitor?.blog !== candidate.id; attempt += 1) {
      await visitor?.context.close();
      visitor = await visit(sites[attempt % 2]!);
    }
    expect(visitor?.blog).toBe(candidate.id);
    const page = await visitor!.context.newPage();
    const blogFiles: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/remotes/blog/')) blogFiles.push(request.url());
    });
    const releasesSeen: string[] = [];
    const seen = async () => releasesSeen.push(await page.evaluate(() => window.__AGENCY_RELEASES__?.remotes.blog?.release ?? ''));
    // The home page, then a post by client-side navigation from its blog teaser.
    await page.goto(sites[0]!.baseUrl);
    await page.locator(`#${SECTION_IDS.blog}`).scrollIntoViewIfNeeded();
    const teaserPost = page.locator(`#${SECTION_IDS.blog} article a`).first();
    await waitForHydration(teaserPost);
    await seen();
    await teaserPost.click();
    await page.getByRole('link', { name: NEW_BACK_LINK }).waitFor();
    await seen();
    // Page loads on either process, and a reload.
    for (const site of [sites[1]!, sites[0]!]) {
      await page.goto(`${site.baseUrl}/blog`);
      await waitForHydration(page.locator('article a').first());
      await seen();
    }
    await page.reload();
    await waitForHydration(page.locator('article a').first());
    await seen();
    expect(releasesSeen).toEqual(Array(releasesSeen.length).fill(candidate.id));
    expect(releasesSeen.length).toBeGreaterThanOrEqual(5);
    await expect(page.locator(`[data-remote-release]`).evaluateAll((slots) => slots.map((slot) => slot.getAttribute('data-remote-release')))).resolves.toContain(candidate.id);
    // Lazy chunks come from its release too, never from another blog release.
    expect(blogFiles.length).toBeGreaterThan(0);
    expect(blogFiles.filter((url) => !url.includes(`/remotes/blog/${candidate.id}/`))).toEqual([]);
    await visitor!.context.close();

    expect(release('blog', '--abort')).toContain(`Dropped blog candidate ${candidate.id}`);
    await bothServe(current, `${RELEASE_BUCKET_COOKIE}=0`);
  });

  it('rolls back a candidate that throws in every browser by itself, once for both processes, and tells the team', async () => {
    const current = await currentBlog();
    const broken = throwingBlogBuild();
    cleanUp.push(broken.dir);
    // As few page views as the judge needs distinct clients reporting errors: each visit here is a new client.
    const minViews = MIN_CLIENTS;
    release('blog', '--canary', '50', '--dist', broken.dist, '--min-views', String(minViews));
    const candidate = (await status()).canary!.release;
    await bothServe(candidate, `${RELEASE_BUCKET_COOKIE}=0`);

    const candidateVisitors: BrowserContext[] = [];
    let candidateViews = 0;
    while (candidateViews < minViews) {
      const batch = await Promise.all([0, 1, 0, 1].map((index) => visit(sites[index]!)));
      for (const seen of batch) {
        if (seen.blog === candidate) {
          candidateViews += 1;
          candidateVisitors.push(seen.context);
          continue;
        }
        // Visitors assigned the current release never get a byte of the candidate.
        expect(seen.blog).toBe(current);
        expect(seen.blogFiles.filter((url) => url.includes(candidate))).toEqual([]);
        await seen.context.close();
      }
      if ((await status()).canary === null) break;
    }

    // Within 60 s of the last of those page views (the judge looks every second; reports arrive within one).
    const decided = await until('the automatic rollback', 60_000, status, (report) => report.events.some((event) => event.action === 'rolled_back'));
    const rolledBack = decided.events.filter((event) => event.action === 'rolled_back');
    expect(rolledBack).toEqual([
      { at: expect.any(String), release: candidate, action: 'rolled_back', reason: expect.stringMatching(/^errors from \d+ of \d+ clients/), actor: 'site' },
    ]);
    expect(decided.canary).toBeNull();
    expect(decided.releases.find((entry) => entry.current)?.id).toBe(current);

    // From now on nobody gets it: not even the visitors who had it, on either process.
    await bothServe(current, `${RELEASE_BUCKET_COOKIE}=0`);
    const again = await visit(sites[1]!, candidateVisitors[0]);
    expect(again.blog).toBe(current);
    await until('the ops message', 10_000, () => opsMessagesAbout(candidate), (messages) => messages.length > 0);
    // Both processes looked for a while longer: still one decision, one message.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(opsMessagesAbout(candidate)).toEqual([expect.objectContaining({ action: 'rolled_back', release: candidate, current })]);
    expect((await status()).events.filter((event) => event.action === 'rolled_back')).toHaveLength(1);
    await Promise.all(candidateVisitors.map((context) => context.close()));
  });

  it('promotes a healthy candidate by itself after --promote-after 10 page views', async () => {
    const current = await currentBlog();
    const changed = changedBlogBuild();
    cleanUp.push(changed);
    // The build staged and tried before is kept: the same release is the candidate again.
    release('blog', '--canary', '50', '--dist', changed, '--min-views', '5', '--promote-after', '10');
    const candidate = (await status()).canary!.release;
    expect(candidate).not.toBe(current);
    await bothServe(candidate, `${RELEASE_BUCKET_COOKIE}=0`);

    while ((await status()).canary !== null) {
      const batch = await Promise.all([0, 1, 0, 1].map((index) => visit(sites[index]!)));
      await Promise.all(batch.map((seen) => seen.context.close()));
    }
    const report = await status();
    expect(report.events.slice(-2).map((event) => [event.release, event.action])).toEqual([
      [candidate, 'canary'],
      [candidate, 'promoted'],
    ]);
    expect(report.releases.find((entry) => entry.current)?.id).toBe(candidate);
    await bothServe(candidate);
    await until('the ops message', 10_000, () => opsMessagesAbout(candidate), (messages) => messages.length > 0);
    expect(opsMessagesAbout(candidate)).toEqual([expect.objectContaining({ action: 'promoted', release: candidate, current: candidate })]);
    expect(release('blog', '--status')).toMatch(/Decisions, oldest first:[\s\S]*promoted +\S+ +healthy over \d+ page views sent to \d+ clients/);
  });
});
