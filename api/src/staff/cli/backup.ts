import fs from 'node:fs/promises';
import { loadConfig, type AppConfig } from '../../platform/config';
import { backupRecipient, generateBackupKey } from '../../platform/backup/backup-cipher';
import type { BackupManifest } from '../../platform/backup/backup-manifest';
import { BackupService } from '../../platform/backup/backup-service';
import { erasuresSince } from '../../platform/backup/erasure-journal';
import { runBackupAgent } from '../../platform/backup/postgres/backup-agent';
import { takePostgresBaseBackup } from '../../platform/backup/postgres/postgres-base-backup';
import { restorePostgresCluster, RestoreTargetNotEmptyError } from '../../platform/backup/postgres/postgres-restore';
import { startScratchCluster } from '../../platform/backup/postgres/postgres-scratch-cluster';
import { verifyPostgresBackup } from '../../platform/backup/postgres/postgres-verify';
import { restoreSqliteBackup, RestoreRefusedError } from '../../platform/backup/sqlite-backup';
import { ARG_MESSAGES, parseCliArgs, UsageError } from '../../platform/cli/parse-cli-args';
import { CommandFailure, runAsCommand } from '../../platform/cli/run-command';
import { createDatabase } from '../../platform/db/connection';
import { migrateToLatest } from '../../platform/db/migrate';
import { replayErasures } from '../data-requests/erasure-replay';

/**
 * The database's backups from the server's shell (in BACKUP_STORE, sealed with BACKUP_KEY):
 *   npm run backup -- key                          a new key to set as BACKUP_KEY (printed once)
 *   npm run backup -- now                          a SQLite snapshot now
 *   npm run backup -- list [--format json]         every backup, oldest first, and whether a drill proved it
 *   npm run backup -- verify [<id>]                a restore drill of one backup (the newest by default)
 *   npm run backup -- restore <id> | --time <ISO time> [--to <DATABASE_URL> | --data-dir <dir>] [--force]
 *   npm run backup -- agent                        PostgreSQL's sidecar: WAL shipped, base backups, drills, retention
 * A restore writes over the database at --to (DATABASE_URL by default) only when it holds no data
 * or with --force, then erases again everyone erased after the backup was taken. Run it with the
 * site stopped. A PostgreSQL cluster is restored into an empty data directory (--data-dir), replayed
 * to the time asked for by a scratch server, and left stopped for the database's own server to start.
 * Exit codes: 0 done (or --help), 1 failed, 2 bad usage.
 */
const USAGE = [
  'Usage: npm run backup -- key                      print a new backup key (set it as BACKUP_KEY)',
  '       npm run backup -- now                      take a SQLite snapshot now',
  '       npm run backup -- list [--format json]     every backup, oldest first',
  '       npm run backup -- verify [<id>]            restore a backup (the newest) into a scratch database and check it',
  '       npm run backup -- restore <id> | --time <ISO time> [--to <DATABASE_URL> | --data-dir <dir>] [--force]',
  '                                                  restore (to --time: the newest backup by then) with the site stopped;',
  '                                                  PostgreSQL: into an empty data directory, replayed to --time',
  '       npm run backup -- agent                    PostgreSQL: ship WAL, take base backups, run drills (a sidecar)',
  '       npm run backup -- --help',
].join('\n');

const OPTIONS = { format: { type: 'string' }, time: { type: 'string' }, to: { type: 'string' }, 'data-dir': { type: 'string' }, force: { type: 'boolean' } } as const;

const COMMAND_OPTIONS = { key: [], now: [], list: ['format'], verify: [], restore: ['time', 'to', 'data-dir', 'force'], agent: [] } as const;

type BackupCommand =
  | { command: 'key' }
  | { command: 'now' }
  | { command: 'agent' }
  | { command: 'list'; format: 'text' | 'json' }
  | { command: 'verify'; id?: string }
  | { command: 'restore'; id?: string; time?: Date; to?: string; dataDir?: string; force: boolean };

