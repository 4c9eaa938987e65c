import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { RELEASE_BUCKET_COOKIE, SECTION_IDS, type BlogPostSummary, type RemotesDocument } from '@agency/shared';
import { eventually } from '../api/test/helpers/eventually';
import { launchBrowser, openPage, waitForHydration } from './support/browser';
import { BLOG_POST_PAGE_CODE, changedBlogBuild, NEW_BACK_LINK, OLD_BACK_LINK } from './support/changed-blog-build';
import { describeWithCompose } from './support/compose-project';
import { sendContactAndApplication } from './support/forms';
import { getAsBrowser } from './support/get-as-browser';
import { describeStream, runLeadStream, type LeadStreamResult } from './support/lead-stream';
import { SPAM_SECRETS_QUERY, spamSecretsFromLines, type SiteSpamSecrets } from './support/spam-guard';
import { freePortForLater, releaseCli, ROOT } from './support/site';
import { startSiteProxy, type SiteProxy } from './support/site-proxy';
import { itReporting } from './support/it-reporting';
import { docker, REGISTRY, SwarmCluster, type SwarmNode } from './support/swarm-cluster';

/** The `CMD […]` of the API image's own HEALTHCHECK: a broken release keeps the released check, only asked more often. */
function apiHealthCheckCommand(): string {
  const dockerfile = readFileSync(path.join(ROOT, 'api', 'Dockerfile'), 'utf8');
  // The API's stage is the file's last (the backup agent's, before it, has a check of its own).
  const apiStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const command = /^HEALTHCHECK [^\n]*\\\n\s*(CMD \[.*\])$/m.exec(apiStage)?.[1];
  if (!command) throw new Error('api/Dockerfile\'s last stage has no HEALTHCHECK … CMD […] on its second line');
  return command;
}

// docker-stack.yml on a real swarm: three docker-in-docker machines of this machine's engine, every
// image pulled from a registry on their network, deployed and changed with `npm run swarm` as an
// operator does. Visitors reach the machines through a load balancer (a proxy here, request by
// request, with health checks); the tests also ask each machine directly.

jest.setTimeout(10 * 60_000);

/** The containers, network and images of this suite, removed at its start and end. */
const PREFIX = 'agency-swarm-e2e';
const STACK = 'agency';
/** Where each machine publishes the site (host mode: every machine that runs the shell). */
const SITE_PORT = 8080;
/** The blog team's release token, as `npm run swarm -- deploy` puts it in the blog's secret. */
const BLOG_TOKEN = randomBytes(32).toString('hex');
const CONTACT_EMAIL = 'swarm.e2e@kava.lviv.ua';
const APPLICATION_EMAIL = 'marta.swarm@example.com';
/** Pages visitors load while machines and tasks change under them. */
const PAGE_PATHS = ['/', '/blog', '/api/services', '/api/blog?limit=3'];
/**
 * How often a wait asks the swarm for its services and tasks: each question is two Docker commands
 * the managers answer, and the waits for tasks to start or move take minutes.
 */
const ENGINE_POLL_MS = 1_000;
/** The least time between two page requests of one machine's visitors (loadPages). */
const VISIT_INTERVAL_MS = 50;

/** What visitors loading pages got: requests made, the ones not answered 200, the ones sent again. */
interface PagesLoaded {
  requests: number;
  errors: string[];
  resent: number;
}

