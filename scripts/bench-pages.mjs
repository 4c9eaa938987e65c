// npm run bench:pages — what serving a server-rendered page costs next to a JSON answer. Serves the
// production build (SQLite, a fresh database) with the page cache off (PAGE_CACHE_MAX_MB=0: every
// request renders) and on, and in each measures, brotli as browsers ask:
//   - a post edited as a content sync writes it: how long until its page shows the change, and
//     the first request of each page then, the server otherwise idle (a miss: rendered anew);
//   - with autocannon, requests per second and latency of `/`, a post, the listing and
//     GET /api/services;
//   - the same pages through the shell's nginx (its image's configuration and page cache, Debian's
//     nginx on this machine), if nginx is installed.
// The same with every app served from releases, as production serves them: published through the
// release API into the file store, and into an S3 store (s3rver, the S3 API server the tests use),
// each also measured for a new blog release: how long until a page shows it, and that first page.
// Last, what one call for a page's data costs in-process (Fastify's inject) and over loopback HTTP.
// Options: --duration <s> (default 8), --connections <n> (default 20), --misses <n> (default 10),
// --baseline <folder>: first the same with the API and the shell's nginx configuration of another
// checkout (an earlier commit, its shared and api workspaces built), serving this checkout's
// front-end builds as releases its own release command published: before and after in one run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { apiSettings, hasNginx, startApi, startS3rver, startShellNginx, stop } from './bench-servers.mjs';
import { buildIfStale } from './build-if-stale.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const requireFromApi = createRequire(path.join(root, 'api/package.json'));
const args = process.argv.slice(2);
const textOption = (name) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
};
const option = (name, fallback) => Number(textOption(name) ?? fallback);
const DURATION = option('duration', 8);
const CONNECTIONS = option('connections', 20);
const MISSES = option('misses', 10);
const BASELINE = textOption('baseline') && path.resolve(textOption('baseline'));
const NEW_RELEASES = 5;

/** The apps and their build folders in this checkout, shell first (from the registry of apps). */
const REGISTRY = JSON.parse(fs.readFileSync(path.join(root, 'shared/src/federation/registry.json'), 'utf8'));
const APPS = {
  [REGISTRY.host.id]: REGISTRY.host.folder,
  ...Object.fromEntries(Object.entries(REGISTRY.remotes).map(([name, remote]) => [name, remote.folder])),
};
/** A team token the benchmark's API accepts for every app (a production-length secret: the site is not local). */
const RELEASE_TOKEN = `bench-${'0123456789abcdef'.repeat(3)}`;
const RELEASE_TOKENS = `bench=${Object.keys(APPS).join(',')}:${RELEASE_TOKEN}`;

