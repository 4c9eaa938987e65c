import { rmSync } from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { Browser, Page, Response } from 'playwright-core';
import {
  FEDERATION_REGISTRY,
  RELEASE_BUCKET_COOKIE,
  RELEASE_BUCKETS,
  REMOTE_NAMES,
  remoteOnPath,
  SECTION_IDS,
  SUBMISSION_ATTEMPT_TIMEOUT_MS,
  UNRELEASED,
  type BlogPostSummary,
  type RemoteName,
  type RemotesDocument,
  type Service,
} from '@agency/shared';
import { eventually } from '../api/test/helpers/eventually';
import { launchBrowser, loadEverything, openPage, waitForHydration } from './support/browser';
import { BLOG_POST_PAGE_CODE, changeBlogSource, NEW_BACK_LINK, OLD_BACK_LINK } from './support/changed-blog-build';
import { COMPOSE_FILES, ComposeProject, copyOfRepo, DEV_COMPOSE_FILES, describeWithCompose, type ContainerLife } from './support/compose-project';
import { sendContactAndApplication } from './support/forms';
import { getAsBrowser } from './support/get-as-browser';
import { itReporting } from './support/it-reporting';
import { describeStream, runLeadStream } from './support/lead-stream';
import { freePortForLater, releaseCli } from './support/site';
import { BROWSER_FETCH_HEADERS, SPAM_SECRETS_QUERY, spamFieldsWith, spamSecretsFromLines, type SiteSpamSecrets } from './support/spam-guard';

// docker-compose.yml and docker-compose.dev.yml run for real: images built from a copy of the repo,
// every service started by `docker compose` on a Docker engine, the site driven in Chromium. The
// copy lets the suite change the blog's source the way a team does before it redeploys.

jest.setTimeout(10 * 60_000);

/** A project name of its own, kept between runs, so its images serve as the build cache of the next run. */
const PROJECT = 'agency-compose-e2e';
/** What the blog's back link says after the edit made in the development overlay. */
const DEV_BACK_LINK = 'На головну (зміна з розробки)';
const CONTACT_EMAIL = 'compose.e2e@kava.lviv.ua';
/** What the blog's back link says in the build released as a canary. */
const CANARY_BACK_LINK = 'До новин (канарковий випуск)';
/** The blog's release token docker-compose.yml gives its container and the API without a .env. */
const BLOG_RELEASE_TOKEN = 'dev-blog-compose';
/** The static apps' services: the shell and each remote (its folder). */
const STATIC_APPS = [FEDERATION_REGISTRY.host.folder, ...REMOTE_NAMES.map((name) => FEDERATION_REGISTRY.remotes[name].folder)];
const APPLICATION_EMAIL = 'marta.compose@example.com';
/** The most a lost data machine may cost, as docs/operations.md promises: archive_timeout (30 s), a shipping round (10 s), and margin. */
const RPO_MS = 60_000;
/** The server's data directory, where the pgdata volume is mounted in the postgres and backup-agent services. */
const PG_DATA_DIR = '/var/lib/postgresql/data';

/** The host port variable of an app's container (`mfe-blog` → MFE_BLOG_PORT), as the compose files name it. */
const portVariable = (folder: string) => `${folder.toUpperCase().replace(/-/g, '_')}_PORT`;
const folderOf = (name: RemoteName) => FEDERATION_REGISTRY.remotes[name].folder;

