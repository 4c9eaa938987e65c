import { appendFileSync, cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Browser, Response } from 'playwright-core';
import { FEDERATION_REGISTRY, FORM_TOKEN_FIELD, formsInMarkup, HOST_NAME, REMOTE_NAMES, REMOTE_OVERRIDE_COOKIE, remoteOnPath, type ApiErrorBody, type BlogPostSummary, type RemoteName, type RemotesDocument } from '@agency/shared';
import { createDatabase } from '../api/src/platform/db/connection';
import { cacheControlFor, IMMUTABLE } from '../api/src/platform/http/cache-policy';
import { FORM_PAGE_CACHE_CONTROL } from '../api/src/site/pages/serve-page';
import { eventually } from '../api/test/helpers/eventually';
import { privacySpellings } from '../api/test/helpers/page-spellings';
import { startRedisServer, type RedisServer } from '../api/test/helpers/redis-server';
import { describeWithTools } from '../api/test/helpers/system-tools';
import { describeInBrowser, launchBrowser, loadEverything, openPage } from './support/browser';
import { OLD_BACK_LINK } from './support/changed-blog-build';
import { startPostgres, type RunningPostgres } from './support/postgres';
import { freePortForLater, releaseCli, ROOT, startSite, type RunningSite } from './support/site';
import { startStaticApp, type RunningStaticApp } from './support/static-app-nginx';

// The topology of docker-compose.yml without a Docker engine: each app's nginx (Debian's, with the
// repo's templates rendered by the image's entrypoint script) on its own 127.0.0.1 port, two API
// processes on one PostgreSQL and one release store behind the shell's nginx, sharing their rate
// limit in a real redis-server, and each app's build published by its entrypoint through the
// release API, as its container does at start.
// docker-compose.e2e.test.ts runs the real containers and what visitors and teams do with them;
// this suite keeps what it checks in seconds, and on machines with no engine: the headers of every
// file nginx serves, what it hides, what it proxies, and how the rate limit counts clients.

jest.setTimeout(120_000);

const folderOf = (name: RemoteName) => FEDERATION_REGISTRY.remotes[name].folder;
const RATE_LIMIT_MAX = 5;
const METRICS_TOKEN = 'topology-e2e-metrics';
/** A valid contact message, as the form sends it. */
/** Each app's release token, as RELEASE_TOKENS gives it to the API and the app's container to its entrypoint. */
const tokenOf = (app: string) => `dev-${app}-topology`;
const RELEASE_TOKENS = [HOST_NAME, ...REMOTE_NAMES].map((app) => `${app}-topology=${app}:${tokenOf(app)}`).join(' ');
const contactBody = (name: string) =>
  JSON.stringify({ name, email: 'limit.e2e@example.com', phone: '+380501112233', message: 'Перевірка ліміту.', website: '' });

// Skipped loudly, outside CI, without Chromium or the Debian programs it runs.
const describeTopology = describeInBrowser === describe ? describeWithTools('nginx', 'envsubst', 'redis-server') : describeInBrowser;