const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };
// A browser's navigation, as browsers send it (the server counts those as page views).
const PAGE_HEADERS = { ...BROWSER, accept: 'text/html,application/xhtml+xml', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
const PAGES = ['/', '/blog/1', '/blog'];
const TARGETS = [
  ...PAGES.map((url) => ({ url, headers: PAGE_HEADERS })),
  { url: '/api/services', headers: { ...BROWSER, accept: 'application/json' } },
];

async function load(base, { url, headers }) {
  const options = { url: `${base}${url}`, connections: CONNECTIONS, headers };
  await autocannon({ ...options, duration: 1 });
  const result = await autocannon({ ...options, duration: DURATION });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors + result.timeouts,
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A post edited as a content sync writes it (its title; the database moves the content revision)
 * while its page is asked for every 20 ms: how long until the page shows the change, and the
 * first request of each page then, a miss (rendered anew). The edit comes at a random moment of
 * the server's once-a-second look at the revision.
 */
async function measureMisses(base, databaseFile) {
  const Database = requireFromApi('better-sqlite3');
  const db = new Database(databaseFile);
  const samples = Object.fromEntries(PAGES.map((url) => [url, []]));
  const visibleAfter = [];
  const get = async (url) => {
    const started = performance.now();
    const text = await (await fetch(`${base}${url}`, { headers: PAGE_HEADERS })).text();
    return { text, ms: performance.now() - started };
  };
  // The server's first renders load the apps' bundles: a start, not a miss.
  for (const url of PAGES) for (let i = 0; i < 3; i += 1) await get(url);
  const { title } = db.prepare('SELECT title FROM blog_posts WHERE id = 1').get();
  try {
    for (let round = 0; round < MISSES; round += 1) {
      const askingUntil = performance.now() + 200 + Math.random() * 1000;
      while (performance.now() < askingUntil) {
        await get('/blog/1');
        await sleep(20);
      }
      const edited = `${title} ${round + 1}`;
      const changedAt = performance.now();
      db.prepare('UPDATE blog_posts SET title = ? WHERE id = 1').run(edited);
      for (;;) {
        const { text, ms } = await get('/blog/1');
        if (text.includes(edited)) {
          samples['/blog/1'].push(ms);
          break;
        }
        await sleep(20);
      }
      visibleAfter.push(performance.now() - changedAt);
      for (const url of PAGES.filter((page) => page !== '/blog/1')) samples[url].push((await get(url)).ms);
    }
  } finally {
    db.prepare('UPDATE blog_posts SET title = ? WHERE id = 1').run(title);
    db.close();
  }
  return {
    byPage: Object.fromEntries(Object.entries(samples).map(([url, values]) => [url, figures(values)])),
    visibleAfter: figures(visibleAfter),
  };
}

/** Milliseconds per call of a page's data request, in-process (inject) and over loopback HTTP. */
async function measureDataTransport(workDir) {
  const { buildApp } = requireFromApi('./dist/app.js');
  const { loadConfig } = requireFromApi('./dist/platform/config/index.js');
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn', ...apiSettings(fs.mkdtempSync(path.join(workDir, 'transport-'))) });
  const app = await buildApp({ config });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${app.server.address().port}`;
  const calls = 3000;
  const headers = { accept: 'application/json' };
  const time = async (call) => {
    for (let i = 0; i < 200; i += 1) await call();
    const started = performance.now();
    for (let i = 0; i < calls; i += 1) await call();
    return (performance.now() - started) / calls;
  };
  try {
    return {
      inject: await time(async () => JSON.parse((await app.inject({ method: 'GET', url: '/api/blog/1', headers })).body)),
      loopback: await time(async () => (await fetch(`${origin}/api/blog/1`, { headers })).json()),
    };
  } finally {
    await app.close();
  }
}

/** The compiled release command of the checkout at `cliRoot`, as its `npm run release` runs it (where it lives has moved). */
function releaseCommandFile(cliRoot) {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(cliRoot, 'package.json'), 'utf8'));
  return /\bnode (\S+\.js)$/.exec(scripts.release)[1];
}

/**
 * Publishes `dir` as a release of `app`: through the release API (a .tar.gz upload with the team
 * token, as a team's CI or container does), or with the release command of the checkout at
 * `cliRoot` beside the API (the only way before the release API).
 */
async function publish(api, app, dir, { cliRoot, dataDir }) {
  if (cliRoot) {
    const run = spawnSync(process.execPath, [path.join(cliRoot, releaseCommandFile(cliRoot)), app, '--dist', dir], {
      cwd: cliRoot,
      env: { ...process.env, ...apiSettings(dataDir) },
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(`release ${app} failed:\n${run.stdout}\n${run.stderr}`);
    return;
  }
  const archive = spawnSync('tar', ['-czf', '-', '-C', dir, '.'], { maxBuffer: 256 * 1024 * 1024 }).stdout;
  const response = await fetch(`${api.base}/api/releases/${app}/builds?action=publish`, {
    method: 'POST',
    headers: { authorization: `Bearer ${RELEASE_TOKEN}`, 'content-type': 'application/gzip' },
    body: archive,
  });
  if (!response.ok) throw new Error(`release ${app}: ${response.status} ${await response.text()}`);
}

/** The releases /remotes.json names, once every app is served from one (the server reads them within a second). */
async function servedReleases(base) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const document = await (await fetch(`${base}/remotes.json`)).json();
    const releases = { shell: document.shell.release, ...Object.fromEntries(Object.entries(document.remotes).map(([name, remote]) => [name, remote.release])) };
    if (!Object.values(releases).includes('dist')) return releases;
    await sleep(50);
  }
  throw new Error('the releases were not served within 5 s');
}

/** The blog release a page's HTML was rendered with (its blog slots' data-remote-release). */
const blogReleaseIn = (html) => /data-remote-module="blog\/[^"]*"[^>]*data-remote-release="([^"]+)"|data-remote-release="([^"]+)"[^>]*data-remote-module="blog\//.exec(html)?.slice(1).find(Boolean);

/**
 * A new blog release (the build with its stats file changed, so a build no release holds) while
 * /blog/1 is asked for every 20 ms: how long after the release was published the page shows it,
 * and that first page's own time (it renders with the new release's server bundle, fetched from
 * the store first where the store is not a local folder).
 */
async function measureNewReleases(api, publishing, workDir) {
  const visibleAfter = [];
  const firstPage = [];
  const variant = fs.mkdtempSync(path.join(workDir, 'blog-variant-'));
  fs.cpSync(path.join(root, APPS.blog, 'dist'), variant, { recursive: true });
  const get = async () => {
    const started = performance.now();
    const html = await (await fetch(`${api.base}/blog/1`, { headers: PAGE_HEADERS })).text();
    return { release: blogReleaseIn(html), ms: performance.now() - started };
  };
  for (let round = 0; round < NEW_RELEASES; round += 1) {
    const before = (await get()).release;
    fs.appendFileSync(path.join(variant, 'mf-stats.json'), '\n');
    await publish(api, 'blog', variant, publishing);
    const publishedAt = performance.now();
    for (;;) {
      const page = await get();
      if (page.release && page.release !== before) {
        visibleAfter.push(performance.now() - publishedAt);
        firstPage.push(page.ms);
        break;
      }
      if (performance.now() - publishedAt > 10_000) throw new Error('a new blog release did not show within 10 s');
      await sleep(20);
    }
  }
  return { visibleAfter: figures(visibleAfter), firstPage: figures(firstPage) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const figures = (values) => ({ median: median(values), max: Math.max(...values) });

async function main() {
  buildIfStale();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-bench-pages-'));
  const nginx = hasNginx();
  if (!nginx) console.error('nginx is not installed (apt-get install -y nginx libnginx-mod-http-brotli-static): its rows are skipped');
  const s3 = await startS3rver(workDir, 'bench-releases');
  const modes = [
    ...(BASELINE ? [{ label: `before (${path.basename(BASELINE)}): releases`, env: {}, apiRoot: BASELINE, releases: { cliRoot: BASELINE } }] : []),
    { label: 'page cache off', env: { PAGE_CACHE_MAX_MB: '0' } },
    { label: 'page cache on', env: {} },
    { label: 'releases, file store', env: { RELEASE_TOKENS }, releases: {} },
    { label: 'releases, S3 store', env: { RELEASE_TOKENS, RELEASE_STORE: 's3://bench-releases/site', ...s3.env }, releases: {} },
  ];
  const rows = [];
  const misses = [];
  const newReleases = [];
  try {
    for (const [index, mode] of modes.entries()) {
      const dataDir = fs.mkdtempSync(path.join(workDir, `api-${index}-`));
      const api = await startApi(dataDir, mode);
      try {
        if (mode.releases) {
          console.error(`… ${mode.label}: publishing every app`);
          for (const [app, folder] of Object.entries(APPS)) await publish(api, app, path.join(root, folder, 'dist'), { ...mode.releases, dataDir });
          await servedReleases(api.base);
        }
        // First, while nothing else ran: on a real site misses are rare, so the code that renders
        // is not kept hot by the requests around them.
        console.error(`… ${mode.label}: a post edited`);
        misses.push({ mode: mode.label, ...(await measureMisses(api.base, path.join(dataDir, 'bench.sqlite'))) });
        for (const target of TARGETS) {
          console.error(`… ${mode.label}: ${target.url}`);
          rows.push({ mode: mode.label, server: 'API', url: target.url, ...(await load(api.base, target)) });
        }
        if (mode.releases) {
          console.error(`… ${mode.label}: new blog releases`);
          newReleases.push({ mode: mode.label, ...(await measureNewReleases(api, { ...mode.releases, dataDir }, workDir)) });
        }
        if (nginx) {
          const proxy = await startShellNginx(workDir, api.port, { siteRoot: mode.apiRoot ?? root });
          try {
            for (const target of TARGETS.filter(({ url }) => PAGES.includes(url))) {
              console.error(`… ${mode.label}: ${target.url} through nginx`);
              rows.push({ mode: mode.label, server: "shell's nginx", url: target.url, ...(await load(proxy.base, target)) });
            }
          } finally {
            await stop(proxy.child);
          }
        }
      } finally {
        await stop(api.child);
      }
    }
    console.error('… page data: inject and loopback');
    const transport = await measureDataTransport(workDir);

    console.log(`\nPages and JSON: ${os.cpus().length} CPU(s), ${CONNECTIONS} connections, ${DURATION} s each, brotli\n`);
    console.log('| Page cache | Served by | Request | Requests/s | p50 (ms) | p99 (ms) | non-2xx or errors |');
    console.log('|---|---|---|---:|---:|---:|---:|');
    for (const row of rows) {
      console.log(`| ${row.mode} | ${row.server} | GET ${row.url} | ${row.rps} | ${row.p50} | ${row.p99} | ${row.bad} |`);
    }
    console.log(`\nA post edited (${MISSES} times): until its page shows it, and the first request of each page then; median / slowest, ms\n`);
    console.log(`| Page cache | shown after | ${PAGES.map((url) => `GET ${url}`).join(' | ')} |`);
    console.log(`|---|---:|${PAGES.map(() => '---:').join('|')}|`);
    const cell = ({ median, max }) => `${median.toFixed(1)} / ${max.toFixed(1)}`;
    for (const { mode, byPage, visibleAfter } of misses) {
      console.log(`| ${mode} | ${cell(visibleAfter)} | ${PAGES.map((url) => cell(byPage[url])).join(' | ')} |`);
    }
    console.log(`\nA new blog release (${NEW_RELEASES} times), /blog/1 asked every 20 ms: until the page shows it, and that first page; median / slowest, ms\n`);
    console.log('| Releases | shown after | first page |');
    console.log('|---|---:|---:|');
    for (const { mode, visibleAfter, firstPage } of newReleases) console.log(`| ${mode} | ${cell(visibleAfter)} | ${cell(firstPage)} |`);
    console.log(`\nOne call for a page's data (GET /api/blog/1): inject ${transport.inject.toFixed(3)} ms, loopback HTTP ${transport.loopback.toFixed(3)} ms`);
  } finally {
    await stop(s3.child);
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
