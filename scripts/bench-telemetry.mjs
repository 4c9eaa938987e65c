// npm run bench:telemetry — what visitors' telemetry beacons cost the pages. Serves the production
// build (SQLite, a fresh database, the page cache on as in production) and asks for pages at a
// steady rate (`/`, a post, the listing; brotli), first alone, then while POST /api/telemetry gets
// beacons at a steady rate from many addresses (TRUST_PROXY with X-Forwarded-For, so the per-address
// limit applies as it would behind the shell's nginx). Each beacon is what a page view sends at
// hide: its page view (with what the dashboard counts of it) and five Web Vitals, one in twenty
// with an error.
// Prints page latency in both phases, the beacons' own latency and answers, the API process's CPU
// time, and checks that every accepted beacon's page view reached the database.
// The beacons come from a child process, so their load generator does not delay the page timings.
// Options: --duration <s> (default 15), --rounds <n> (default 3; the phases alternate),
// --page-rate <n/s> (default 200), --beacon-rate <n/s>
// (default 2000), --connections <n> (the beacons', default 50).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { hasNginx, startApi, startShellNginx, stop } from './bench-servers.mjs';
import { buildIfStale } from './build-if-stale.mjs';

const scriptFile = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(scriptFile), '..');
const requireFromApi = createRequire(path.join(root, 'api/package.json'));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return Number(index >= 0 ? args[index + 1] : fallback);
};
const DURATION = option('duration', 15);
const ROUNDS = option('rounds', 3);
const PAGE_RATE = option('page-rate', 200);
const BEACON_RATE = option('beacon-rate', 2000);
const CONNECTIONS = option('connections', 50);

// A browser's navigation, as browsers send it (the server counts those as page views).
const PAGE_HEADERS = { 'accept-encoding': 'gzip, deflate, br, zstd', accept: 'text/html,application/xhtml+xml', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
const PAGES = [
  { page: '/', url: '/' },
  { page: '/blog/:postId', url: '/blog/1' },
  { page: '/blog', url: '/blog' },
];
// The releases the server serves here (no release is published: every app's build folder), as a
// page names them: the API counts a report only for the releases it serves its client.
const RELEASES = { shell: 'dist', home: 'dist', blog: 'dist', forms: 'dist' };
const METRICS_TOKEN = 'bench-telemetry';
/**
 * Distinct visitors' addresses the beacons come from: enough that each sends about one beacon a
 * phase, as real visitors do, well inside what the API counts per client and minute.
 */
const VISITORS = 60_000;

/** A desktop Chrome's: the site's own counting leaves out requests without a browser's user agent. */
const BROWSER_USER_AGENT = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/**
 * A beacon as a page view sends it at hide; `index` picks the page, the vitals' values and an
 * occasional error. The page view carries what the dashboard counts of it, as the shell sends it.
 */
function beaconBody(index) {
  const { page, url } = PAGES[index % PAGES.length];
  const vital = (name, value) => ({ name, value, page, releases: RELEASES });
  const analytics = { path: url, device: ['mobile', 'tablet', 'desktop'][index % 3], engaged_ms: 5_000 + (index % 120) * 1000 };
  const body = {
    page_views: [{ page, releases: RELEASES, analytics }],
    vitals: [
      vital('TTFB', 40 + (index % 200)),
      vital('FCP', 600 + (index % 900)),
      vital('LCP', 900 + (index % 1500)),
      vital('INP', 24 + (index % 300)),
      vital('CLS', (index % 30) / 100),
    ],
  };
  if (index % 20 === 0) {
    body.errors = [
      {
        kind: 'uncaught',
        app: 'blog',
        release: RELEASES.blog,
        page,
        message: `TypeError: Cannot read properties of undefined (reading 'title${index % 5}')`,
        stack: `TypeError: Cannot read properties of undefined\n    at BlogTeaser (https://khvylia.example/remotes/blog/${RELEASES.blog}/blog-teaser.3f2a1c.js:1:${2000 + (index % 5)})`,
        count: 1,
      },
    ];
  }
  return JSON.stringify(body);
}

/** The beacons' load generator, run as this script's child: prints autocannon's result as JSON. */
async function sendBeacons(base) {
  let sent = 0;
  const result = await autocannon({
    url: `${base}/api/telemetry`,
    method: 'POST',
    connections: CONNECTIONS,
    overallRate: BEACON_RATE,
    duration: DURATION,
    requests: [
      {
        setupRequest: (request) => {
          sent += 1;
          return {
            ...request,
            headers: {
              'content-type': 'application/json',
              'user-agent': BROWSER_USER_AGENT,
              'x-forwarded-for': `10.${(sent % VISITORS) >> 16}.${((sent % VISITORS) >> 8) & 255}.${sent & 255}`,
            },
            body: beaconBody(sent),
          };
        },
      },
    ],
  });
  const { user, system } = process.cpuUsage();
  process.stdout.write(JSON.stringify({ ...result, cpuSeconds: (user + system) / 1e6 }));
}

function runBeacons(base) {
  const child = spawn(process.execPath, [scriptFile, '--beacons-to', base, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(output)) : reject(new Error(`beacons exited ${code}`)))),
  );
}

