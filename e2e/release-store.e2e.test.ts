import { randomBytes } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RELEASE_BUCKET_COOKIE, RELEASE_BUCKETS, SECTION_IDS, UNRELEASED, type RemotesDocument } from '@agency/shared';
import type { Browser, Page } from 'playwright-core';
import { loadDeliveryConfig } from '../api/src/platform/config';
import { createDatabase, type Database } from '../api/src/platform/db/connection';
import { s3Client } from '../api/src/platform/object-store/open-object-store';
import { S3ObjectStore } from '../api/src/platform/object-store/s3-object-store';
import { packReleaseArchive } from '../api/src/delivery/release-api/release-archive';
import { startS3Server, type S3Server } from '../api/test/helpers/s3-server';
import { HOSTILE_BLOG_ARCHIVES, SMALLEST_BLOG_BUILD, tarball } from '../api/test/helpers/tarballs';
import { describeInBrowser, launchBrowser, openPage, waitForHydration } from './support/browser';
import { BLOG_POST_PAGE_CODE, changedBlogBuild, NEW_BACK_LINK, OLD_BACK_LINK } from './support/changed-blog-build';
import { startPostgres, type RunningPostgres } from './support/postgres';
import { freePortForLater, releaseCli, ROOT, startSite, type RunningSite } from './support/site';
import { startSiteProxy, type SiteProxy } from './support/site-proxy';

// Two API processes (`npm run serve`) that share nothing but a PostgreSQL database and an S3 store
// (s3rver): each has its own data folder and its own RELEASE_CACHE_DIR. Teams release through the
// release API with a team token; what one process is told, the other serves within about a second,
// from its own verified copy of the store's files. A proxy in front gives the browser one origin
// and decides, request by request, which process answers.

jest.setTimeout(240_000);

/** The most RELEASE_UPLOAD_MAX_MB the sites take: above the real blog build (checked), well below a default. */
const UPLOAD_MAX_MB = 8;
const UPLOAD_MAX = UPLOAD_MAX_MB * 1024 * 1024;

/**
 * How long after the release API answered the other process may still serve the old release
 * before a test fails. Each process reads the release revision once a second and fetches a new
 * release's files from the store before it shows it: about a second here when the machine is idle.
 * The bound is ten times that, so that a busy machine cannot fail a correct product, and still far
 * below what a process that only learned of releases on restart or from an expiring cache would take.
 */
const VISIBLE_WITHIN_MS = 10_000;

/** A team's CI token as RELEASE_TOKENS provisions it: the blog only. */
const BLOG_TOKEN_NAME = 'blog-ci';
const BLOG_TOKEN = randomBytes(32).toString('hex');

/** Where the release store's objects live in the bucket. */
const STORE_PREFIX = 'releases';

type Backend = 0 | 1;

// ---- Builds and archives ----


/** The bytes a folder's files add up to: what the API counts against RELEASE_UPLOAD_MAX_MB (plus tar headers). */
function folderBytes(dir: string): number {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((file) => statSync(path.join(dir, file)))
    .filter((stats) => stats.isFile())
    .reduce((sum, stats) => sum + stats.size, 0);
}