describeWithCompose()('Docker Swarm on three machines: docker-stack.yml deployed, released and losing a machine', () => {
  let cluster: SwarmCluster;
  let proxy: SiteProxy;
  let browser: Browser;
  /** The machines still running. */
  let alive: SwarmNode[];
  let siteUrl: string;
  const report: string[] = [];
  const service = (name: string) => `${STACK}_${name}`;

  /** `npm run swarm -- <args>` as an operator runs it, with the suite's registry, swarm and site. */
  function swarmScript(args: string[], env: Record<string, string> = {}): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['scripts/swarm.mjs', ...args], {
        cwd: ROOT,
        env: {
          ...process.env,
          REGISTRY,
          PUSH_REGISTRY: cluster.pushRegistry,
          SWARM_HOST: cluster.managerHost(alive),
          SITE_URL: siteUrl,
          STACK,
          ...env,
        },
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`npm run swarm -- ${args.join(' ')} failed (${code}):\n${output.slice(-4000)}`))));
    });
  }

  async function timed<T>(label: string, step: () => Promise<T>): Promise<T> {
    const started = Date.now();
    const result = await step();
    report.push(`${label}: ${Math.round((Date.now() - started) / 100) / 10} s`);
    return result;
  }

  /** How many tasks each service of the stack should run (a global one: one per machine that is up). */
  async function desiredTasks(): Promise<Record<string, number>> {
    const lines = await cluster.swarm(['service', 'ls', '--filter', `label=com.docker.stack.namespace=${STACK}`, '--format', '{{.Name}} {{.Replicas}}'], alive);
    return Object.fromEntries(
      lines
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [name, replicas] = line.split(' ');
          return [name!.replace(/^[^_]+_/, ''), Number(/\/(\d+)/.exec(replicas!)?.[1])];
        }),
    );
  }

  /**
   * Every service runs all its tasks. A task is Running only once its health check passed; tasks
   * last seen on a machine that is gone are not counted (Swarm cannot know they stopped).
   */
  async function untilConverged(what: string, within = 5 * 60_000): Promise<void> {
    try {
      await eventually(
        what,
        async () => ({ desired: await desiredTasks(), running: await placement() }),
        ({ desired, running }) => Object.keys(desired).length > 0 && Object.entries(desired).every(([name, count]) => count > 0 && running[name]?.length === count),
        within,
        ENGINE_POLL_MS,
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${await whatTheStackShows()}`);
    }
  }

  /** Every task's state and the last lines of the services a visitor's request passes: what a failure reports. */
  async function whatTheStackShows(): Promise<string> {
    const logs = await Promise.all(
      ['object-store', 'api', 'shell'].map((name) =>
        cluster
          .serviceLogs(service(name), '3m', alive)
          .then((said) => `${name}:\n${said.trim().split('\n').slice(-15).map((line) => line.slice(0, 300)).join('\n')}`)
          .catch((failed: Error) => `${name}: ${failed.message}`),
      ),
    );
    return `the stack's tasks:\n${await taskHistory()}\nwhat the services said last:\n${logs.join('\n')}`;
  }

  const it = itReporting(whatTheStackShows);

  /** Every task of the stack with its state and error, as Swarm tells why a service does not run. */
  async function taskHistory(): Promise<string> {
    const format = '{{.Name}} {{.Node}} desired={{.DesiredState}} {{.CurrentState}} {{.Error}}';
    return cluster
      .swarm(['stack', 'ps', '--no-trunc', '--format', format, STACK], alive)
      .then((lines) => lines.trim().split('\n').slice(0, 80).join('\n'))
      .catch((error: Error) => `(docker stack ps failed: ${error.message})`);
  }

  /** The machines each service's running tasks are on. */
  async function placement(): Promise<Record<string, string[]>> {
    const lines = await cluster.swarm(['stack', 'ps', '--filter', 'desired-state=running', '--format', '{{.Name}} {{.Node}} {{.CurrentState}}', STACK], alive);
    const nodesOf: Record<string, string[]> = {};
    for (const line of lines.trim().split('\n').filter(Boolean)) {
      const [task, node, state] = line.split(' ');
      if (state !== 'Running') continue;
      const name = task!.replace(/^[^_]+_/, '').replace(/\..*$/, '');
      (nodesOf[name] ??= []).push(node!);
    }
    for (const nodes of Object.values(nodesOf)) nodes.sort();
    return nodesOf;
  }

  /** SQL in the PostgreSQL task (on the labelled machine), its rows tab-separated. */
  async function sql(query: string): Promise<string[][]> {
    const node = cluster.nodes[0]!;
    const [container] = (await cluster.onNode(node, ['ps', '--quiet', '--filter', `label=com.docker.swarm.service.name=${service('postgres')}`])).trim().split('\n');
    const output = await cluster.onNode(node, ['exec', container!, 'psql', '--username', 'agency', '--dbname', 'agency', '--no-align', '--tuples-only', '--field-separator', '\t', '--command', query]);
    return output
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('\t'));
  }

  /** The site's spam secrets, read in its database: what the leads a suite sends are made like a person's with. */
  async function siteSpamSecrets(): Promise<SiteSpamSecrets> {
    return spamSecretsFromLines((await sql(SPAM_SECRETS_QUERY)).map((row) => row.join('\t')).join('\n'));
  }

  /** How many times each message of a lead stream was stored. */
  async function storedTimes(tag: string): Promise<Map<string, number>> {
    const rows = await sql(`select message, count(*) from contact_messages where message like '${tag} %' group by message`);
    return new Map(rows.map(([message, times]) => [message!, Number(times)]));
  }

  async function checkLeads(label: string, tag: string, result: LeadStreamResult): Promise<void> {
    const stored = await storedTimes(tag);
    const twice = [...stored].filter(([, times]) => times > 1).map(([message]) => message);
    report.push(describeStream(label, result, [...stored.values()].filter((times) => times === 1).length, twice.length));
    // Every lead a visitor was told is stored is stored, once; nothing is stored twice.
    expect(result.acknowledged.filter((message) => stored.get(message) !== 1)).toEqual([]);
    expect(twice).toEqual([]);
    expect(result.failed).toEqual([]);
  }

  /**
   * The lines of the shell's nginx and the API's tasks from the last `since` that say something
   * went wrong or changed (nginx errors and warnings, the API addresses each nginx follows, the
   * API's warnings and errors), for a failure to say where a visitor's request was lost.
   */
  async function servicesTrouble(since: string): Promise<string> {
    const said = await Promise.all(
      ['shell', 'api'].map((name) => cluster.serviceLogs(service(name), since, alive).catch((error: Error) => `${name}: ${error.message}`)),
    );
    const telling = /\[(error|warn|crit|alert|emerg)\]|addresses changed|"level":(40|50|60)|shutting down|Server listening/;
    return said
      .flatMap((logs) => logs.split('\n'))
      .filter((line) => telling.test(line))
      .sort()
      .map((line) => line.slice(0, 400))
      .slice(-80)
      .join('\n');
  }

  /** No page request failed and every acknowledged lead was stored once; both reported under `when`. */
  async function checkVisitors(when: string, tag: string, loaded: PagesLoaded, leads: LeadStreamResult): Promise<void> {
    report.push(`page requests ${when}: ${loaded.requests}, failed ${loaded.errors.length}, sent again on a closed connection ${loaded.resent}`);
    if (loaded.errors.length > 0) report.push(`what the services said ${when}:\n${await servicesTrouble('5m')}`);
    expect(loaded.errors).toEqual([]);
    await checkLeads(`leads ${when}`, tag, leads);
  }

  /**
   * Visitors loading pages from each of `nodes` directly, one after another, until stopped: what
   * every request got that was not a 200 (`time url: status or error`), how many were made,
   * and how many were sent again because a kept-alive connection was closed under them (see
   * getAsBrowser). At most one request per VISIT_INTERVAL_MS from each machine's visitors: a steady
   * stream of visitors, not a load test; the three machines here share one small host's cores, and
   * a loop as fast as they answer takes the CPU the processes being replaced need to start.
   */
  function loadPages(nodes: SwarmNode[]): { stop: () => Promise<PagesLoaded> } {
    let running = true;
    let requests = 0;
    let resent = 0;
    const errors: string[] = [];
    const visitor = async (node: SwarmNode) => {
      for (let i = 0; running; i += 1) {
        const url = `http://${node.address}:${SITE_PORT}${PAGE_PATHS[i % PAGE_PATHS.length]!}`;
        requests += 1;
        const [answer] = await Promise.all([getAsBrowser(url, () => (resent += 1)), new Promise((resolve) => setTimeout(resolve, VISIT_INTERVAL_MS))]);
        if (answer !== 200) errors.push(`${new Date().toISOString()} ${url}: ${answer}`);
      }
    };
    const visitors = nodes.map(visitor);
    return {
      stop: async () => {
        running = false;
        await Promise.all(visitors);
        return { requests, errors, resent };
      },
    };
  }

  /**
   * Until every API task serves `release` to `bucket`: each machine's nginx spreads requests over
   * all tasks and each task reads the release state on its own, so one read per machine shows one
   * task; six per machine reach them all.
   */
  async function untilEveryTaskServes(what: string, bucket: string, release: string): Promise<void> {
    await eventually(
      what,
      () => Promise.all(cluster.nodes.flatMap((node) => Array.from({ length: 6 }, () => blogReleaseOn(node, bucket)))),
      (served) => served.every((each) => each === release),
      10_000,
    );
  }

  async function newestPost(): Promise<BlogPostSummary> {
    const [post] = (await (await fetch(`${siteUrl}/api/blog?limit=1`)).json()) as BlogPostSummary[];
    return post!;
  }

  /** The blog release a browser's bucket gets, as a machine answers it. */
  async function blogReleaseOn(node: SwarmNode, bucket: string): Promise<string> {
    const response = await fetch(`http://${node.address}:${SITE_PORT}/remotes.json`, { headers: { cookie: `${RELEASE_BUCKET_COOKIE}=${bucket}` } });
    if (!response.ok) throw new Error(`${node.name} answered /remotes.json ${response.status}: ${(await response.text()).slice(0, 200)}`);
    return ((await response.json()) as RemotesDocument).remotes.blog.release;
  }

  const asBlogTeam = (...args: string[]) => releaseCli('blog', ...args, '--site', siteUrl, '--token', BLOG_TOKEN);

  beforeAll(async () => {
    const proxyPort = await freePortForLater();
    siteUrl = `http://localhost:${proxyPort}`;
    cluster = await timed('three machines started and joined into a swarm', () => SwarmCluster.start(PREFIX, 3));
    alive = [...cluster.nodes];
    await timed('npm run swarm -- push (build every image, push to the registry)', async () => {
      await swarmScript(['push']);
      // The data services' images, which a real registry (Docker Hub) would hold.
      for (const image of ['postgres:16-bookworm', 'valkey/valkey:8']) await cluster.push(image, image);
    });
    await timed('npm run swarm -- deploy, until every service is healthy', async () => {
      await swarmScript(['deploy'], {
        POSTGRES_IMAGE: `${REGISTRY}/postgres:16-bookworm`,
        VALKEY_IMAGE: `${REGISTRY}/valkey/valkey:8`,
        MFE_BLOG_RELEASE_TOKEN: BLOG_TOKEN,
        // Visitors here send hundreds of leads a second from one address: no rate limit in their way.
        RATE_LIMIT_MAX: '1000000',
      });
      // The first deploy pulls every image onto three machines before any health check can pass.
      await untilConverged('every service of the stack running and healthy', 10 * 60_000);
    });
    proxy = await startSiteProxy({
      port: proxyPort,
      backends: () => cluster.nodes.map((node) => `${node.address}:${SITE_PORT}`),
      connectTimeoutMs: 1_000,
      healthPath: '/healthz',
    });
    browser = await launchBrowser();
  }, 40 * 60_000);

  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    // Untagged images stay: the classic builder's cache of each build stage is one (the next run's
    // builds start from them).
    await cluster?.remove();
    console.info(`docker swarm, measured:\n${report.map((line) => `  ${line}`).join('\n')}`);
  }, 5 * 60_000);

  it('runs the shell on every machine, the API spread over them, the data services and the backup agent on the labelled one, volumes nowhere else', async () => {
    const nodeNames = cluster.nodes.map((node) => node.name).sort();
    const where = await placement();
    expect(where.shell).toEqual(nodeNames);
    expect(where.api).toEqual(nodeNames);
    expect([where.postgres, where['backup-agent'], where['object-store']]).toEqual([['node1'], ['node1'], ['node1']]);
    for (const app of ['mfe-home', 'mfe-blog', 'mfe-forms', 'mfe-staff', 'valkey']) expect([app, where[app]?.length]).toEqual([app, 1]);

    // Named volumes exist only where the data services run: releases live in the database and the
    // store, backups in the store (the agent's volumes are the database's and its key's).
    for (const node of cluster.nodes) {
      const ids = (await cluster.onNode(node, ['ps', '--quiet'])).trim().split('\n').filter(Boolean);
      const mounts = await cluster.onNode(node, [
        'inspect', '--format', '{{index .Config.Labels "com.docker.swarm.service.name"}} {{range .Mounts}}{{if eq .Type "volume"}}{{.Name}} {{end}}{{end}}', ...ids,
      ]);
      const withVolumes = mounts.trim().split('\n').filter((line) => line.trim().includes(' ')).map((line) => line.split(' ')[0]).sort();
      expect([node.name, withVolumes]).toEqual([node.name, node.name === 'node1' ? [service('backup-agent'), service('object-store'), service('postgres')] : []]);
    }
  });

  it('keeps every password and token in secrets: no service’s definition holds one', async () => {
    const names = Object.keys(await desiredTasks()).map(service);
    const definitions = await cluster.swarm(['service', 'inspect', ...names], alive);
    expect(definitions).not.toContain(BLOG_TOKEN);
    const apiEnvironment = JSON.parse(await cluster.swarm(['service', 'inspect', '--format', '{{json .Spec.TaskTemplate.ContainerSpec.Env}}', service('api')], alive)) as string[];
    expect(apiEnvironment).toEqual(expect.arrayContaining(['RELEASE_TOKENS_FILE=/run/secrets/release_tokens', 'DATABASE_PASSWORD_FILE=/run/secrets/db_password']));
    expect(apiEnvironment.filter((entry) => /^(RELEASE_TOKENS|DATABASE_PASSWORD|METRICS_TOKEN|LEADS_WEBHOOK_SECRET)=/.test(entry))).toEqual([]);
    // The blog's token works: the API read the list from its secret.
    expect(await asBlogTeam('--list')).toMatch(/^\* /m);
  });

  it('answers the same page, byte for byte with the same ETag, from every machine', async () => {
    const post = await newestPost();
    // Pages with forms carry a fresh form token per response; these hold none.
    for (const pagePath of ['/privacy', `/blog/${post.id}`, '/remotes.json']) {
      // Each API task reads the releases once a second, and a page a task could not render whole is
      // sent but not kept: the machines agree within seconds, and then for good.
      const answers = await eventually(
        `${pagePath} alike from every machine`,
        async () => {
          const pages = await Promise.all(
            cluster.nodes.map(async (node) => {
              const response = await fetch(`http://${node.address}:${SITE_PORT}${pagePath}`);
              return { status: response.status, etag: response.headers.get('etag'), body: await response.text() };
            }),
          );
          const [first] = pages;
          const differing = pages.find((page) => page.body !== first!.body);
          let at = 0;
          while (differing && at < first!.body.length && first!.body[at] === differing.body[at]) at += 1;
          return {
            statuses: pages.map((page) => page.status),
            etags: [...new Set(pages.map((page) => page.etag))],
            lengths: pages.map((page) => page.body.length),
            // Where two machines' pages part, for the failure to show what differs.
            differ: differing ? [first!.body.slice(at - 80, at + 200), differing.body.slice(at - 80, at + 200)] : null,
          };
        },
        (alike) => alike.statuses.every((status) => status === 200) && alike.differ === null && (pagePath === '/remotes.json' || alike.etags.length === 1),
        15_000,
      );
      if (pagePath !== '/remotes.json') expect(answers.etags).toEqual([expect.any(String)]);
    }
  });

  it('stores a contact message and a job application sent from Chromium once', async () => {
    const page = await openPage(browser);
    await page.goto(`${siteUrl}/`);
    const vacancy = await sendContactAndApplication(page, CONTACT_EMAIL, APPLICATION_EMAIL);
    expect(page.consoleErrors).toEqual([]);
    await page.context().close();

    expect(await sql(`select count(*) from contact_messages where email = '${CONTACT_EMAIL}'`)).toEqual([['1']]);
    expect(await sql(`select position from job_applications where email = '${APPLICATION_EMAIL}'`)).toEqual([[vacancy.title]]);
  });

  it('runs a 50 % blog canary sticky for each browser on every machine, and a rollback every machine shows', async () => {
    const post = await newestPost();
    const current = await blogReleaseOn(cluster.nodes[0]!, '0');
    const build = changedBlogBuild();
    let canaryRunning = false;
    let inCanary: string | undefined;
    try {
      const output = await asBlogTeam('--dist', build, '--canary', '50');
      canaryRunning = true;
      const candidate = /^blog release (\S+) is the candidate for 50 % of visitors/m.exec(output)?.[1];
      expect(candidate).toBeDefined();
      expect(candidate).not.toBe(current);
      // Each API process reads the release state once a second, so the first machine's answers may
      // not know the candidate yet: visitors come once every task serves it to a bucket in the canary.
      const canaryBucket = (await eventually(
        `${cluster.nodes[0]!.name} serving the candidate to one of 100 buckets`,
        async () => {
          for (let bucket = 0; bucket < 100; bucket += 1) if ((await blogReleaseOn(cluster.nodes[0]!, String(bucket))) === candidate) return String(bucket);
          return undefined;
        },
        (bucket) => bucket !== undefined,
        10_000,
      ))!;
      inCanary = canaryBucket;
      await untilEveryTaskServes('every API task running the canary', canaryBucket, candidate!);

      // Browsers arrive through the load balancer; each page's requests go to the machines in turn.
      const seen = new Set<string>();
      for (let visitor = 0; visitor < 12; visitor += 1) {
        const page = await openPage(browser);
        const releases: string[] = [];
        for (let visit = 0; visit < 3; visit += 1) {
          const response = await page.goto(`${siteUrl}/blog/${post.id}`);
          const release = await page.evaluate(() => window.__AGENCY_RELEASES__?.remotes.blog?.release ?? '');
          await page
            .getByRole('link', { name: release === candidate ? NEW_BACK_LINK : OLD_BACK_LINK })
            .waitFor()
            .catch(async (error: Error) => {
              // What the browser got, so that a failure here says where the page went wrong.
              const slot = await page.evaluate(() =>
                [...document.querySelectorAll('[data-remote-module],[data-remote-pending],[data-remote-unavailable]')].map((element) => element.outerHTML.slice(0, 200)),
              );
              throw new Error(
                `${error.message}\nvisitor ${visitor}, visit ${visit}: page ${response?.status()} (x-cache-status ${response?.headers()['x-cache-status']}), ` +
                  `blog release in the page ${release || 'none'} (candidate ${candidate}), slots ${JSON.stringify(slot)}, console ${JSON.stringify(page.consoleErrors)}\n` +
                  `what the services said:\n${await servicesTrouble('2m')}`,
              );
            });
          releases.push(release);
        }
        const bucket = (await page.context().cookies()).find((cookie) => cookie.name === RELEASE_BUCKET_COOKIE)?.value;
        expect(bucket).toBeDefined();
        // The same release on every visit, and from every machine asked directly with the browser's bucket.
        const onEachMachine = await Promise.all(cluster.nodes.map((node) => blogReleaseOn(node, bucket!)));
        expect(new Set([...releases, ...onEachMachine]).size).toBe(1);
        seen.add(releases[0]!);
        expect(page.consoleErrors).toEqual([]);
        await page.context().close();
      }
      expect(seen).toEqual(new Set([current, candidate]));

      // The bucket in the canary: every machine takes it back to the current release. How soon is
      // reported, not asserted: each process's one-second refresh is proved with a controlled clock
      // (reader.test.ts), while this wall clock also counts whatever else the 2 cores are doing.
      expect(await asBlogTeam('--rollback')).toContain(`Rolled back blog candidate ${candidate}`);
      canaryRunning = false;
      const rolledBack = Date.now();
      const shownAfter = await Promise.all(
        cluster.nodes.map(async (node) => {
          await eventually(`${node.name} serving the current blog release again`, () => blogReleaseOn(node, canaryBucket), (release) => release === current, 10_000);
          return Date.now() - rolledBack;
        }),
      );
      report.push(`canary rollback shown by each machine after ${shownAfter.join(', ')} ms`);
      // The next test starts once every task, not just the first one each machine asked, is back.
      await untilEveryTaskServes('every API task serving the current blog release again', canaryBucket, current);
    } finally {
      rmSync(build, { recursive: true, force: true });
      // A failure above leaves no canary behind for what follows, in any task.
      if (canaryRunning) {
        await asBlogTeam('--rollback');
        if (inCanary !== undefined) await untilEveryTaskServes('every API task serving the current blog release again', inCanary, current);
      }
    }
  });

  it('lets a page opened before a release load its old chunk from another machine', async () => {
    const post = await newestPost();
    const before = await blogReleaseOn(cluster.nodes[0]!, '0');
    // Everything this page asks for goes to the first machine until the release is made.
    proxy.route = () => 0;
    const page = await openPage(browser);
    await page.goto(`${siteUrl}/`);
    const postLink = page.locator(`#${SECTION_IDS.blog} a[href="/blog/${post.id}"]`).first();
    await waitForHydration(postLink);
    expect(await page.evaluate(() => window.__AGENCY_RELEASES__?.remotes.blog?.release)).toBe(before);

    const build = changedBlogBuild();
    try {
      await asBlogTeam('--dist', build);
      await eventually('every machine serving the new blog release', () => Promise.all(cluster.nodes.map((node) => blogReleaseOn(node, '0'))), (releases) => releases.every((release) => release !== before), 10_000);
      // ...and from now on the page's requests go to the second machine.
      proxy.route = () => 1;
      const logged = proxy.log.length;
      const oldCode = page.waitForResponse((response) => BLOG_POST_PAGE_CODE.test(response.url()));
      await postLink.click();
      expect([(await oldCode).status(), (await oldCode).url()]).toEqual([200, expect.stringMatching(new RegExp(`^${siteUrl}/remotes/blog/${before}/`))]);
      await page.getByRole('link', { name: OLD_BACK_LINK }).waitFor();
      expect(proxy.log.slice(logged).filter((entry) => BLOG_POST_PAGE_CODE.test(entry.url))).toEqual([expect.objectContaining({ backend: 1, status: 200 })]);
      expect(page.consoleErrors).toEqual([]);
    } finally {
      proxy.route = () => undefined;
      await page.context().close();
      rmSync(build, { recursive: true, force: true });
      // The blog as it was, for what follows.
      await asBlogTeam('--rollback');
    }
  });

  /** Each running task's id, by service. */
  async function runningTasks(): Promise<Record<string, string[]>> {
    const lines = await cluster.swarm(['stack', 'ps', '--filter', 'desired-state=running', '--format', '{{.Name}} {{.ID}}', STACK], alive);
    const tasks: Record<string, string[]> = {};
    for (const [task, id] of lines.trim().split('\n').filter(Boolean).map((line) => line.split(' '))) {
      (tasks[task!.replace(/^[^_]+_/, '').replace(/\..*$/, '')] ??= []).push(id!);
    }
    return tasks;
  }

  it('releases one team’s app alone with `npm run swarm -- release`, and scales the API with `scale`', async () => {
    const before = await runningTasks();
    await timed('npm run swarm -- release mfe-forms (cached build, push, rolling update)', () => swarmScript(['release', 'mfe-forms']));
    const after = await runningTasks();
    expect(after['mfe-forms']).not.toEqual(before['mfe-forms']);
    expect((await cluster.swarm(['service', 'inspect', '--format', '{{.Spec.TaskTemplate.ContainerSpec.Image}}', service('mfe-forms')], alive)).trim()).toMatch(
      new RegExp(`^${REGISTRY}/agency-mfe-forms:\\d{8}T\\d{6}-[0-9a-f]{6}@sha256:`),
    );
    delete before['mfe-forms'];
    delete after['mfe-forms'];
    expect(after).toEqual(before);

    await swarmScript(['scale', 'api=4']);
    expect((await placement()).api).toHaveLength(4);
    const pages = await Promise.all(cluster.nodes.map(async (node) => (await fetch(`http://${node.address}:${SITE_PORT}/api/services`)).status));
    expect(pages).toEqual([200, 200, 200]);
    await swarmScript(['scale', 'api=3']);
    expect((await placement()).api).toHaveLength(3);
  });

  it('rolls the API back by itself from an image whose health check fails, with no error for visitors', async () => {
    const inspect = async (format: string) => (await cluster.swarm(['service', 'inspect', '--format', format, service('api')], alive)).trim();
    const image = () => inspect('{{.Spec.TaskTemplate.ContainerSpec.Image}}');
    const healthcheck = () => inspect('{{json .Spec.TaskTemplate.ContainerSpec.Healthcheck}}');
    const released = await image();
    const releasedHealthcheck = await healthcheck();
    // A release that starts but cannot serve: every request (its health check's too) answers 500.
    const broken = `${PREFIX}-api-broken`;
    await docker(['build', '--quiet', '--tag', broken, '-'], [
      `FROM agency-build-api`,
      `CMD ["node", "-e", "require('node:http').createServer((request, response) => { response.statusCode = 500; response.end('broken release'); }).listen(8080)"]`,
      `HEALTHCHECK --interval=2s --timeout=2s --retries=2 ${apiHealthCheckCommand()}`,
    ].join('\n'));
    const brokenImage = await cluster.push(broken, 'agency-api:broken');

    const pages = loadPages(cluster.nodes);
    let update = '';
    // Visitors send leads from a second before the update until two seconds after Swarm ended it.
    const result = await runLeadStream({
      siteUrl: proxy.origin,
      spamSecrets: await siteSpamSecrets(),
      tag: 'broken-api',
      faultAtMs: 1_000,
      durationMs: 3_000,
      fault: async () => {
        const started = Date.now();
        // The stack's start period, in which failed checks do not count, is for a slow start
        // beside every other task; this image fails at once, so it gets 5 s: the stack's wait
        // would prove nothing more, and visitors' streams kept a core busy through it. A rollback
        // restores the whole previous spec, the stack's start period included (checked below).
        update = await cluster.swarm(['service', 'update', '--detach=false', '--image', brokenImage, '--health-start-period', '5s', service('api')], alive).then(
          (output) => output,
          (error: Error) => error.message,
        );
        report.push(`API update to an unhealthy image rolled back by Swarm in ${Math.round((Date.now() - started) / 1000)} s`);
      },
    });
    const loaded = await pages.stop();
    // Settled before anything is asserted, so that a failure here leaves the next test a whole stack.
    await untilConverged('every service running again after the rollback');
    expect(update).toMatch(/roll(ed)? ?back/i);
    expect(await image()).toBe(released);
    expect(await healthcheck()).toBe(releasedHealthcheck);
    // Every task serves the release again (Swarm's own update status is only reported: on a busy
    // host it was once `completed` after this very rollback, with the released image on every task).
    const tasksImages = await cluster.swarm(['service', 'ps', '--no-trunc', '--filter', 'desired-state=running', '--format', '{{.Image}}', service('api')], alive);
    expect([...new Set(tasksImages.trim().split('\n'))]).toEqual([released]);
    report.push(`API update status after the rollback: ${(await cluster.swarm(['service', 'inspect', '--format', '{{.UpdateStatus.State}}: {{.UpdateStatus.Message}}', service('api')], alive)).trim()}`);
    await checkVisitors('during the rolled-back API update', 'broken-api', loaded, result);
  });

  it('backs PostgreSQL up from the data machine into the object store: a base backup, proven, and WAL shipped after it', async () => {
    const node = cluster.nodes[0]!;
    /** The backup agent's command line in its task, with the task's secrets and variables. */
    const backupCli = async (...args: string[]) => {
      const [container] = (await cluster.onNode(node, ['ps', '--quiet', '--filter', `label=com.docker.swarm.service.name=${service('backup-agent')}`])).trim().split('\n');
      return cluster.onNode(node, ['exec', container!, 'node', 'api/dist/staff/cli/backup.js', ...args]);
    };
    // Taken at the agent's start, once the server archived its first WAL file: long done by now on a run's usual pace.
    const backups = await eventually(
      'a base backup in the object store, proven by the agent’s drill',
      async () => JSON.parse(await backupCli('list', '--format', 'json')) as { kind: string; verifiedAt: string | null; takenAt: string }[],
      (list) => list.some((backup) => backup.kind === 'postgres-base' && backup.verifiedAt !== null),
      8 * 60_000,
      5_000,
    );
    report.push(`backup agent: ${backups.length} base backup(s) in the object store, the first taken ${backups[0]!.takenAt}`);
    // WAL archived since goes to the store too: it leaves the spool once stored (shipWal deletes it then).
    const [[archived]] = (await sql('select coalesce(last_archived_wal, \'\') from pg_stat_archiver')) as [[string]];
    expect(archived).not.toBe('');
    await eventually(
      'the server’s last archived WAL file shipped out of the spool',
      async () => {
        const [container] = (await cluster.onNode(node, ['ps', '--quiet', '--filter', `label=com.docker.swarm.service.name=${service('backup-agent')}`])).trim().split('\n');
        return cluster.onNode(node, ['exec', container!, 'ls', '/var/lib/postgresql/data/wal-spool']);
      },
      (spool) => !spool.split('\n').includes(archived),
      60_000,
      2_000,
    );
  });

  it('survives losing a machine with API tasks: pages answer from the others, Swarm moves the tasks, every lead is stored once', async () => {
    // Not the data machine (losing it stops the database: in production that is a managed one).
    const withApi = (await placement()).api ?? [];
    const victim = cluster.nodes.slice(1).find((node) => withApi.includes(node.name))!;
    expect(victim).toBeDefined();
    const survivors = cluster.nodes.filter((node) => node !== victim);
    const pages = loadPages(survivors);
    let killedAt = 0;
    const result = await runLeadStream({
      siteUrl: proxy.origin,
      spamSecrets: await siteSpamSecrets(),
      tag: 'machine-lost',
      durationMs: 20_000,
      faultAtMs: 2_000,
      fault: async () => {
        await cluster.kill(victim);
        killedAt = Date.now();
        alive = survivors;
      },
    });
    const loaded = await pages.stop();
    await checkVisitors('while a machine was lost (pages: the other machines)', 'machine-lost', loaded, result);
    report.push(`requests the load balancer could send to no machine: ${proxy.unanswered}`);

    // Swarm notices the machine is gone and starts its API task on another one.
    await eventually(
      'three API tasks running on the remaining machines',
      placement,
      (where) => where.api?.length === 3 && where.api.every((node) => node !== victim.name),
      3 * 60_000,
      ENGINE_POLL_MS,
    );
    report.push(`API back to 3 tasks on the other machines ${Math.round((Date.now() - killedAt) / 1000)} s after the machine was lost`);
    await untilConverged('every service running on the remaining machines');
    const after = await Promise.all(survivors.map(async (node) => (await fetch(`http://${node.address}:${SITE_PORT}/`)).status));
    expect(after).toEqual([200, 200]);
  });
});