export function parseBackupArgs(argv: readonly string[]): BackupCommand {
  const { values, positionals } = parseCliArgs(argv, OPTIONS, ARG_MESSAGES.en, 2);
  const [command, argument] = positionals;
  const commands = Object.keys(COMMAND_OPTIONS).join(', ');
  if (command === undefined) throw new UsageError(`Name a command: ${commands}`);
  if (!(command in COMMAND_OPTIONS)) throw new UsageError(`Unknown command ${JSON.stringify(command)}: ${commands}`);
  const allowed: readonly string[] = COMMAND_OPTIONS[command as keyof typeof COMMAND_OPTIONS];
  for (const [name, value] of Object.entries(values)) if (value !== undefined && !allowed.includes(name)) throw new UsageError(`--${name} does not go with ${command}`);
  if (command === 'verify') return { command, id: argument };
  if (command === 'restore') {
    if ((argument === undefined) === (values.time === undefined)) throw new UsageError('Name the backup to restore: its id, or --time <ISO time> for the newest taken by then');
    const time = values.time === undefined ? undefined : new Date(values.time);
    if (time && (Number.isNaN(time.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(values.time ?? ''))) throw new UsageError(`--time needs an ISO time such as 2026-11-30T09:15:00Z, not ${JSON.stringify(values.time)}`);
    if (values.to !== undefined && values['data-dir'] !== undefined) throw new UsageError('--to names a SQLite database, --data-dir a PostgreSQL data directory: one of them');
    return { command, id: argument, time, to: values.to, dataDir: values['data-dir'], force: values.force === true };
  }
  if (argument !== undefined) throw new UsageError(ARG_MESSAGES.en.unexpected([argument]));
  if (command === 'list') {
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError(`Unknown format ${JSON.stringify(format)}: text or json`);
    return { command, format };
  }
  return command === 'key' ? { command } : command === 'agent' ? { command } : { command: 'now' };
}


const quietLog = { info: () => undefined, warn: (object: object, message: string) => process.stderr.write(`${message}\n`) };

async function openService(config: AppConfig): Promise<BackupService> {
  const log = quietLog as unknown as Parameters<typeof BackupService.open>[0]['log'];
  const service = BackupService.open({ config: config.backup, databaseUrl: config.databaseUrl, log });
  if (!service) throw new CommandFailure('Backups are off (BACKUP_STORE=off)');
  return service;
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function line(backup: BackupManifest, verifiedAt: string | undefined): string {
  return `${backup.id}  ${backup.takenAt}  ${backup.kind}  ${backup.reason.padEnd(8)}  ${megabytes(backup.bytes).padStart(9)}  ${verifiedAt ? `verified ${verifiedAt}` : 'not verified'}`;
}

export async function run(argv: readonly string[], env: Record<string, string | undefined> = process.env): Promise<string> {
  const command = parseBackupArgs(argv);
  if (command.command === 'key') {
    const identity = await generateBackupKey();
    return `${identity}\n# recipient (public): ${await backupRecipient(identity)}\n# Keep the key in a password manager or secret store, away from the backups.\n`;
  }
  const config = loadConfig(env);
  const service = await openService(config);
  if (command.command === 'agent') return agent(service, config);
  if (command.command === 'now') {
    const manifest = config.backup.postgres ? await postgresBaseBackup(service, config) : await service.backupNow('manual');
    return `Backup ${manifest.id} taken: ${megabytes(manifest.bytes)} in ${service.catalog.store.location}\n`;
  }
  if (command.command === 'list') {
    const backups = await service.catalog.list((id, problem) => process.stderr.write(`${id}: ${problem}\n`));
    const verified = await service.catalog.verifiedTimes();
    if (command.format === 'json') return `${JSON.stringify(backups.map((backup) => ({ ...backup, verifiedAt: verified.get(backup.id) ?? null })), null, 2)}\n`;
    return backups.length === 0 ? `No backups in ${service.catalog.store.location}\n` : `${backups.map((backup) => line(backup, verified.get(backup.id))).join('\n')}\n`;
  }
  if (command.command === 'verify') {
    if (!service.sqliteFile) return verifyPostgres(service, command.id);
    const { manifest, checked } = await service.verify(command.id);
    const rows = checked.products.map(({ product, rows }) => `${product} ${rows}`).join(', ');
    return `Backup ${manifest.id} restored into a scratch database and checked: integrity ${checked.integrity}, rows as its manifest counted (${rows})\n`;
  }
  if (command.dataDir !== undefined) return restorePostgres(service, command, command.dataDir);
  return restore(service, command, command.to ?? config.databaseUrl);
}

/** A log line per event, as JSON on stdout: the agent's container log. */
const agentLog = {
  info: (fields: object, msg: string) => process.stdout.write(`${JSON.stringify({ level: 'info', time: new Date().toISOString(), msg, ...fields })}\n`),
  error: (fields: object, msg: string) => process.stdout.write(`${JSON.stringify({ level: 'error', time: new Date().toISOString(), msg, ...fields })}\n`),
};

function postgresSettings(config: AppConfig): NonNullable<AppConfig['backup']['postgres']> {
  if (config.databaseUrl.startsWith('sqlite:')) throw new CommandFailure('The agent backs up PostgreSQL; a SQLite site backs itself up');
  if (!config.backup.postgres) throw new CommandFailure("Set BACKUP_PG_DATA_DIR (or PGDATA) to the server's data directory");
  return config.backup.postgres;
}

async function postgresBaseBackup(service: BackupService, config: AppConfig): Promise<BackupManifest> {
  const { dataDir, spoolDir } = postgresSettings(config);
  const { identity, recipient } = await service.keys();
  const db = createDatabase(config.databaseUrl, { poolSize: 3 });
  try {
    return await takePostgresBaseBackup({ catalog: service.catalog, recipient, identity, kysely: db.kysely, dataDir, spoolDir, reason: 'manual' });
  } finally {
    await db.destroy();
  }
}

async function agent(service: BackupService, config: AppConfig): Promise<string> {
  const { dataDir, spoolDir } = postgresSettings(config);
  // Three: a base backup's session, and its end's lock and count sessions.
  const db = createDatabase(config.databaseUrl, { poolSize: 3 });
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
  agentLog.info({ store: service.catalog.store.location, dataDir, spoolDir }, 'backups: the agent started');
  try {
    await runBackupAgent({ service, db, dataDir, spoolDir, intervalMs: config.backup.intervalMs, verifyIntervalMs: config.backup.verifyIntervalMs, log: agentLog }, stop.signal);
  } finally {
    await db.destroy();
  }
  return 'The backup agent stopped\n';
}

async function verifyPostgres(service: BackupService, id: string | undefined): Promise<string> {
  const manifest = id ? await service.catalog.manifest(id) : (await service.catalog.list()).at(-1);
  if (!manifest) throw new CommandFailure(id ? `There is no backup ${id}` : 'There is no backup to verify yet');
  const report = await verifyPostgresBackup({ catalog: service.catalog, identity: (await service.keys()).identity, backupId: manifest.id });
  await service.catalog.markVerified(manifest.id, new Date(), { products: Object.entries(report.products).map(([product, rows]) => ({ product, rows })) });
  return `Backup ${manifest.id} restored into a scratch server and checked: ${report.tables} tables, ${report.rows} rows as its manifest counted, ${report.walFiles} WAL files replayed\n`;
}

async function restorePostgres(service: BackupService, command: Extract<BackupCommand, { command: 'restore' }>, dataDir: string): Promise<string> {
  const { identity } = await service.keys();
  const target = command.time ? { time: command.time } : { backupId: command.id as string, replay: 'immediate' as const };
  let restored;
  try {
    restored = await restorePostgresCluster({ catalog: service.catalog, identity, target, dataDir, force: command.force });
  } catch (error) {
    if (error instanceof RestoreTargetNotEmptyError) throw new CommandFailure(error.message);
    throw error;
  }
  // Read before the server replays: a journal that cannot be read stops the restore here.
  const erasures = await erasuresSince(service.catalog, restored.backup.takenAt);
  // Recovery runs now, on a scratch server: the data directory is left promoted and stopped.
  const scratch = await startScratchCluster({ dataDir, user: restored.user });
  let erased: number;
  try {
    const db = createDatabase(scratch.url(restored.database, restored.user), { poolSize: 1 });
    try {
      await migrateToLatest(db);
      erased = await replayErasures(db, erasures);
    } finally {
      await db.destroy();
    }
  } finally {
    await scratch.stop();
  }
  // The scratch server promoted: the WAL it replayed is no longer needed, and would only fill the disk.
  await fs.rm(restored.walDir, { recursive: true, force: true });
  const recovery = restored.recovery.kind === 'time' ? `replayed to ${restored.recovery.time}` : restored.recovery.kind === 'end' ? `replayed through every archived change (${restored.recovery.reason})` : 'at the backup\'s own moment';
  // Its WAL folder is gone already (above).
  const notes = restored.notes.filter((note) => !note.startsWith('restore-wal/'));
  return [`Restored base backup ${restored.backup.id} into ${dataDir}, ${recovery}; ${restored.walFiles.length} WAL files; people erased since then, erased again: ${erased}`, ...notes, ''].join('\n');
}

async function restore(service: BackupService, command: Extract<BackupCommand, { command: 'restore' }>, target: string): Promise<string> {
  const backups = await service.catalog.list();
  const manifest = command.id ? await service.catalog.manifest(command.id) : [...backups].reverse().find((backup) => Date.parse(backup.takenAt) <= (command.time as Date).getTime());
  if (!manifest) throw new CommandFailure(command.id ? `There is no backup ${command.id}` : `No backup was taken by ${command.time?.toISOString()}`);
  if (!target.startsWith('sqlite:') || target === 'sqlite::memory:') throw new CommandFailure('A PostgreSQL cluster is restored into an empty data directory: add --data-dir <dir> (docs/operations.md, "Backups and restore")');
  // Read before the database changes: a journal that cannot be read stops the restore here.
  const erasures = await erasuresSince(service.catalog, manifest.takenAt);
  try {
    await restoreSqliteBackup(service.catalog, manifest, (await service.keys()).identity, target.slice('sqlite:'.length), { force: command.force });
  } catch (error) {
    if (error instanceof RestoreRefusedError) throw new CommandFailure(error.message);
    throw error;
  }
  const db = createDatabase(target, { poolSize: 1 });
  let erased: number;
  try {
    await migrateToLatest(db);
    erased = await replayErasures(db, erasures);
  } finally {
    await db.destroy();
  }
  const lost = command.time ? ` (${Math.round((command.time.getTime() - Date.parse(manifest.takenAt)) / 1000)} s before the time asked for)` : '';
  return `Restored backup ${manifest.id} taken ${manifest.takenAt}${lost} into ${target}; people erased since then, erased again: ${erased}\n`;
}

if (require.main === module) runAsCommand(run, USAGE, 'Failed');