describeInBrowser('releases in PostgreSQL and an S3 store, served by two API processes that share nothing else', () => {
  let postgres: RunningPostgres;
  let s3: S3Server;
  let proxy: SiteProxy;
  let browser: Browser;
  /** A and B. */
  const sites: RunningSite[] = [];
  const cleanUp: string[] = [];
  let db: Database;
  let bucketClient: ReturnType<typeof s3Client> | undefined;
  let store: S3ObjectStore;
  /** Each process's RELEASE_CACHE_DIR. */
  const caches: string[] = [];

  const siteA = () => sites[0]!;
  const siteB = () => sites[1]!;

  beforeAll(async () => {
    [postgres, s3, browser] = await Promise.all([startPostgres(), startS3Server(), launchBrowser()]);
    const proxyPort = await freePortForLater();
    for (const name of ['a', 'b']) {
      const cache = mkdtempSync(path.join(os.tmpdir(), `agency-release-cache-${name}-`));
      caches.push(cache);
      cleanUp.push(cache);
    }
    const env = (cache: string): Record<string, string> => ({
      ...s3.env,
      DATABASE_URL: postgres.url,
      RELEASE_STORE: `s3://${s3.bucket}/${STORE_PREFIX}`,
      RELEASE_CACHE_DIR: cache,
      RELEASE_UPLOAD_MAX_MB: String(UPLOAD_MAX_MB),
      RELEASE_TOKENS: `${BLOG_TOKEN_NAME}=blog:${BLOG_TOKEN}`,
      // Visitors reach the site through the proxy: its links and cookies are for that origin.
      SITE_URL: `http://127.0.0.1:${proxyPort}`,
    });
    // One after the other: the first migrates the new database.
    sites.push(await startSite(env(caches[0]!)));
    sites.push(await startSite(env(caches[1]!)));
    proxy = await startSiteProxy({ port: proxyPort, backends: () => [`127.0.0.1:${siteA().port}`, `127.0.0.1:${siteB().port}`] });
    db = createDatabase(postgres.url, { poolSize: 2 });
    bucketClient = s3Client(loadDeliveryConfig(s3.env).s3);
    store = new S3ObjectStore({ bucket: s3.bucket, prefix: STORE_PREFIX, client: bucketClient });
  });

  afterAll(async () => {
    await Promise.all([browser?.close(), proxy?.close(), db?.destroy()]);
    bucketClient?.destroy();
    // B first, then A (which migrated the database): both before the database and the store go.
    for (const site of [...sites].reverse()) await site.stop();
    await Promise.all([s3?.stop(), postgres?.stop()]);
    cleanUp.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  });

  // ---- Helpers ----

  interface ApiAnswer {
    status: number;
    body: Record<string, unknown> & { error?: { code: string; message: string } };
  }

  async function answerOf(response: Response): Promise<ApiAnswer> {
    const text = await response.text();
    let body: ApiAnswer['body'];
    try {
      body = JSON.parse(text) as ApiAnswer['body'];
    } catch {
      throw new Error(`the release API answered ${response.status} with no JSON: ${text.slice(0, 300)}`);
    }
    return { status: response.status, body };
  }

  /**
   * POST /api/releases/<app>/builds on `origin`, as a team's CI does, with fetch (as the CLI
   * does): a refusal must reach such a client whole, even one sent before the body was.
   */
  async function upload(origin: string, app: string, archive: Buffer, query = '', contentType = 'application/gzip'): Promise<ApiAnswer> {
    const response = await fetch(`${origin}/api/releases/${app}/builds${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BLOG_TOKEN}`, 'content-type': contentType },
      body: new Uint8Array(archive),
    });
    return answerOf(response);
  }

  /**
   * A release API command (`rollback`, `promote`, …), naming the app's revision it read just before
   * as the command line does, or a GET, with the blog team's token.
   */
  async function command(origin: string, method: 'GET' | 'POST', pathname: string): Promise<ApiAnswer> {
    const headers = { authorization: `Bearer ${BLOG_TOKEN}` };
    if (method === 'GET') return answerOf(await fetch(`${origin}/api/releases/${pathname}`, { headers }));
    const listed = await answerOf(await fetch(`${origin}/api/releases/${pathname.split('/')[0]}`, { headers }));
    const body = JSON.stringify({ expect: { revision: (listed.body as { revision: number }).revision } });
    return answerOf(await fetch(`${origin}/api/releases/${pathname}`, { method, headers: { ...headers, 'content-type': 'application/json' }, body }));
  }

  /** The id of the release a publish or canary answer names. */
  function releaseIn(answer: ApiAnswer): string {
    const id = (answer.body.build as { release?: { id?: string } } | undefined)?.release?.id;
    if (answer.status !== 200 || !id) throw new Error(`the upload was not taken: ${answer.status} ${JSON.stringify(answer.body)}`);
    return id;
  }

  /** The blog release `/remotes.json` of `origin` names for a visitor with `cookie`. */
  async function servedBlog(origin: string, cookie = ''): Promise<string> {
    const response = await fetch(`${origin}/remotes.json`, { headers: cookie ? { cookie } : {} });
    return ((await response.json()) as RemotesDocument).remotes.blog.release;
  }

  /**
   * Polls `origin` (about every 20 ms) until it serves `release`, and resolves with how long after
   * `since` (a Date.now()) it first did; throws once VISIBLE_WITHIN_MS have passed.
   */
  async function servedAfter(origin: string, release: string, since: number, cookie = ''): Promise<number> {
    const deadline = since + VISIBLE_WITHIN_MS;
    let last = '';
    for (;;) {
      last = await servedBlog(origin, cookie);
      if (last === release) return Date.now() - since;
      if (Date.now() > deadline) throw new Error(`${origin} still serves blog ${last}, not ${release}, ${VISIBLE_WITHIN_MS} ms on`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Both processes serve `release` to a visitor with `cookie`: how long each took after `since`. */
  const bothServe = (release: string, since: number, cookie = '') =>
    Promise.all(sites.map((site) => servedAfter(site.baseUrl, release, since, cookie)));

  async function releaseRows(): Promise<unknown[]> {
    return db.kysely.selectFrom('releases').selectAll().orderBy('app').orderBy('id').execute();
  }

  /** A copy of the real blog build with one hashed chunk changed (a comment added), as a one-line fix would. */
  function blogVariant(label: string): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'agency-blog-variant-'));
    cleanUp.push(dir);
    cpSync(path.join(ROOT, 'mfe-blog/dist'), dir, { recursive: true });
    const chunk = readdirSync(dir).find((file) => BLOG_POST_PAGE_CODE.test(`/${file}`));
    if (!chunk) throw new Error('the blog build has no BlogPostPage chunk');
    appendFileSync(path.join(dir, chunk), `\n/* release-store e2e: ${label} */\n`);
    for (const copy of ['.br', '.gz']) rmSync(path.join(dir, chunk + copy), { force: true });
    return dir;
  }

  /** The blog release a page runs, as the server rendered it into the page, and as its blog slots say. */
  async function blogReleasesOn(page: Page): Promise<string[]> {
    const announced = await page.evaluate(() => window.__AGENCY_RELEASES__?.remotes.blog?.release ?? '');
    const slots = await page
      .locator('[data-remote-module^="blog/"]')
      .evaluateAll((elements) => elements.map((element) => element.getAttribute('data-remote-release') ?? ''));
    return [announced, ...slots];
  }

  /** What every test reads: the blog releases that are current, and the candidate. */
  let first: string;
  let candidate: string;

  // ---- The tests ----

  it('shows a blog release uploaded to A with a team token on A and B within about a second, from each one’s own copy', async () => {
    const dist = path.join(ROOT, 'mfe-blog/dist');
    // The limit the sites were started with must take the real build (unpacked: files plus tar headers).
    expect(folderBytes(dist) + 512 * readdirSync(dist, { recursive: true }).length).toBeLessThan(UPLOAD_MAX);
    await expect(Promise.all(sites.map((site) => servedBlog(site.baseUrl)))).resolves.toEqual([UNRELEASED, UNRELEASED]);

    const answer = await upload(siteA().baseUrl, 'blog', await packReleaseArchive(dist));
    const answeredAt = Date.now();
    first = releaseIn(answer);
    expect(answer.body).toMatchObject({ kind: 'publish', app: 'blog', build: { created: true, source: `an upload by ${BLOG_TOKEN_NAME}` } });

    const [onA, onB] = await bothServe(first, answeredAt);
    // Each process finds the release by itself, without a restart (the bound: VISIBLE_WITHIN_MS).
    expect(onA).toBeLessThanOrEqual(VISIBLE_WITHIN_MS);
    expect(onB).toBeLessThanOrEqual(VISIBLE_WITHIN_MS);

    // The files are in the bucket (the manifest written last), and each process serves them from
    // a copy in its own cache folder.
    const keys = await store.list(`blog/${first}/`);
    expect(keys).toContain(`blog/${first}/release-manifest.json`);
    expect(keys).toContain(`blog/${first}/mf-manifest.json`);
    for (const cache of caches) expect(existsSync(path.join(cache, 'blog', first, 'mf-manifest.json'))).toBe(true);
    for (const site of sites) {
      const manifest = await fetch(`${site.baseUrl}/remotes/blog/${first}/mf-manifest.json`);
      expect([manifest.status, manifest.headers.get('cache-control')]).toEqual([200, expect.stringContaining('immutable')]);
    }
    // The release API reports it, on either process.
    const listed = await command(siteB().baseUrl, 'GET', 'blog');
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).toContain(first);
  });

  it('keeps each browser on one blog release across A and B during a 50 % canary, and gives both releases out', async () => {
    const changed = changedBlogBuild();
    cleanUp.push(changed);
    const answer = await upload(siteA().baseUrl, 'blog', await packReleaseArchive(changed), '?action=canary&share=50');
    const answeredAt = Date.now();
    candidate = releaseIn(answer);
    expect(answer.body).toMatchObject({ kind: 'canary', candidate: { id: candidate, share: 50 }, current: { id: first } });
    // Bucket 0 is in the candidate's half, the last bucket outside it; visitors without one get the current release.
    const inCanary = await bothServe(candidate, answeredAt, `${RELEASE_BUCKET_COOKIE}=0`);
    expect(Math.max(...inCanary)).toBeLessThanOrEqual(VISIBLE_WITHIN_MS);
    await bothServe(first, answeredAt, `${RELEASE_BUCKET_COOKIE}=${RELEASE_BUCKETS - 1}`);
    await bothServe(first, answeredAt);

    /** Navigations of one browser: each page's document from the process named, its other requests in turn. */
    const visits: [string, Backend][] = [
      ['/', 0],
      ['/blog', 1],
      ['/blog/1', 0],
      ['/', 1],
      ['/blog/1', 1],
    ];
    const seen = new Map<string, number>();
    for (let visitor = 0; visitor < 20 && (seen.size < 2 || visitor < 4); visitor += 1) {
      const page = await openPage(browser);
      const blogFiles: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/remotes/blog/')) blogFiles.push(request.url());
      });
      const releases: string[] = [];
      const documents: number[] = [];
      for (const [pathname, target] of visits) {
        // Every other browser starts on B.
        const backend = ((target + visitor) % 2) as Backend;
        proxy.route = (request) => (request.headers['sec-fetch-dest'] === 'document' ? backend : undefined);
        const logged = proxy.log.length;
        const response = await page.goto(`${proxy.origin}${pathname}`);
        expect(response?.status()).toBe(200);
        documents.push(...proxy.log.slice(logged).filter((entry) => entry.dest === 'document').map((entry) => entry.backend));
        const slot = page.locator(pathname === '/' ? `#${SECTION_IDS.blog} [data-remote-module="blog/BlogTeaser"]` : '[data-remote-module^="blog/"]');
        await waitForHydration(slot);
        releases.push(...(await blogReleasesOn(page)));
        if (pathname === '/blog/1') {
          // Rendered on the server of the process the document came from, from that release's server bundle.
          await page.getByRole('link', { name: releases.at(-1) === candidate ? NEW_BACK_LINK : OLD_BACK_LINK }).waitFor();
        }
      }
      proxy.route = () => undefined;
      // Its pages came from both processes, and every one of them ran one blog release.
      expect(new Set(documents)).toEqual(new Set([0, 1]));
      expect(new Set(releases).size).toBe(1);
      const release = releases[0]!;
      expect([first, candidate]).toContain(release);
      expect(blogFiles.length).toBeGreaterThan(0);
      expect(blogFiles.filter((url) => !url.includes(`/remotes/blog/${release}/`))).toEqual([]);
      // The release follows the bucket the first navigation was given, whichever process gave it.
      const buckets = (await page.context().cookies()).filter((entry) => entry.name === RELEASE_BUCKET_COOKIE);
      expect(buckets).toHaveLength(1);
      expect(release).toBe(Number(buckets[0]!.value) < RELEASE_BUCKETS / 2 ? candidate : first);
      seen.set(release, (seen.get(release) ?? 0) + 1);
      await page.context().close();
    }
    // Several browsers together got both releases.
    expect([...seen.keys()].sort()).toEqual([first, candidate].sort());
  });

  it('shows a promotion (through B) and a rollback (the CLI, through the proxy) on both processes', async () => {
    const promoted = await command(siteB().baseUrl, 'POST', 'blog/promote');
    const promotedAt = Date.now();
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ kind: 'promote', release: { id: candidate }, from: { id: first } });
    const afterPromotion = await bothServe(candidate, promotedAt);
    expect(Math.max(...afterPromotion)).toBeLessThanOrEqual(VISIBLE_WITHIN_MS);

    const output = await releaseCli('blog', '--rollback', '--site', proxy.origin, '--token', BLOG_TOKEN);
    const rolledBackAt = Date.now();
    expect(output).toContain(`Rolled back blog: release ${first} is now current (was ${candidate})`);
    const afterRollback = await bothServe(first, rolledBackAt);
    expect(Math.max(...afterRollback)).toBeLessThanOrEqual(VISIBLE_WITHIN_MS);
    // Every visitor, canary cookie or not: no canary is left.
    await bothServe(first, rolledBackAt, `${RELEASE_BUCKET_COOKIE}=0`);
    const events = await db.kysely.selectFrom('release_events').select(['release', 'action', 'actor']).where('app', '=', 'blog').orderBy('seq').execute();
    expect(events.slice(-2)).toEqual([
      expect.objectContaining({ release: candidate, action: 'promoted', actor: `token:${BLOG_TOKEN_NAME}` }),
      expect.objectContaining({ release: candidate, action: 'rolled_back', actor: `token:${BLOG_TOKEN_NAME}` }),
    ]);
  });

  it('loads the old release’s lazy chunk from B for a page A served before a new release', async () => {
    // Everything of the page from A: B never sees it.
    proxy.route = () => 0;
    const logged = proxy.log.length;
    const page = await openPage(browser, proxy.origin);
    const postLink = page.locator(`#${SECTION_IDS.blog} article`).first().getByRole('link', { name: /Читати далі/ });
    await waitForHydration(postLink);
    await expect(blogReleasesOn(page)).resolves.toEqual(expect.arrayContaining([first]));
    expect(new Set((await blogReleasesOn(page)))).toEqual(new Set([first]));
    expect(proxy.log.slice(logged).every((entry) => entry.backend === 0)).toBe(true);
    // Its post page code is not loaded yet.
    const chunkResponses: { url: string; status: number }[] = [];
    page.on('response', (response) => {
      if (BLOG_POST_PAGE_CODE.test(new URL(response.url()).pathname)) chunkResponses.push({ url: response.url(), status: response.status() });
    });
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText ?? ''}`));
    const notFound: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) notFound.push(`${response.status()} ${response.url()}`);
    });

    const variant = blogVariant('fix');
    const answer = await upload(siteA().baseUrl, 'blog', await packReleaseArchive(variant));
    const answeredAt = Date.now();
    const next = releaseIn(answer);
    expect(next).not.toBe(first);
    await bothServe(next, answeredAt);

    // From now on, B answers everything.
    proxy.route = () => 1;
    const afterRelease = proxy.log.length;
    await postLink.click();
    await page.getByRole('heading', { level: 1 }).and(page.locator('#blog-post-title')).waitFor();
    await expect(page.getByRole('link', { name: OLD_BACK_LINK }).count()).resolves.toBeGreaterThan(0);
    expect(new Set(await blogReleasesOn(page))).toEqual(new Set([first]));

    // The old release's chunk, answered 200 by B.
    expect(chunkResponses).toEqual([{ url: expect.stringContaining(`/remotes/blog/${first}/__federation_expose_BlogPostPage.`), status: 200 }]);
    const chunkPath = new URL(chunkResponses[0]!.url).pathname;
    expect(proxy.log.slice(afterRelease).filter((entry) => entry.url === chunkPath)).toEqual([expect.objectContaining({ backend: 1, status: 200 })]);
    expect(proxy.log.slice(afterRelease).every((entry) => entry.backend === 1)).toBe(true);
    expect(failed).toEqual([]);
    expect(notFound).toEqual([]);
    expect(page.consoleErrors.filter((message) => /ChunkLoadError|Loading chunk|Failed to fetch dynamically/i.test(message))).toEqual([]);
    await expect(page.locator('[data-remote-unavailable]').count()).resolves.toBe(0);
    proxy.route = () => undefined;
    await page.context().close();

    // And back to the release the rest of the suite expects as current.
    const rolledBack = await command(siteA().baseUrl, 'POST', 'blog/rollback');
    expect(rolledBack.status).toBe(200);
    await bothServe(first, Date.now());
  });

  it('refuses the blog team’s token for the forms and the shell (403), and changes nothing', async () => {
    const rowsBefore = await releaseRows();
    const objectsBefore = await store.list('');
    const archive = await packReleaseArchive(path.join(ROOT, 'mfe-forms/dist'));
    for (const app of ['forms', 'shell']) {
      for (const site of sites) {
        const message = `The token ${BLOG_TOKEN_NAME} may release blog, not ${app}.`;
        for (const answer of [
          await command(site.baseUrl, 'GET', app),
          await upload(site.baseUrl, app, archive),
          await command(site.baseUrl, 'POST', `${app}/rollback`),
        ]) {
          expect(answer).toEqual({ status: 403, body: { error: { code: 'FORBIDDEN', message } } });
        }
      }
    }
    expect(await releaseRows()).toEqual(rowsBefore);
    expect(await store.list('')).toEqual(objectsBefore);
  });

  describe('a bad upload is refused with what is wrong, and nothing is stored', () => {
    const BLOG_FILES = SMALLEST_BLOG_BUILD;
    const cases: [string, () => Promise<Buffer>, number, string | RegExp, string?][] = [
      ...HOSTILE_BLOG_ARCHIVES,
      [
        'without mf-manifest.json (the real build without it)',
        async () => {
          const dir = mkdtempSync(path.join(os.tmpdir(), 'agency-blog-no-manifest-'));
          cleanUp.push(dir);
          cpSync(path.join(ROOT, 'mfe-blog/dist'), dir, { recursive: true });
          rmSync(path.join(dir, 'mf-manifest.json'));
          return packReleaseArchive(dir);
        },
        400,
        "a blog build needs mf-manifest.json at its root: is this the app's dist folder?",
      ],
      [
        'sent as application/octet-stream (the real build)',
        () => packReleaseArchive(path.join(ROOT, 'mfe-blog/dist')),
        415,
        "a release archive (a .tar.gz of the app's dist folder) must be sent as application/gzip or application/x-gzip, not application/octet-stream",
        'application/octet-stream',
      ],
      [
        `larger than RELEASE_UPLOAD_MAX_MB (${UPLOAD_MAX_MB} MB of random bytes)`,
        () => tarball([...BLOG_FILES, { name: 'noise.bin', content: randomBytes(UPLOAD_MAX + 64 * 1024) }]),
        413,
        `The release archive is larger than ${UPLOAD_MAX_MB} MB (RELEASE_UPLOAD_MAX_MB).`,
      ],
      [
        `unpacking to more than RELEASE_UPLOAD_MAX_MB (a small archive of ${2 * UPLOAD_MAX_MB} MB of zeros)`,
        () => tarball([...BLOG_FILES, { name: 'zeros.bin', content: Buffer.alloc(2 * UPLOAD_MAX) }]),
        413,
        `the release archive unpacks to more than ${UPLOAD_MAX.toLocaleString('en')} bytes, the most a release may hold`,
      ],
    ];

    it.each(cases)('%s', async (_label, make, status, message, contentType = 'application/gzip') => {
      const archive = await make();
      const rowsBefore = await releaseRows();
      const objectsBefore = await store.list('');
      expect(rowsBefore.length).toBeGreaterThan(0);
      expect(objectsBefore.length).toBeGreaterThan(0);
      for (const site of sites) {
        const answer = await upload(site.baseUrl, 'blog', archive, '', contentType);
        expect(answer).toEqual({ status, body: { error: { code: 'BAD_ARCHIVE', message } } });
      }
      expect(await releaseRows()).toEqual(rowsBefore);
      expect(await store.list('')).toEqual(objectsBefore);
      // And visitors still get the release they got.
      await expect(Promise.all(sites.map((site) => servedBlog(site.baseUrl)))).resolves.toEqual([first, first]);
    });

    it('larger than RELEASE_UPLOAD_MAX_MB, sent with the CLI: the team reads the same message', async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'agency-blog-too-large-'));
      cleanUp.push(dir);
      cpSync(path.join(ROOT, 'mfe-blog/dist'), dir, { recursive: true });
      writeFileSync(path.join(dir, 'noise.bin'), randomBytes(UPLOAD_MAX + 64 * 1024));
      const rowsBefore = await releaseRows();
      const objectsBefore = await store.list('');
      for (const site of sites) {
        await expect(releaseCli('blog', '--dist', dir, '--site', site.baseUrl, '--token', BLOG_TOKEN)).rejects.toThrow(
          `The release archive is larger than ${UPLOAD_MAX_MB} MB (RELEASE_UPLOAD_MAX_MB).`,
        );
      }
      expect(await releaseRows()).toEqual(rowsBefore);
      expect(await store.list('')).toEqual(objectsBefore);
    });
  });

  it('serves a new release’s files on B as soon as A sends pages of it, before B has read the releases again', async () => {
    // A process reads the releases again when asked once its last read is a second old: right
    // after a release there is a while when A (which published it) sends pages of it and B, which
    // visitors keep asking, has not read it yet. The files those pages load may be asked of B then.
    // B is asked every 100 ms while the release is uploaded, as by visitors, so it reads once a
    // second and the while after the release lasts up to a second; releases are published until it
    // has been caught twice (it is missed when B's second ends before it is asked: measured, the
    // first two releases caught it, idle and with the cores busy).
    const caught: { round: number; answers: number[] }[] = [];
    const ROUNDS = 30;
    let rounds = 0;
    for (let round = 1; round <= ROUNDS && caught.length < 2; round += 1) {
      const build = blogVariant(`early-${round}`);
      const archive = await packReleaseArchive(build);
      rmSync(build, { recursive: true, force: true });
      let uploading = true;
      const visitorsOfB = (async () => {
        while (uploading) {
          await servedBlog(siteB().baseUrl);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
      const release = releaseIn(await upload(siteA().baseUrl, 'blog', archive).finally(() => (uploading = false)));
      // B still names the release before (the while), then is asked for the new one's files, as a
      // page from A would ask. (Asked at once, a file's request could make B read before it names.)
      // Right after the upload's answer: A itself takes most of that second to fetch the files it
      // then serves, and a wait for A first caught the while about once in eight releases.
      const named = await servedBlog(siteB().baseUrl);
      const answers = await Promise.all(
        ['mf-manifest.json', 'remoteEntry.js'].map(async (file) => (await fetch(`${siteB().baseUrl}/remotes/blog/${release}/${file}`)).status),
      );
      if (named !== release) caught.push({ round, answers });
      rounds = round;
      await visitorsOfB;
      await servedAfter(siteA().baseUrl, release, Date.now());
      await bothServe(release, Date.now());
    }
    console.info(`the while caught in rounds ${caught.map(({ round }) => round).join(', ')} of ${rounds}`);
    if (caught.length === 0) throw new Error(`B read each of ${ROUNDS} releases as soon as A did: the while was never caught`);
    expect(caught).toEqual(caught.map(({ round }) => ({ round, answers: [200, 200] })));
  });
});