describeTopology('the container topology (nginx per app, two API processes, PostgreSQL, Redis)', () => {
  let browser: Browser;
  let postgres: RunningPostgres;
  let redis: RedisServer;
  let workDir: string;
  let shell: RunningStaticApp;
  const remotes = {} as Record<RemoteName, RunningStaticApp>;
  const apis: RunningSite[] = [];

  beforeAll(async () => {
    workDir = mkdtempSync(path.join(os.tmpdir(), 'agency-topology-'));
    [browser, postgres, redis] = await Promise.all([launchBrowser(), startPostgres(), startRedisServer()]);
    const shellPort = await freePortForLater();
    const shellOrigin = `http://127.0.0.1:${shellPort}`;
    const apiEnv: Record<string, string> = {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      // The release store both processes use, as compose's release-store volume; no app's build
      // beside them (STATIC_ROOT: a folder with none), as in the API's image.
      RELEASE_STORE: `file:${path.join(workDir, 'release-store')}`,
      STATIC_ROOT: path.join(workDir, 'no-builds'),
      RELEASE_TOKENS,
      TRUST_PROXY: '127.0.0.1',
      SITE_URL: shellOrigin,
      RATE_LIMIT_MAX: String(RATE_LIMIT_MAX),
      METRICS_TOKEN,
    };
    // One after the other: the first migrates the new database.
    for (let i = 0; i < 2; i += 1) apis.push(await startSite(apiEnv));
    // Each app publishes through one of the processes; the other serves it too.
    const publishing = (app: string, api: RunningSite) => ({ RELEASE_API: api.baseUrl, RELEASE_APP: app, RELEASE_TOKEN: tokenOf(app) });
    await Promise.all(
      REMOTE_NAMES.map(async (name, index) => {
        remotes[name] = await startStaticApp({ folder: folderOf(name), env: { SHELL_ORIGIN: shellOrigin, ...publishing(name, apis[index % 2]!) } });
      }),
    );
    shell = await startStaticApp({
      folder: 'shell',
      port: shellPort,
      env: { API_UPSTREAMS: apis.map((api) => `127.0.0.1:${api.port}`).join(' '), ...publishing(HOST_NAME, apis[1]!) },
    });
  });

  afterAll(async () => {
    await Promise.all([browser?.close(), shell?.stop(), ...Object.values(remotes).map((remote) => remote.stop())]);
    await Promise.all(apis.map((api) => api.stop()));
    await Promise.all([postgres?.stop(), redis?.stop()]);
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  /** The releases the release API lists for `app`, asked with its token. */
  async function releasesOf(app: string): Promise<{ current?: { id: string }; releases: { release: { id: string } }[] }> {
    const response = await fetch(`${apis[0]!.baseUrl}/api/releases/${app}`, { headers: { authorization: `Bearer ${tokenOf(app)}` } });
    expect(response.status).toBe(200);
    return (await response.json()) as { current?: { id: string }; releases: { release: { id: string } }[] };
  }

  async function newestPost(): Promise<BlogPostSummary> {
    const [post] = (await (await fetch(`${shell.origin}/api/blog?limit=1`)).json()) as BlogPostSummary[];
    return post!;
  }

  it('serves the releases each app’s entrypoint published: every remote under its release’s URL through the shell’s nginx, CSP and cache headers as the API’s', async () => {
    // What the entrypoints published is each app's current release, on both processes.
    const current = Object.fromEntries(await Promise.all([HOST_NAME, ...REMOTE_NAMES].map(async (app) => [app, (await releasesOf(app)).current?.id])));
    expect(Object.values(current)).not.toContain(undefined);
    const served = async (api: RunningSite) => {
      const document = (await (await fetch(`${api.baseUrl}/remotes.json`)).json()) as RemotesDocument;
      return { shell: document.shell.release, ...Object.fromEntries(REMOTE_NAMES.map((name) => [name, document.remotes[name].release])) };
    };
    // Within a second of the last publication (each process reads the releases' revision once a second).
    for (const api of apis) await eventually('the current releases served', () => served(api), (releases) => isDeepStrictEqual(releases, current), 1_500);

    const page = await openPage(browser);
    const responses: Response[] = [];
    const failed: string[] = [];
    page.on('response', (response) => responses.push(response));
    page.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText ?? ''}`));
    const document = await page.goto(`${shell.origin}/`);
    // Scrolled through, so each lower section loads its remote's code.
    await loadEverything(page);

    // The page (rendered by an API process behind the shell's nginx) loads scripts from its own origin only.
    const csp = (await document!.allHeaders())['content-security-policy'] ?? '';
    expect(/script-src ([^;]+)/.exec(csp)?.[1]?.split(' ')).toEqual(["'self'"]);

    // Every remote of the home page (not the staff console) came through the shell's nginx from the
    // API, under its current release's URL, which never changes content.
    const onHome = REMOTE_NAMES.filter((name) => remoteOnPath(name, '/'));
    const manifests = responses.filter((response) => response.url().endsWith('/mf-manifest.json'));
    expect(new Set(manifests.map((response) => response.url()))).toEqual(
      new Set(onHome.map((name) => `${shell.origin}/remotes/${name}/${current[name]}/mf-manifest.json`)),
    );
    const remoteFiles = responses.filter((response) => new URL(response.url()).pathname.startsWith('/remotes/'));
    expect(remoteFiles.length).toBeGreaterThan(onHome.length * 2);
    for (const response of remoteFiles) {
      expect([response.url(), response.status(), response.headers()['cache-control']]).toEqual([response.url(), 200, IMMUTABLE]);
    }

    // Each of the shell's own files nginx served carries the API's cache rule for its name.
    const shellFiles = responses.filter((response) => {
      const url = new URL(response.url());
      return /\.[a-z0-9]+$/i.test(url.pathname) && !/^\/(api|media|remotes)\//.test(url.pathname);
    });
    expect(shellFiles.length).toBeGreaterThan(0);
    for (const response of shellFiles) {
      const { pathname } = new URL(response.url());
      expect([pathname, response.headers()['cache-control']]).toEqual([pathname, cacheControlFor(pathname)]);
    }
    expect(failed).toEqual([]);
    expect(page.consoleErrors).toEqual([]);
    await page.context().close();
  });

  it('publishes a build once: an app’s container started again with the same build adds no release', async () => {
    const before = await releasesOf('blog');
    await remotes.blog.stop();
    remotes.blog = await startStaticApp({
      folder: folderOf('blog'),
      env: { SHELL_ORIGIN: shell.origin, RELEASE_API: apis[1]!.baseUrl, RELEASE_APP: 'blog', RELEASE_TOKEN: tokenOf('blog') },
    });
    // The entrypoint logs the answer before it marks the build published, but the log reaches this
    // process through a pipe: it may be read after the health check has passed.
    const kept = /release of blog \(current\): .*"kind":"kept"/;
    await eventually('the kept answer logged', async () => remotes.blog.output(), (output) => kept.test(output), 10_000);
    expect(await releasesOf('blog')).toEqual(before);
  });

  it('leaves an app’s container unhealthy, its nginx serving and nothing released, when the release API refuses its build', async () => {
    const before = await releasesOf('forms');
    // The blog team's token for the forms app: refused (403), and final (not tried again).
    const refused = await startStaticApp({
      folder: folderOf('forms'),
      env: { SHELL_ORIGIN: shell.origin, RELEASE_API: apis[0]!.baseUrl, RELEASE_APP: 'forms', RELEASE_TOKEN: tokenOf('blog') },
      untilHealthy: false,
    });
    try {
      await eventually('the refusal logged', async () => refused.output(), (output) => output.includes('release of forms refused (403)'), 10_000);
      expect(refused.healthy()).toBe(false);
      expect((await fetch(`${refused.origin}/healthz`)).status).toBe(204);
      expect(await releasesOf('forms')).toEqual(before);
    } finally {
      await refused.stop();
    }
  });

  it('takes a team’s upload through the shell’s nginx: a whole build, streamed to the API, which checks the token first', async () => {
    const before = await releasesOf('blog');
    // The blog's build with one line more in its stats: a build no release holds yet.
    const build = path.join(workDir, 'blog-build');
    cpSync(path.join(ROOT, 'mfe-blog', 'dist'), build, { recursive: true });
    appendFileSync(path.join(build, 'mf-stats.json'), '\n');
    const output = await releaseCli('blog', '--dist', build, '--stage', '--site', shell.origin, '--token', tokenOf('blog'));
    expect(output).toContain(`${shell.origin}/?preview=`);
    const after = await releasesOf('blog');
    expect([after.releases.length, after.current]).toEqual([before.releases.length + 1, before.current]);
    // Without a token nothing is read or stored: refused at once.
    const anonymous = await fetch(`${shell.origin}/api/releases/blog/builds`, { method: 'POST', headers: { 'content-type': 'application/gzip' }, body: new Uint8Array(1024 * 1024) });
    expect(anonymous.status).toBe(401);
    expect((await releasesOf('blog')).releases).toHaveLength(after.releases.length);
  });

  it('hands the staff console’s long bodies to the API: an image of several MiB gets the API’s answer, not the nginx limit', async () => {
    const upload = await fetch(`${shell.origin}/api/staff/articles/1/images?use=cover`, { method: 'POST', headers: { 'content-type': 'image/jpeg' }, body: new Uint8Array(3 * 1024 * 1024) });
    // Nobody signed in: the API's own refusal, as JSON.
    expect([upload.status, ((await upload.json()) as ApiErrorBody).error.code]).toEqual([401, 'SIGN_IN_REQUIRED']);
  });

  it('sends precompressed files and never a source map, a server bundle or a build stamp', async () => {
    const manifest = (await (await fetch(`${remotes.blog.origin}/mf-manifest.json`)).json()) as { metaData: { remoteEntry: { name: string } } };
    const entry = await fetch(`${remotes.blog.origin}/${manifest.metaData.remoteEntry.name}`, { headers: { 'accept-encoding': 'br' } });
    expect([entry.status, entry.headers.get('content-encoding'), entry.headers.get('vary')]).toEqual([200, 'br', 'Accept-Encoding']);
    const gzipped = await fetch(`${remotes.blog.origin}/${manifest.metaData.remoteEntry.name}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');

    const html = await (await fetch(`${shell.origin}/`)).text();
    const shellScript = /<script[^>]+src="?\/([^"\s>]+\.js)/.exec(html)?.[1];
    expect(shellScript).toBeDefined();
    for (const origin of [shell.origin, remotes.blog.origin]) {
      const file = origin === shell.origin ? shellScript! : manifest.metaData.remoteEntry.name;
      for (const hidden of [`${file}.map`, 'server/render.js', '.build-stamp']) {
        expect([hidden, (await fetch(`${origin}/${hidden}`)).status]).toEqual([hidden, 404]);
      }
    }
    // The page template itself is only ever sent rendered.
    const template = await fetch(`${shell.origin}/index.html`);
    expect(await template.text()).not.toContain('id="root"></div>');
  });

  it('hands /api, pages (with their status) and covers to the API, remotes rendered on the server from their releases', async () => {
    const health = await fetch(`${shell.origin}/api/health`);
    expect([health.status, ((await health.json()) as { status: string }).status]).toEqual([200, 'ok']);
    const missing = await fetch(`${shell.origin}/no-such-page`);
    expect([missing.status, missing.headers.get('content-type')]).toEqual([404, 'text/html; charset=utf-8']);
    expect(await missing.text()).toContain('Сторінку не знайдено');

    const post = await newestPost();
    const page = await fetch(`${shell.origin}/blog/${post.id}`);
    const html = await page.text();
    expect(page.status).toBe(200);
    // The blog remote's own markup (from the release its entrypoint published) and meta.
    expect(html).toContain(`data-remote-module="blog/BlogPostPage"`);
    expect(html).toContain(OLD_BACK_LINK);
    expect(html).toMatch(new RegExp(`<meta property="og:title" content="[^"]*${post.title.slice(0, 12)}`));
    const cover = await fetch(`${shell.origin}${post.image_url}`);
    expect([cover.status, cover.headers.get('cache-control')]).toEqual([200, 'public, max-age=31536000, immutable']);
  });

  it('keeps pages in the shell’s nginx as the API allows: answered by nginx, 304 to their ETag, new within seconds of a content change', async () => {
    const post = await newestPost();
    const pageUrl = `${shell.origin}/blog/${post.id}`;
    const first = await fetch(pageUrl);
    const body = await first.text();
    const again = await Promise.all([1, 2, 3, 4, 5].map(() => fetch(pageUrl)));
    expect(again.map((response) => response.headers.get('x-cache-status'))).toContain('HIT');
    expect(new Set(await Promise.all(again.map((response) => response.text())))).toEqual(new Set([body]));
    // A browser with an override's cookie goes straight to the API, even for a page nginx holds,
    // and its answer is kept nowhere (this one, forged, is the page everyone gets).
    const overriding = await fetch(pageUrl, { headers: { cookie: `${REMOTE_OVERRIDE_COOKIE}=forged.token` } });
    expect([overriding.status, overriding.headers.get('x-cache-status')]).toEqual([200, 'BYPASS']);
    const notModified = await fetch(pageUrl, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(notModified.status).toBe(304);

    const db = createDatabase(postgres.url, { poolSize: 1 });
    const title = `${post.title} (оновлено)`;
    try {
      await db.kysely.updateTable('blog_posts').set({ title }).where('id', '=', post.id).execute();
      await eventually(
        'four pages in a row through nginx with the new title',
        () => Promise.all([1, 2, 3, 4].map(async () => (await fetch(pageUrl)).text())),
        (pages) => pages.every((html) => html.includes(title)),
        10_000,
      );
    } finally {
      await db.kysely.updateTable('blog_posts').set({ title: post.title }).where('id', '=', post.id).execute();
      await db.destroy();
      // The next test counts renders: it starts once each process has seen the restored content
      // (each looks again within a second of a request) and rendered it, not while one still may.
      await eventually(
        'each API process serving the restored title',
        () => Promise.all(apis.map(async (api) => (await fetch(`${api.baseUrl}/blog/${post.id}`)).text())),
        (pages) => pages.every((html) => !html.includes(title)),
        10_000,
      );
    }
  });

  it('keeps each page under its one address in nginx: 300 spellings and 300 campaign links of /privacy add no copy and no render', async () => {
    /** Pages the API processes rendered so far (each process's own count, from its /metrics). */
    const renders = async () => {
      let total = 0;
      for (const api of apis) {
        const scraped = await (await fetch(`${api.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
        total += Number(/^agency_page_render_duration_seconds_count (\d+)$/m.exec(scraped)?.[1]);
      }
      return total;
    };
    /** Pages nginx keeps: one file per key (its name is the key's MD5). */
    const keptPages = () =>
      readdirSync(path.join(shell.runDir, 'pages'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile() && /^[0-9a-f]{32}$/.test(entry.name)).length;
    // Both processes and nginx hold both pages first.
    for (const base of [...apis.map((api) => api.baseUrl), shell.origin]) {
      for (const url of ['/blog', '/privacy']) expect((await fetch(`${base}${url}`)).status).toBe(200);
    }
    const [pagesBefore, rendersBefore] = [keptPages(), await renders()];

    for (const spelling of privacySpellings(300)) {
      const response = await fetch(`${shell.origin}${spelling}`, { redirect: 'manual' });
      expect([spelling, response.status, response.headers.get('location')]).toEqual([spelling, 301, '/privacy']);
    }
    for (let i = 0; i < 300; i += 1) {
      const response = await fetch(`${shell.origin}/privacy?utm_source=newsletter&gclid=click-${i}`);
      expect(response.status).toBe(200);
    }
    expect(keptPages()).toBe(pagesBefore);
    expect(await renders()).toBeLessThanOrEqual(rendersBefore + 1);
    // The blog listing is still kept: nginx answers it without asking for a new render.
    expect((await fetch(`${shell.origin}/blog`)).headers.get('x-cache-status')).toMatch(/^(HIT|STALE|UPDATING|REVALIDATED)$/);
  });

  it('never keeps or holds back a page with forms in nginx: every visitor gets form tokens of their own', async () => {
    const post = await newestPost();
    const tokenOf = (html: string) => new RegExp(`name="${FORM_TOKEN_FIELD}" value="([^"]+)"`).exec(html)?.[1];
    for (const pagePath of ['/', '/privacy', '/blog', `/blog/${post.id}`]) {
      const answers = [];
      for (let i = 0; i < 3; i += 1) {
        const response = await fetch(`${shell.origin}${pagePath}`);
        const html = await response.text();
        answers.push({ cache: response.headers.get('x-cache-status'), control: response.headers.get('cache-control'), forms: formsInMarkup(html).length > 0, token: tokenOf(html) });
      }
      if (!answers[0]!.forms) {
        // A page without forms is kept, and nginx's list of pages with forms must not name it.
        expect([pagePath, answers.map((answer) => answer.cache)]).toEqual([pagePath, expect.arrayContaining(['HIT'])]);
        continue;
      }
      // nginx's list of pages with forms names this one: passed straight to the API, never kept.
      expect([pagePath, answers.map((answer) => [answer.cache, answer.control])]).toEqual([pagePath, answers.map(() => ['BYPASS', FORM_PAGE_CACHE_CONTROL])]);
      expect(new Set(answers.map((answer) => answer.token)).size).toBe(3);
      expect(answers.every((answer) => answer.token !== undefined)).toBe(true);
    }
  });

  it('never keeps a blog listing under another listing’s address, however a link spells its query', async () => {
    const listing = (await (await fetch(`${shell.origin}/api/blog/listing`)).json()) as { categories: { name: string }[] };
    const category = encodeURIComponent(listing.categories[0]!.name);
    // The plain listing, as the API renders it and as nginx keeps it.
    const plain = await (await fetch(`${apis[0]!.baseUrl}/blog`)).text();
    expect(await (await fetch(`${shell.origin}/blog`)).text()).toBe(plain);
    // Each of these the page reads as that category (or another), which nginx would read otherwise.
    const pastSMaxAge = () => new Promise((resolve) => setTimeout(resolve, 1200));
    for (const query of [`%63ategory=${category}`, `CATEGORY=${category}&category=`, `category=${category}&category=`, `page=1&category=${category}`]) {
      // Once the kept copies are stale, the next request under their key is the one nginx refreshes them with.
      await pastSMaxAge();
      for (let i = 0; i < 3; i += 1) expect([query, (await fetch(`${shell.origin}/blog?${query}`)).status]).toEqual([query, 200]);
      await pastSMaxAge();
      expect([query, await (await fetch(`${shell.origin}/blog`)).text()]).toEqual([query, plain]);
      for (const kept of ['category=', `category=${category}`]) {
        const fromApi = await (await fetch(`${apis[0]!.baseUrl}/blog?${kept}`)).text();
        expect([query, kept, await (await fetch(`${shell.origin}/blog?${kept}`)).text()]).toEqual([query, kept, fromApi]);
      }
    }
  });

  it('keeps in nginx only a page’s better brotli copy, under the one ETag every API process gives the page', async () => {
    /** A page's brotli bytes and headers as a browser gets them (fetch would decode them). */
    const brotliPage = (origin: string, pagePath: string) =>
      new Promise<{ headers: IncomingHttpHeaders; raw: Buffer }>((resolve, reject) => {
        http
          .get(`${origin}${pagePath}`, { headers: { accept: 'text/html', 'accept-encoding': 'br' } }, (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => resolve({ headers: response.headers, raw: Buffer.concat(chunks) }));
          })
          .on('error', reject);
      });
    // A page no other test asks for (the oldest post's): nginx and both processes hold nothing of it yet.
    const posts = (await (await fetch(`${shell.origin}/api/blog?limit=50`)).json()) as BlogPostSummary[];
    const pagePath = `/blog/${posts.at(-1)!.id}`;
    const first = await brotliPage(shell.origin, pagePath);
    // The render's own copy is marked for nginx alone: the browser never sees the mark.
    expect([first.headers['content-encoding'], first.headers['x-cache-status'], first.headers['x-accel-expires']]).toEqual(['br', 'MISS', undefined]);
    // Each process's copy once it has made the better one: the same bytes and ETag from both.
    const better = await Promise.all(
      apis.slice(0, 2).map((api) =>
        eventually('the process’s better copy', () => brotliPage(api.baseUrl, pagePath), (page) => page.headers['x-accel-expires'] === undefined),
      ),
    );
    expect(new Set(better.map((page) => page.raw.toString('base64'))).size).toBe(1);
    expect(better.map((page) => page.headers.etag)).toEqual([first.headers.etag, first.headers.etag]);
    expect(better[0]!.raw.length).toBeLessThan(first.raw.length);
    const kept = await eventually('nginx answering the page itself', () => brotliPage(shell.origin, pagePath), (page) => page.headers['x-cache-status'] === 'HIT');
    expect([kept.headers.etag, kept.raw.equals(better[0]!.raw)]).toEqual([first.headers.etag, true]);
  });

  it('answers every request while one API process of three is left: the others gone, each tried in turn', async () => {
    // Ports 1 and 2: nothing listens, so they refuse at once; listed first (the entrypoint sorts
    // the addresses), they are the first two processes nginx asks.
    const gone = ['127.0.0.1:1', '127.0.0.1:2'];
    const lastOne = await startStaticApp({ folder: 'shell', env: { API_UPSTREAMS: [...gone, `127.0.0.1:${apis[0]!.port}`].join(' ') }, untilHealthy: false });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) statuses.push((await fetch(`${lastOne.origin}/api/services`)).status);
      expect(statuses).toEqual(Array<number>(6).fill(200));
    } finally {
      await lastOne.stop();
    }
  });

  it('shares the submission rate limit between the two API processes', async () => {
    // One client (its address forwarded by a trusted proxy), its requests spread over both processes.
    const send = (api: RunningSite) =>
      fetch(`${api.baseUrl}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.77' },
        body: contactBody('Ліміт'),
      }).then((response) => response.status);
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT_MAX + 2; i += 1) statuses.push(await send(apis[i % 2]!));
    expect(statuses).toEqual([...Array<number>(RATE_LIMIT_MAX).fill(201), 429, 429]);
  });

  it('counts clients by the address the shell’s nginx sees, whatever X-Forwarded-For they send', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= RATE_LIMIT_MAX; i += 1) {
      const response = await fetch(`${shell.origin}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i + 1}` },
        body: contactBody('Підробка'),
      });
      statuses.push(response.status);
    }
    expect(statuses.filter((status) => status === 201).length).toBeLessThanOrEqual(RATE_LIMIT_MAX);
    expect(statuses.at(-1)).toBe(429);
  });
});