describeWithCompose()('docker compose on a real engine: the site as one container per app', () => {
  let project: ComposeProject;
  let browser: Browser;
  const env: Record<string, string> = {
    PUBLISH_ADDRESS: '127.0.0.1',
    // Visitors here send hundreds of leads a second from one address: no rate limit in their way.
    RATE_LIMIT_MAX: '1000000',
    METRICS_TOKEN: 'compose-e2e-metrics-token',
    // Docker's classic builder, which `npm run swarm` builds with: the compose and Swarm suites then
    // share one build cache, so whichever runs second finds every image's build steps done.
    DOCKER_BUILDKIT: '0',
  };
  const site = () => `http://localhost:${env.SITE_PORT}`;
  const remoteOrigin = (name: RemoteName) => `http://localhost:${env[portVariable(folderOf(name))]}`;

  beforeAll(async () => {
    for (const variable of ['SITE_PORT', 'API_PORT', 'PROMETHEUS_PORT', ...REMOTE_NAMES.map((name) => portVariable(folderOf(name)))]) {
      env[variable] = String(await freePortForLater());
    }
    project = new ComposeProject(copyOfRepo(), PROJECT, env);
    // What an interrupted run may have left behind.
    await project.remove();
    await project.timed('docker compose build', () => project.compose(['build']));
    await project.timed('docker compose up -d --wait', () => project.compose(['up', '--detach', '--wait']));
    browser = await launchBrowser();
  }, 40 * 60_000);

  afterAll(async () => {
    await browser?.close();
    if (!project) return;
    await project.remove();
    rmSync(project.dir, { recursive: true, force: true });
    console.info(`docker compose, measured:\n${project.report.map((line) => `  ${line}`).join('\n')}`);
  }, 5 * 60_000);

  const it = itReporting(() => project.whatItSaw());

  /** The submissions staff export, run inside an API container as they would. */
  async function exported(kind: 'contact' | 'applications'): Promise<Record<string, unknown>[]> {
    const json = await project.compose(['exec', '--no-TTY', 'api', 'npm', 'run', 'submissions', '--silent', '--', kind, '--format', 'json']);
    return JSON.parse(json) as Record<string, unknown>[];
  }

  /** The releases every visitor without a canary's cookie gets now. */
  async function currentReleases(): Promise<RemotesDocument> {
    return (await (await fetch(`${site()}/remotes.json`)).json()) as RemotesDocument;
  }

  async function newestPost(): Promise<BlogPostSummary> {
    const [post] = (await (await fetch(`${site()}/api/blog?limit=1`)).json()) as BlogPostSummary[];
    return post!;
  }

  /** A page that records what failed to load. */
  async function watchedPage(): Promise<Page & { consoleErrors: string[]; failed: string[]; responses: Response[] }> {
    const page = Object.assign(await openPage(browser), { failed: [] as string[], responses: [] as Response[] });
    page.on('response', (response) => page.responses.push(response));
    page.on('requestfailed', (request) => page.failed.push(`${request.url()} ${request.failure()?.errorText ?? ''}`));
    return page;
  }

  it('starts every service healthy (each app once its build is published), the API as two replicas, sharing no volume with any app', async () => {
    const services = (await project.compose(['config', '--services'])).trim().split('\n');
    const containers = await project.containers();
    expect(new Set(containers.map((container) => container.Service))).toEqual(new Set(services));
    for (const { Name, State, Health } of containers) expect([Name, State, Health]).toEqual([Name, 'running', 'healthy']);
    expect(containers.filter((container) => container.Service === 'api')).toHaveLength(2);

    const volumes = await project.volumes();
    const serviceOf = (name: string) => containers.find((container) => container.Name === name)!.Service;
    const apiVolumes = new Set(Object.entries(volumes).flatMap(([name, mounted]) => (serviceOf(name) === 'api' ? mounted : [])));
    expect(apiVolumes.size).toBeGreaterThan(0);
    for (const app of STATIC_APPS) {
      const mounted = Object.entries(volumes).flatMap(([name, list]) => (serviceOf(name) === app ? list : []));
      expect([app, mounted.filter((volume) => apiVolumes.has(volume))]).toEqual([app, []]);
    }
  });

  it('composes the page from the releases the shell and three remotes published from their containers, with data from the API', async () => {
    const releases = await currentReleases();
    const services = (await (await fetch(`${site()}/api/services`)).json()) as Service[];
    const post = await newestPost();
    const page = await watchedPage();
    await page.goto(`${site()}/`);
    // Scrolled through, so each lower section loads its remote's code.
    await loadEverything(page);
    // First what failed to load or logged an error: it tells why a section below came out empty.
    expect(page.failed).toEqual([]);
    expect(page.consoleErrors).toEqual([]);
    const postLinks = await page.locator(`#${SECTION_IDS.blog} a[href^="/blog/"]`).evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(postLinks).toContain(`/blog/${post.id}`);
    await expect(page.locator(`#${SECTION_IDS.services} article`).count()).resolves.toBe(services.length);

    // Each remote from its release's URL on the site, as the API serves it from the release store.
    const manifests = page.responses.filter((response) => response.url().endsWith('/mf-manifest.json'));
    expect(new Set(manifests.map((response) => response.url()))).toEqual(
      new Set(REMOTE_NAMES.filter((name) => remoteOnPath(name, '/')).map((name) => `${site()}/remotes/${name}/${releases.remotes[name]!.release}/mf-manifest.json`)),
    );
    expect(Object.values(releases.remotes).map((remote) => remote.release)).not.toContain(UNRELEASED);
    expect(releases.shell.release).not.toBe(UNRELEASED);
    await page.context().close();
  });

  /** A page as a client gets it through the shell's nginx, with any headers (Host included). */
  function getPage(pagePath: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
    return new Promise((resolve, reject) => {
      const request = http.get(`${site()}${pagePath}`, { headers: { accept: 'text/html', ...headers } }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      });
      request.on('error', reject);
    });
  }

  it('keeps pages in the shell’s nginx, answers 304 from it, and shows a content change within seconds', async () => {
    const post = await newestPost();
    const pagePath = `/blog/${post.id}`;
    const first = await getPage(pagePath);
    expect(first.status).toBe(200);
    // The API lets nginx keep a page a second: asked again at once, nginx answers itself.
    const again = await Promise.all([1, 2, 3, 4, 5].map(() => getPage(pagePath)));
    expect(again.map((page) => page.headers['x-cache-status'])).toContain('HIT');
    expect(new Set(again.map((page) => page.body))).toEqual(new Set([first.body]));
    const notModified = await getPage(pagePath, { 'if-none-match': String(first.headers.etag) });
    expect(notModified.status).toBe(304);

    // Nothing a client sends becomes part of a kept page.
    const forged = await getPage(`${pagePath}?utm_source=compose`, { host: 'evil.example', 'x-forwarded-host': 'evil.example', cookie: 'session=compose-secret' });
    expect(forged.body).toBe(first.body);

    // A content change (here straight in the database, as a sync writes it) reaches visitors
    // through nginx and either API replica within a few seconds.
    const title = `${post.title} (оновлено в compose)`;
    const sql = (text: string) => project.compose(['exec', '--no-TTY', 'postgres', 'psql', '-U', 'agency', '-d', 'agency', '-v', 'ON_ERROR_STOP=1', '-c', text]);
    const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;
    await sql(`UPDATE blog_posts SET title = ${quoted(title)} WHERE id = ${post.id}`);
    try {
      await eventually(
        'four pages in a row with the new title',
        () => Promise.all([1, 2, 3, 4].map(async () => (await getPage(pagePath)).body)),
        (pages) => pages.every((html) => html.includes(title)),
        10_000,
      );
    } finally {
      await sql(`UPDATE blog_posts SET title = ${quoted(post.title)} WHERE id = ${post.id}`);
    }
  });

  it('takes browser telemetry through nginx, and Prometheus (monitoring profile) scrapes both API replicas', async () => {
    const monitoring = (args: string[]) => project.compose(['--profile', 'monitoring', ...args]);
    const query = async (expression: string) => {
      const response = await fetch(`http://127.0.0.1:${env.PROMETHEUS_PORT}/api/v1/query?query=${encodeURIComponent(expression)}`);
      const body = (await response.json()) as { data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
      return body.data.result;
    };
    await project.timed('docker compose --profile monitoring up -d --wait prometheus', () => monitoring(['up', '--detach', '--wait', 'prometheus']));
    try {
      const releases = (await (await fetch(`${site()}/remotes.json`)).json()) as RemotesDocument;
      // The API counts a report only for the releases it serves (a made-up one is dropped): these
      // beacons name the blog release visitors get, with an error kind no real visit of the suite reports.
      const blogRelease = releases.remotes.blog.release;
      const beacon = {
        page_views: [{ page: '/', releases: { shell: releases.shell.release, blog: blogRelease } }],
        errors: [{ kind: 'rejection', app: 'blog', release: blogRelease, page: '/', message: 'Error: compose beacon', count: 2 }],
      };
      const sent = await Promise.all(
        [1, 2, 3, 4].map(() => fetch(`${site()}/api/telemetry`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(beacon) })),
      );
      expect(sent.map((response) => response.status)).toEqual([204, 204, 204, 204]);
      // Scraped from inside the compose network only: the site does not pass /metrics on.
      expect((await fetch(`${site()}/metrics`, { headers: { authorization: `Bearer ${env.METRICS_TOKEN}` } })).status).toBe(404);

      const up = await eventually('both API replicas scraped', () => query('up{job="api"}'), (result) => result.length === 2 && result.every((row) => row.value[1] === '1'), 60_000);
      expect(up).toHaveLength(2);
      const errors = await eventually(
        'the beacons counted',
        () => query(`sum(agency_browser_errors_total{app="blog",release="${blogRelease}",kind="rejection"})`),
        (result) => Number(result[0]?.value[1]) === 8,
        60_000,
      );
      expect(Number(errors[0]?.value[1])).toBe(8);
      const pageViews = await query(`sum(agency_browser_page_views_total{app="blog",release="${blogRelease}"})`);
      // The suite's real visits count there too: at least the beacons' four.
      expect(Number(pageViews[0]?.value[1])).toBeGreaterThanOrEqual(4);
      const info = await query('agency_release_info{app="shell"}');
      expect(info.map((row) => row.metric.release)).toContain(releases.shell.release);
    } finally {
      // Stopped here: the suite's later `down` and `up` run without the profile.
      await monitoring(['rm', '--stop', '--force', 'prometheus']);
    }
  });

  it('stores a contact message and a job application sent from the page, which staff export inside the API container', async () => {
    const page = await watchedPage();
    await page.goto(`${site()}/`);
    const vacancy = await sendContactAndApplication(page, CONTACT_EMAIL, APPLICATION_EMAIL);
    expect(page.consoleErrors).toEqual([]);
    await page.context().close();

    expect(await exported('contact')).toContainEqual(expect.objectContaining({ email: CONTACT_EMAIL, name: 'Андрій Шевчук' }));
    expect(await exported('applications')).toContainEqual(expect.objectContaining({ email: APPLICATION_EMAIL, position: vacancy.title }));
  });

  it('answers every page and API request while one API replica stops', async () => {
    const [, second] = (await project.containers()).filter((container) => container.Service === 'api');
    const paths = ['/', '/api/services', '/blog', `/blog/${(await newestPost()).id}`, '/api/blog?limit=3'];
    const statuses: (number | string)[] = [];
    let resent = 0;
    let stopped = false;
    const visitor = async () => {
      for (let i = 0; !stopped; i += 1) {
        const path = paths[i % paths.length]!;
        const answer = await getAsBrowser(`${site()}${path}`, () => (resent += 1));
        statuses.push(answer === 200 ? answer : `${path}: ${answer}`);
      }
    };
    const visitors = [visitor(), visitor(), visitor()];
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await project.stopContainer(second!.Name);
      // Requests go on after the replica has gone, so the ones nginx sends it fail over too.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    } finally {
      stopped = true;
      await Promise.all(visitors);
      // Started again whatever was seen: the suite's later tests need both replicas.
      await project.startContainer(second!.Name);
      await bothApiReplicasHealthy();
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(statuses.length).toBeGreaterThan(paths.length * 3);
    project.report.push(`page and API requests while an API replica stopped: ${statuses.length}, every one 200 (${resent} resent on a closed idle connection)`);
  });

  /** The site's spam secrets, read in its database: what the leads a suite sends are made like a person's with. */
  async function siteSpamSecrets(): Promise<SiteSpamSecrets> {
    return spamSecretsFromLines(
      await project.compose(['exec', '--no-TTY', 'postgres', 'psql', '--username', 'agency', '--dbname', 'agency', '--no-align', '--tuples-only', '--command', SPAM_SECRETS_QUERY]),
    );
  }

  /** How many times each message of a lead stream was stored, read in the database itself. */
  async function storedTimes(tag: string): Promise<Map<string, number>> {
    const rows = await project.compose([
      'exec', '--no-TTY', 'postgres', 'psql', '--username', 'agency', '--dbname', 'agency', '--no-align', '--tuples-only', '--field-separator', '\t',
      '--command', `select message, count(*) from contact_messages where message like '${tag} %' group by message`,
    ]);
    return new Map(
      rows
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [message, times] = line.split('\t');
          return [message!, Number(times)];
        }),
    );
  }

  /** Runs 4 visitors' lead stream with `fault` made 1.5 s in; checks and reports what was stored. */
  async function leadsThrough(label: string, tag: string, fault?: () => Promise<void>) {
    const result = await runLeadStream({ siteUrl: site(), spamSecrets: await siteSpamSecrets(), tag, fault });
    const stored = await storedTimes(tag);
    const twice = [...stored].filter(([, times]) => times > 1).map(([message]) => message);
    project.report.push(describeStream(label, result, [...stored.values()].filter((times) => times === 1).length, twice.length));
    // Every lead a visitor was told is stored is stored, once; nothing is stored twice.
    expect(result.acknowledged.filter((message) => stored.get(message) !== 1)).toEqual([]);
    expect(twice).toEqual([]);
    return { result, stored };
  }

  const apiReplicas = async () => (await project.containers()).filter((container) => container.Service === 'api');

  async function bothApiReplicasHealthy(): Promise<void> {
    await eventually(
      'both API replicas healthy again',
      async () => (await apiReplicas()).filter((container) => container.State === 'running' && container.Health === 'healthy').length,
      (healthy) => healthy === 2,
      90_000,
      // Each read is a `docker compose ps`; the replica's health is checked every 10 s anyway.
      1_000,
    );
  }

  it('stores every lead once from 4 visitors sending without pause, with nothing wrong', async () => {
    const { result, stored } = await leadsThrough('leads, no fault (8 s)', 'steady');
    expect(result.failed).toEqual([]);
    expect(stored.size).toBe(result.sent.length);
  });

  it('fails over when an API replica is killed, before any visitor’s try times out, and every lead being sent then is stored once', async () => {
    const [, victim] = await apiReplicas();
    const { result, stored } = await leadsThrough('leads, one API replica killed', 'killed', () => project.killContainer(victim!.Name));
    expect(result.inFlightAtFault.length).toBeGreaterThan(0);
    expect(result.inFlightAtFault.filter((message) => stored.get(message) !== 1)).toEqual([]);
    expect(result.failed).toEqual([]);
    // nginx moves a request to the other replica after at most 500 ms of connecting or 1.5 s of
    // waiting: no visitor's form reaches its own attempt timeout and has to try again.
    expect(Math.max(...result.tryDurations)).toBeLessThan(SUBMISSION_ATTEMPT_TIMEOUT_MS);
    await project.startContainer(victim!.Name);
    await bothApiReplicasHealthy();
  });

  it('answers no 500 while PostgreSQL restarts, and every submission ends stored once within the form’s retries', async () => {
    const postgres = (await project.containers()).find((container) => container.Service === 'postgres');
    const apiLives = async () => {
      const lives = await project.lives();
      return (await apiReplicas()).map((container) => lives[container.Name]);
    };
    const before = await apiLives();
    const { result, stored } = await leadsThrough('leads, PostgreSQL restarted', 'pg-restart', () => project.restartContainer(postgres!.Name));
    expect(Object.keys(result.answers).filter((answer) => answer === '500')).toEqual([]);
    expect(result.failed).toEqual([]);
    expect(stored.size).toBe(result.sent.length);
    // The replicas recovered by themselves: neither crashed nor was restarted.
    await bothApiReplicasHealthy();
    expect(await apiLives()).toEqual(before);
  });

  it('keeps accepting leads while the rate-limit store is stopped', async () => {
    const valkey = (await project.containers()).find((container) => container.Service === 'valkey');
    const { result } = await leadsThrough('leads, valkey stopped', 'no-valkey', () => project.stopContainer(valkey!.Name));
    expect(result.failed).toEqual([]);
    await project.startContainer(valkey!.Name);
  });

  it('releases a rebuilt blog alone: the next visitor gets it, an open page keeps its chunks, no other container restarts', async () => {
    const post = await newestPost();
    const releasedBefore = (await currentReleases()).remotes.blog.release;
    const othersBefore = await project.lives();
    const blogContainer = Object.keys(othersBefore).find((name) => name.includes('-mfe-blog-'))!;
    const blogBefore = othersBefore[blogContainer]!;
    delete othersBefore[blogContainer];

    // A visitor on the home page, whose blog post page code is not loaded yet.
    const openBefore = await watchedPage();
    await openBefore.goto(`${site()}/`);
    const postLink = openBefore.locator(`#${SECTION_IDS.blog} a[href="/blog/${post.id}"]`).first();
    await waitForHydration(postLink);
    // Loaded to the end before the deploy. Recreating a container adds and removes network
    // interfaces on the machine this browser runs on, and Chromium then fails what it is still
    // fetching with ERR_NETWORK_CHANGED (once a section's CSS and two fonts): a visitor's browser,
    // on another machine, never sees that.
    await openBefore.waitForLoadState('networkidle');

    changeBlogSource(project.dir, OLD_BACK_LINK, NEW_BACK_LINK);
    await project.timed('docker compose build mfe-blog', () => project.compose(['build', 'mfe-blog']));
    await project.timed('docker compose up -d --wait --no-deps mfe-blog', () => project.compose(['up', '--detach', '--wait', '--no-deps', 'mfe-blog']));

    // The server render, by either API replica, follows the new build: asked with a bucket cookie
    // (which, with no canary running, changes nothing in the page), each request passes nginx's page
    // cache and reaches a replica in turn; then the page nginx keeps (which either replica may have
    // stored a moment before it saw the build).
    await eventually(
      'four renders in a row by the replicas and the page nginx keeps, with the new blog build',
      () =>
        Promise.all(
          [1, 2, 3, 4, 0].map(async (replica) =>
            (await fetch(`${site()}/blog/${post.id}`, { headers: replica ? { cookie: `${RELEASE_BUCKET_COOKIE}=${replica}` } : {} })).text(),
          ),
        ),
      (pages) => pages.every((html) => html.includes(NEW_BACK_LINK)),
      30_000,
    );
    // ...and so does the next visitor's browser, which takes the render over with no mismatch.
    const next = await watchedPage();
    const remoteCode = next.waitForResponse((response) => BLOG_POST_PAGE_CODE.test(response.url()));
    await next.goto(`${site()}/blog/${post.id}`);
    expect((await remoteCode).status()).toBe(200);
    await next.waitForLoadState('networkidle');
    await expect(next.getByRole('link', { name: NEW_BACK_LINK }).count()).resolves.toBe(1);
    expect([next.failed, next.consoleErrors]).toEqual([[], []]);
    await next.context().close();

    // The page opened before the deploy loads the post page's chunk of the release it started with.
    expect((await currentReleases()).remotes.blog.release).not.toBe(releasedBefore);
    const oldCode = openBefore.waitForResponse((response) => BLOG_POST_PAGE_CODE.test(response.url()));
    await postLink.click();
    expect([(await oldCode).status(), (await oldCode).url().startsWith(`${site()}/remotes/blog/${releasedBefore}/`)]).toEqual([200, true]);
    await openBefore.getByRole('link', { name: OLD_BACK_LINK }).waitFor();
    expect([openBefore.failed, openBefore.consoleErrors]).toEqual([[], []]);
    await openBefore.context().close();

    const after = await project.lives();
    const newBlogContainer = Object.keys(after).find((name) => name.includes('-mfe-blog-'))!;
    expect(after[newBlogContainer]!.id).not.toBe(blogBefore.id);
    delete after[newBlogContainer];
    expect(after).toEqual<Record<string, ContainerLife>>(othersBefore);
  });

  it('makes a blog container started with canary:50 a canary that `npm run release -- blog --status` shows from outside, and `--rollback` takes back', async () => {
    const current = (await currentReleases()).remotes.blog.release;
    changeBlogSource(project.dir, NEW_BACK_LINK, CANARY_BACK_LINK);
    await project.timed('docker compose build mfe-blog (canary)', () => project.compose(['build', 'mfe-blog']));
    await project.timed('docker compose up -d --wait --no-deps mfe-blog, MFE_BLOG_RELEASE_POLICY=canary:50', () =>
      project.compose(['up', '--detach', '--wait', '--no-deps', 'mfe-blog'], COMPOSE_FILES, { MFE_BLOG_RELEASE_POLICY: 'canary:50' }),
    );
    // As a team runs it on its own machine: through the site's nginx, with the blog's token.
    const asTeam = (...args: string[]) => releaseCli('blog', ...args, '--site', site(), '--token', BLOG_RELEASE_TOKEN);
    const status = await asTeam('--status');
    const candidate = /^Canary: (\S+) for 50 % of visitors/m.exec(status)?.[1];
    expect(candidate).toBeDefined();
    expect(candidate).not.toBe(current);
    // Half of the buckets get the candidate, the other half the current release.
    const blogFor = async (bucket: number) =>
      ((await (await fetch(`${site()}/remotes.json`, { headers: { cookie: `${RELEASE_BUCKET_COOKIE}=${bucket}` } })).json()) as RemotesDocument).remotes.blog.release;
    expect([await blogFor(0), await blogFor(RELEASE_BUCKETS - 1)]).toEqual([candidate, current]);

    expect(await asTeam('--rollback')).toContain(`Rolled back blog candidate ${candidate}: every visitor gets ${current}`);
    await eventually('every bucket back on the current release', () => Promise.all([blogFor(0), blogFor(RELEASE_BUCKETS - 1)]), (served) => served.every((id) => id === current), 5_000);
    expect(await asTeam('--status')).not.toMatch(/^Canary:/m);
  });

  it('keeps every lead and release through `docker compose down` and `up`; the apps’ containers publish nothing new', async () => {
    const leads = { contact: await exported('contact'), applications: await exported('applications') };
    expect(leads.contact.length + leads.applications.length).toBeGreaterThanOrEqual(2);
    const releases = await currentReleases();
    const kept = await releaseCli('blog', '--list', '--site', site(), '--token', BLOG_RELEASE_TOKEN);
    await project.timed('docker compose down', () => project.compose(['down']));
    expect(await project.containers()).toEqual([]);
    await project.timed('docker compose up -d --wait (again)', () => project.compose(['up', '--detach', '--wait']));
    expect({ contact: await exported('contact'), applications: await exported('applications') }).toEqual(leads);
    // Each container's build is a kept release already (the blog's, the canary rolled back above).
    expect(await currentReleases()).toEqual(releases);
    expect(await releaseCli('blog', '--list', '--site', site(), '--token', BLOG_RELEASE_TOKEN)).toBe(kept);
  });

  /** The backup agent's command line (`backup.js`), in its running container. */
  const backupCli = (...args: string[]) => project.compose(['exec', '--no-TTY', 'backup-agent', 'node', 'api/dist/staff/cli/backup.js', ...args]);
  /** One value from PostgreSQL, read in its container. */
  const pgValue = async (query: string) =>
    (await project.compose(['exec', '--no-TTY', 'postgres', 'psql', '--username', 'agency', '--dbname', 'agency', '--no-align', '--tuples-only', '--command', query])).trim();

  it('restores a lost data machine to its last moment: every lead acknowledged over a minute before the loss is back, from the agent’s backups', async () => {
    await project.timed('until the backup agent stored a base backup', () =>
      eventually(
        'a base backup in the store',
        async () => JSON.parse(await backupCli('list', '--format', 'json')) as { kind: string }[],
        (backups) => backups.some((backup) => backup.kind === 'postgres-base'),
        10 * 60_000,
        5_000,
      ),
    );
    // The RPO holds once the server switches WAL segments on its own timer (archive_timeout). After
    // a start, PostgreSQL 15 (the engine's local image) does so only from its first checkpoint, up to
    // checkpoint_timeout (5 min) later; the suite restarted it just before. Measured, not hidden: the
    // wait is in the report.
    const archivedAt = async () => pgValue('select coalesce(last_archived_wal, \'\') from pg_stat_archiver');
    const before = await archivedAt();
    await project.timed('until the server archives WAL by archive_timeout', async () => {
      const first = await eventually('a WAL segment archived', archivedAt, (wal) => wal !== before, 8 * 60_000, 2_000);
      await eventually('the next one, within archive_timeout', archivedAt, (wal) => wal !== first, 60_000, 2_000);
    });

    let lostAt = 0;
    const spamSecrets = await siteSpamSecrets();
    const result = await project.timed('visitors sending leads for 90 s, the data machine lost, 5 s more', () =>
      runLeadStream({
        siteUrl: site(),
        spamSecrets,
        tag: 'lost-machine',
        // A realistic pace (each visitor about 10 a second), long enough that many leads are over the RPO old at the loss.
        pauseMs: 100,
        durationMs: 95_000,
        faultAtMs: 90_000,
        fault: async () => {
          // Power gone: the server and the agent beside it die at once (no shutdown, no last archiving), and the disk with them.
          await project.compose(['kill', 'postgres', 'backup-agent']);
          lostAt = Date.now();
          await project.compose(['rm', '--force', 'postgres', 'backup-agent']);
          await project.removeVolume('pgdata');
        },
      }),
    );
    expect(lostAt).toBeGreaterThan(0);

    // A new machine's empty volume (compose makes it), restored as the runbook says: as root, so the
    // restore can give the volume's folder to the server's user; without the postgres service, which
    // would make a new cluster in it.
    const restored = await project.timed('backup.js restore --time <the loss> (docker compose run backup-agent)', () =>
      project.compose([
        'run', '--rm', '--no-deps', '--user', 'root', 'backup-agent',
        'node', 'api/dist/staff/cli/backup.js', 'restore', '--time', new Date(lostAt).toISOString(), '--data-dir', PG_DATA_DIR,
      ]),
    );
    expect(restored).toMatch(/^Restored base backup \S+ into \/var\/lib\/postgresql\/data/m);
    project.report.push(`the restore replayed ${/(\d+) WAL files/.exec(restored)?.[1] ?? '?'} archived WAL files onto the base backup`);

    const started = Date.now();
    await project.compose(['up', '--detach', '--wait', 'postgres']);
    // The API replicas reconnect by themselves: the site takes a lead again through nginx.
    const probe = { name: 'Відвідувач', email: 'after.restore@example.com', phone: '+380 67 123 45 67', company: '', service_type: '', message: 'after the restore', website: '' };
    await eventually(
      'the site to store a lead again',
      () =>
        spamFieldsWith(spamSecrets, 'contact')
          .then((guard) => fetch(`${site()}/api/contact`, { method: 'POST', headers: { ...BROWSER_FETCH_HEADERS, 'content-type': 'application/json' }, body: JSON.stringify({ ...probe, ...guard }) }))
          .then(
            (response) => response.status,
            () => 0,
          ),
      (status) => status === 201,
      3 * 60_000,
      250,
    );
    project.report.push(`from \`up -d --wait postgres\` on the restored volume until the site stored a lead: ${Math.round((Date.now() - started) / 100) / 10} s`);
    // The restore's own WAL copy is not needed once the server has promoted (the restore says so).
    expect(await pgValue('select pg_is_in_recovery()')).toBe('f');
    await project.compose(['exec', '--no-TTY', 'postgres', 'rm', '-rf', `${PG_DATA_DIR}/restore-wal`]);
    await project.compose(['up', '--detach', '--wait', 'backup-agent']);

    const stored = await storedTimes('lost-machine');
    const twice = [...stored].filter(([, times]) => times > 1).map(([message]) => message);
    project.report.push(describeStream('leads, data machine lost and restored', result, stored.size - twice.length, twice.length));
    const acknowledged = [...result.acknowledgedAt];
    const older = acknowledged.filter(([, at]) => at < lostAt - RPO_MS);
    const lastMinute = acknowledged.filter(([, at]) => at >= lostAt - RPO_MS);
    const lost = lastMinute.filter(([message]) => !stored.has(message));
    const newestKept = Math.max(0, ...acknowledged.filter(([message]) => stored.has(message)).map(([, at]) => at));
    project.report.push(
      `lost data machine: ${result.acknowledged.length} leads acknowledged, ${older.length} over ${RPO_MS / 1000} s before the loss (all kept), ` +
        `${lastMinute.length} in the last ${RPO_MS / 1000} s of which ${lost.length} lost; the newest kept was acknowledged ${Math.round((lostAt - newestKept) / 100) / 10} s before the loss`,
    );
    // The RPO: every lead a visitor was told is stored, older than a minute at the loss, is there, once.
    expect(older.length).toBeGreaterThan(0);
    expect(older.filter(([message]) => stored.get(message) !== 1).map(([message]) => message)).toEqual([]);
    expect(twice).toEqual([]);
  }, 25 * 60_000);

  it('runs one team’s app in development with its API, and an edit reaches the open page', async () => {
    const post = await newestPost();
    await project.compose(['down']);
    await project.timed('development overlay: up mfe-blog api', () => project.compose(['up', '--detach', 'mfe-blog', 'api'], DEV_COMPOSE_FILES));
    const blogDev = remoteOrigin('blog');
    // The install, then the dev servers' first builds.
    await project.timed('development overlay: until the blog and its API answer', () =>
      eventually(
        'the blog’s dev server and, through its proxy, the API',
        () => fetch(`${blogDev}/api/blog?limit=1`).then((response) => response.status, () => 0),
        (status) => status === 200,
        8 * 60_000,
      ),
    );

    const page = await watchedPage();
    await page.goto(`${blogDev}/#/blog/${post.id}`);
    // The source as the last test left it: the canary's.
    await page.getByRole('link', { name: CANARY_BACK_LINK }).waitFor({ timeout: 120_000 });
    await page.getByRole('heading', { level: 1 }).waitFor();
    changeBlogSource(project.dir, CANARY_BACK_LINK, DEV_BACK_LINK);
    await project.timed('development overlay: an edit reaches the open page', () =>
      page.getByRole('link', { name: DEV_BACK_LINK }).waitFor({ timeout: 120_000 }),
    );
    expect(page.responses.filter((response) => response.status() >= 400).map((response) => response.url())).toEqual([]);
    expect(page.consoleErrors).toEqual([]);
    await page.context().close();
  });
});
