// npm run bench:backup — backups of 100,000 leads, as production meets them: the compiled API
// starts on a seeded SQLite database with backups every 10 s, visitors send contact messages
// through HTTP without pause, and the scheduled backup runs among them. Prints the backup's
// duration and size, what each visitor's submission waited while it ran (p50, p99, the longest),
// then the time to restore it into a fresh database and to verify it with `npm run backup`.
// Goals: a submission's p99 ≤ 100 ms while a backup runs; a restore ≤ 10 min.
// Options: --leads <n> (default 100000), --visitors <n> (default 2), --no-build.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { apiSettings, stop, waitFor } from '../../scripts/bench-servers.mjs';
import { freePort } from './embedded-postgres.mjs';
import { buildApi, seedLeads } from './seed-leads.mjs';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? Number(args[index + 1]) : fallback;
};
const LEADS = option('leads', 100_000);
const VISITORS = option('visitors', 2);
const P99_GOAL_MS = 100;
const RESTORE_GOAL_MS = 10 * 60_000;

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-bench-backup-'));
process.on('exit', () => fs.rmSync(scratch, { recursive: true, force: true }));

const percentile = (sorted, p) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
const round = (ms) => Math.round(ms * 10) / 10;
const summary = (durations) => {
  const sorted = [...durations].sort((a, b) => a - b);
  return { sent: sorted.length, p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted.at(-1) ?? 0) };
};

const databaseFile = path.join(scratch, 'bench.sqlite');
// Every 30 s: the start-up backup and drill, then a backup every 30 s with quiet time between.
const settings = { ...apiSettings(path.join(scratch, 'site')), DATABASE_URL: `sqlite:${databaseFile}`, BACKUP_INTERVAL: '30s' };

/** The API with its JSON log read: each backup's log entry (when it ended, how long it took) and the start-up drill's end. */
async function startApi() {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'api/dist/server.js')], {
    env: { ...process.env, ...settings, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', RATE_LIMIT_MAX: '1000000' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const backups = [];
  let drilled;
  const drill = new Promise((resolve) => (drilled = resolve));
  const waiting = [];
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.includes('backups: restore drill passed')) drilled();
    if (!line.includes('backups: backup taken')) return;
    backups.push({ ...JSON.parse(line), loggedAt: performance.now() });
    waiting.shift()?.();
  });
  const nextBackup = () => new Promise((resolve) => waiting.push(resolve)).then(() => backups.at(-1));
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/api/health`, child);
  return { child, base, backups, drill, nextBackup };
}

/** Visitors sending contact messages one after another until `until` resolves; each one's start and time, ms. */
async function sendUntil(base, until) {
  let going = true;
  until.then(() => (going = false));
  const sent = [];
  const body = JSON.stringify({ name: 'Відвідувач', email: 'visitor@example.com', phone: '+380 67 123 45 67', company: '', service_type: '', message: 'Бенчмарк резервних копій', website: '' });
  async function visitor() {
    while (going) {
      const started = performance.now();
      const response = await fetch(`${base}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await response.arrayBuffer();
      if (response.status !== 201) throw new Error(`POST /api/contact answered ${response.status}`);
      sent.push({ started, ms: performance.now() - started });
    }
  }
  await Promise.all(Array.from({ length: VISITORS }, visitor));
  return sent;
}

function timed(command) {
  const started = performance.now();
  const output = execFileSync(process.execPath, [path.join(REPO_ROOT, 'api/dist/staff/cli/backup.js'), ...command], { env: { ...process.env, ...settings } }).toString();
  return { ms: performance.now() - started, output };
}

if (!args.includes('--no-build')) buildApi();
console.error(`… seeding ${LEADS} leads of the last year, each with a delivered notification`);
const now = Date.now();
const seeded = await seedLeads(settings.DATABASE_URL, { count: LEADS, from: new Date(now - 365 * 86_400_000), to: new Date(now - 86_400_000), withNotifications: true });
console.error(`… seeded in ${seeded.toFixed(1)} s (${(fs.statSync(databaseFile).size / 1024 / 1024).toFixed(0)} MB); starting the API, visitors send leads while it backs up`);
const { child, base, backups, drill, nextBackup } = await startApi();
let backup;
let during;
let between;
try {
  // After the start-up backup and its drill: visitors send through two scheduled backups and the quiet time around them.
  await drill;
  const firstTimed = backups.length;
  const sent = await sendUntil(base, nextBackup().then(() => nextBackup()));
  const timedBackups = backups.slice(firstTimed);
  backup = timedBackups.at(-1);
  const running = (each) => timedBackups.some((entry) => each.started + each.ms >= entry.loggedAt - entry.ms && each.started <= entry.loggedAt);
  during = summary(sent.filter(running).map((each) => each.ms));
  between = summary(sent.filter((each) => !running(each)).map((each) => each.ms));
} finally {
  await stop(child);
}

const restoreTarget = `sqlite:${path.join(scratch, 'restored.sqlite')}`;
const restore = timed(['restore', backup.id, '--to', restoreTarget]);
const verify = timed(['verify', backup.id]);
const results = [
  { what: 'backup (scheduled, in the API)', ms: backup.ms, mb: round(backup.bytes / 1024 / 1024), database_mb: round(fs.statSync(databaseFile).size / 1024 / 1024) },
  { what: 'restore into a fresh database', ms: Math.round(restore.ms), mb: '', database_mb: '' },
  { what: 'verify (restore drill)', ms: Math.round(verify.ms), mb: '', database_mb: '' },
];
console.table(results);
console.table([
  { when: 'while a backup runs', ...during },
  { when: 'with no backup running', ...between },
]);
const problems = [];
if (during.p99 > P99_GOAL_MS) problems.push(`a submission's p99 was ${during.p99} ms during the backup (goal ≤ ${P99_GOAL_MS} ms)`);
if (restore.ms > RESTORE_GOAL_MS) problems.push(`the restore took ${Math.round(restore.ms / 1000)} s (goal ≤ ${RESTORE_GOAL_MS / 1000} s)`);
console.log(problems.length === 0 ? `within both goals at ${LEADS} leads` : problems.join('; '));
process.exitCode = problems.length === 0 ? 0 : 1;