/** The process's CPU time so far (user + system), in seconds. */
function cpuSeconds(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function loadPages(base) {
  const result = await autocannon({
    url: base,
    connections: 10,
    overallRate: PAGE_RATE,
    duration: DURATION,
    requests: PAGES.map(({ url }) => ({ path: url, headers: PAGE_HEADERS })),
  });
  return result;
}

/** The shell's page views the server took, as its /metrics counts them. */
async function acceptedPageViews(base) {
  const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const line = (await response.text()).split('\n').find((text) => text.startsWith(`agency_browser_page_views_total{app="shell",release="${RELEASES.shell}"}`));
  return Number(line?.split(' ').pop() ?? 0);
}

async function phase(apiChild, base, withBeacons) {
  const cpuBefore = cpuSeconds(apiChild.pid);
  const started = performance.now();
  const [pages, beacons] = await Promise.all([loadPages(base), withBeacons ? runBeacons(base) : undefined]);
  const seconds = (performance.now() - started) / 1000;
  return { pages, beacons, cpu: (cpuSeconds(apiChild.pid) - cpuBefore) / seconds };
}

async function main() {
  buildIfStale();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-bench-telemetry-'));
  const { child, base: apiBase, port, databaseFile } = await startApi(workDir, {
    env: {
      TRUST_PROXY: '127.0.0.1',
      // Behind nginx every beacon comes from this machine's one address: the limit is still
      // counted per address, never reached.
      TELEMETRY_RATE_LIMIT: '100000000',
      METRICS_TOKEN,
    },
  });
  const rows = [];
  const beaconRows = [];
  try {
    // Rounds alternate the phases, so a slow moment of the machine does not land on one of them.
    const measure = async (label, base) => {
      console.error(`… ${label}: warming up`);
      await autocannon({ url: base, connections: 10, duration: 3, requests: PAGES.map(({ url }) => ({ path: url, headers: PAGE_HEADERS })) });
      for (let round = 1; round <= ROUNDS; round += 1) {
        console.error(`… ${label}, round ${round}: pages alone, ${PAGE_RATE}/s for ${DURATION} s`);
        rows.push({ label, round, phase: 'pages alone', ...(await phase(child, base, false)) });
        console.error(`… ${label}, round ${round}: pages with ${BEACON_RATE} beacons/s`);
        const loaded = await phase(child, base, true);
        rows.push({ label, round, phase: `pages + ${BEACON_RATE} beacons/s`, ...loaded });
        beaconRows.push({ label, round, beacons: loaded.beacons });
      }
    };
    await measure('API alone (npm start)', apiBase);
    if (hasNginx()) {
      const proxy = await startShellNginx(workDir, port);
      try {
        await measure("shell's nginx in front (containers)", proxy.base);
      } finally {
        await stop(proxy.child);
      }
    } else {
      console.error('nginx is not installed (apt-get install -y nginx libnginx-mod-http-brotli-static): its rows are skipped');
    }
    const accepted = await acceptedPageViews(apiBase);
    // The recorder writes once a second; stopping the server writes what is left.
    await stop(child);

    const Database = requireFromApi('better-sqlite3');
    const db = new Database(databaseFile, { readonly: true });
    const stored = db.prepare("SELECT COALESCE(SUM(count), 0) AS n FROM telemetry_minutes WHERE app = 'shell' AND kind = 'page_view'").get().n;
    db.close();

    console.log(`\nPages with and without telemetry beacons: ${os.cpus().length} CPU(s), ${DURATION} s each, pages at ${PAGE_RATE}/s (brotli)\n`);
    console.log('| Served by | Phase | page p99 (ms), median of rounds | each round: p50 / p99 / max (ms) | non-2xx or errors | API process CPU |');
    console.log('|---|---|---:|---|---:|---:|');
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    for (const key of [...new Set(rows.map(({ label, phase: name }) => `${label}\n${name}`))]) {
      const [label, name] = key.split('\n');
      const group = rows.filter((row) => row.label === label && row.phase === name);
      const each = group.map(({ pages }) => `${pages.latency.p50} / ${pages.latency.p99} / ${pages.latency.max}`).join(', ');
      const failed = group.reduce((sum, { pages }) => sum + pages.non2xx + pages.errors + pages.timeouts, 0);
      const cpu = median(group.map((row) => row.cpu));
      console.log(`| ${label} | ${name} | ${median(group.map(({ pages }) => pages.latency.p99))} | ${each} | ${failed} | ${Math.round(cpu * 100)} % |`);
    }
    console.log('\n| Beacons to | Round | Sent/s | 204 | refused | failed | p50 (ms) | p99 (ms) | load generator CPU |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const { label, round, beacons } of beaconRows) {
      const cpu = Math.round((100 * beacons.cpuSeconds) / beacons.duration);
      console.log(`| ${label} | ${round} | ${Math.round(beacons.requests.average)} | ${beacons['2xx']} | ${beacons.non2xx} | ${beacons.errors + beacons.timeouts} | ${beacons.latency.p50} | ${beacons.latency.p99} | ${cpu} % |`);
    }
    console.log(`\nPage views in the database: ${stored} of the ${accepted} the server accepted${stored === accepted ? '' : ' — MISMATCH'}`);
    if (stored !== accepted) process.exitCode = 1;
  } finally {
    await stop(child);
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

const beaconsTo = args.indexOf('--beacons-to');
(beaconsTo >= 0 ? sendBeacons(args[beaconsTo + 1]) : main()).catch((error) => {
  console.error(error);
  process.exit(1);
});
