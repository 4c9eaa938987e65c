// npm run bench:web — builds what is stale, serves the production site on a free port with a fresh
// SQLite database, and runs Lighthouse (mobile and desktop, default simulated throttling) on the
// local Chromium several times on `/`, a blog post, `/blog` and `/privacy`. Prints the median of
// each figure (the page's HTML among them) and the bytes each app contributes; then, on Chromium's
// slow-4G emulation (150 ms RTT, 1.6 Mbit/s), when the hero headline is first visible. Each row
// also gives Lighthouse's benchmark index of the host CPU during its runs, which scales the
// simulated CPU figures (TBT above all). Each page is asked for once before it is measured: a
// visitor gets a page from the page cache, while the first render after the server starts also
// loads and compiles the server bundles, which Lighthouse would count as the page's server time.
// Options: --runs <n> (default 3), --json <file> (medians), --page <path> (repeatable: only those),
// --baseline <checkout>: the same site
// of another checkout (an earlier commit, every app built there) measured in the same run, its
// runs taking turns with this checkout's, so both see the same host: before and after in one run.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { releaseSettings } from './bench-servers.mjs';
import { buildIfStale } from './build-if-stale.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
};
const RUNS = Number(option('runs') ?? 3);
const JSON_OUT = option('json');
const BASELINE = option('baseline') && path.resolve(option('baseline'));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless=new', ...createRequire(import.meta.url)('../e2e/support/chromium-args.json')];

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The production site of the checkout at `siteRoot` (its API serving its own builds). */
async function startSite(siteRoot = root) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-bench-web-'));
  const child = spawn(process.execPath, [path.join(siteRoot, 'api/dist/server.js')], {
    cwd: siteRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${path.join(dataDir, 'agency.sqlite')}`,
      // The build folders are measured, not releases.
      ...releaseSettings(dataDir),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries += 1) {
    if (child.exitCode !== null) throw new Error(`the site exited with ${child.exitCode}`);
    const healthy = await fetch(`${baseUrl}/api/health`).then((response) => response.ok, () => false);
    if (healthy) break;
    if (tries > 300) throw new Error('the site did not become healthy');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const stop = () => {
    child.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { baseUrl, stop };
}

/** Which app a request belongs to, by the path the server serves it under. */
function appOf(url, baseUrl) {
  if (!url.startsWith(baseUrl)) return 'other origins';
  const pathname = new URL(url).pathname;
  const remote = /^\/remotes\/([^/]+)\//.exec(pathname);
  if (remote) return remote[1];
  if (pathname.startsWith('/api/')) return 'api';
  if (pathname.startsWith('/media/')) return 'media';
  return 'shell';
}

function figures(lhr, baseUrl) {
  const audit = (id) => lhr.audits[id]?.numericValue ?? NaN;
  const requests = lhr.audits['network-requests']?.details?.items ?? [];
  const kib = (bytes) => bytes / 1024;
  const sum = (items) => kib(items.reduce((total, item) => total + (item.transferSize ?? 0), 0));
  const byApp = {};
  const html = requests.find((item) => item.resourceType === 'Document');
  for (const item of requests) byApp[appOf(item.url, baseUrl)] = (byApp[appOf(item.url, baseUrl)] ?? 0) + kib(item.transferSize ?? 0);
  return {
    performance: lhr.categories.performance.score * 100,
    accessibility: lhr.categories.accessibility.score * 100,
    'best-practices': lhr.categories['best-practices'].score * 100,
    seo: lhr.categories.seo.score * 100,
    'FCP s': audit('first-contentful-paint') / 1000,
    'LCP s': audit('largest-contentful-paint') / 1000,
    'TBT ms': audit('total-blocking-time'),
    CLS: audit('cumulative-layout-shift'),
    'JS KiB': sum(requests.filter((item) => item.resourceType === 'Script')),
    // The page's own HTML: as sent (brotli) and as the browser reads it.
    'HTML KiB': kib(html?.transferSize ?? 0),
    'HTML raw KiB': kib(html?.resourceSize ?? 0),
    'total KiB': sum(requests),
    requests: requests.length,
    // Lighthouse's measure of this machine's CPU speed at the time of the run: simulated
    // throttling scales what it observed here, so TBT moves with it (a shared 2-core VM swings
    // by half from one minute to the next).
    'host CPU': lhr.environment.benchmarkIndex,
    byApp,
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

function medianFigures(runs) {
  const result = {};
  for (const key of Object.keys(runs[0])) {
    if (key === 'byApp') continue;
    result[key] = median(runs.map((run) => run[key]));
  }
  const apps = new Set(runs.flatMap((run) => Object.keys(run.byApp)));
  result.byApp = Object.fromEntries([...apps].sort().map((app) => [app, median(runs.map((run) => run.byApp[app] ?? 0))]));
  return result;
}

const format = (key, value) => {
  if (key === 'CLS') return value.toFixed(3);
  if (key.endsWith(' s')) return value.toFixed(2);
  if (key.endsWith('KiB')) return value.toFixed(0);
  return String(Math.round(value));
};

function printTable(rows) {
  const keys = Object.keys(rows[0].figures).filter((key) => key !== 'byApp');
  const header = ['page', 'device', 'build', ...keys];
  const lines = rows.map(({ page, device, build, figures: values }) => [page, device, build, ...keys.map((key) => format(key, values[key]))]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column].length)));
  const row = (cells) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  console.log(row(header));
  console.log(row(widths.map((width) => '-'.repeat(width))));
  for (const line of lines) console.log(row(line));
  console.log('\nKiB transferred per app (median):');
  for (const { page, device, build, figures: values } of rows) {
    const parts = Object.entries(values.byApp).map(([app, bytes]) => `${app} ${bytes.toFixed(0)}`);
    console.log(`  ${page} ${device} ${build}: ${parts.join(', ')}`);
  }
}

/** Chromium's "Slow 4G" network preset. */
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };

/** Seconds from navigation until the hero's headline is painted, on slow 4G with a fresh cache. */
async function heroVisibleOnSlow4g(baseUrl) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS.filter((flag) => !flag.startsWith('--headless')) });
  try {
    const times = [];
    for (let run = 0; run < RUNS; run += 1) {
      const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
      await page.goto(baseUrl, { waitUntil: 'commit' });
      await page.locator('#hero h1').waitFor({ state: 'visible' });
      // The headline is in the HTML the server sends, so the first contentful paint shows it
      // (layout alone would call it visible before its styles have even arrived).
      const painted = await page.evaluate(
        () =>
          new Promise((resolve) => {
            new PerformanceObserver((list, observer) => {
              observer.disconnect();
              resolve(list.getEntries()[0].startTime / 1000);
            }).observe({ type: 'paint', buffered: true });
          }),
      );
      times.push(painted);
      await context.close();
    }
    return median(times);
  } finally {
    await browser.close();
  }
}

/** One Lighthouse run of `url`, repeated when Lighthouse could not finish it (it happens now and then). */
async function measure(chrome, url, device, baseUrl) {
  for (let failures = 0; ; failures += 1) {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' }, device === 'desktop' ? desktopConfig : undefined);
    if (!result.lhr.runtimeError) return figures(result.lhr, baseUrl);
    console.error(`${url} ${device}: ${result.lhr.runtimeError.code}, measuring again`);
    if (failures >= 5) throw new Error(`Lighthouse keeps failing on ${url} (${device})`);
  }
}

buildIfStale();
const sites = [...(BASELINE ? [{ build: 'before', site: await startSite(BASELINE) }] : []), { build: BASELINE ? 'after' : 'this', site: await startSite() }];
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
try {
  const { baseUrl } = sites.at(-1).site;
  const posts = await fetch(`${baseUrl}/api/blog?limit=1`).then((response) => response.json());
  const postPath = `/blog/${posts[0].id}`;
  const rows = [];
  // --page <path> (repeatable) measures only those pages.
  const chosen = args.flatMap((arg, index) => (args[index - 1] === '--page' ? [arg] : []));
  for (const page of chosen.length > 0 ? chosen : ['/', postPath, '/blog', '/privacy']) {
    for (const { site } of sites) await fetch(`${site.baseUrl}${page}`, { headers: { accept: 'text/html' } }).then((response) => response.text());
    for (const device of ['mobile', 'desktop']) {
      const runs = new Map(sites.map(({ build }) => [build, []]));
      // The builds take turns, so a slower minute of the host falls on both.
      for (let run = 0; run < RUNS; run += 1) {
        for (const { build, site } of sites) runs.get(build).push(await measure(chrome, `${site.baseUrl}${page}`, device, site.baseUrl));
      }
      for (const { build } of sites) rows.push({ page, device, build, figures: medianFigures(runs.get(build)) });
      console.error(`measured ${page} on ${device}`);
    }
  }
  console.log(`\nLighthouse ${RUNS} runs each, median (simulated throttling):\n`);
  printTable(rows);
  const hero = {};
  for (const { build, site } of sites) {
    hero[build] = await heroVisibleOnSlow4g(site.baseUrl);
    console.log(`\nHero headline visible on slow 4G (150 ms RTT, 1.6 Mbit/s), ${build}, median of ${RUNS}: ${hero[build].toFixed(2)} s`);
  }
  if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify({ rows, heroVisibleOnSlow4gSeconds: hero }, null, 2));
} finally {
  await chrome.kill();
  for (const { site } of sites) site.stop();
}
