import { loadConfig, type AppConfig } from '../../platform/config';
import { backupRecipient, generateBackupKey } from '../../platform/backup/backup-cipher';
import type { BackupManifest } from '../../platform/backup/backup-manifest';
import { BackupService } from '../../platform/backup/backup-service';
import { erasuresSince } from '../../platform/backup/erasure-journal';
import { restoreSqliteBackup, RestoreRefusedError } from '../../platform/backup/sqlite-backup';
import { ARG_MESSAGES, parseCliArgs, reportUsage, UsageError } from '../../platform/cli/parse-cli-args';
import { inertOutput } from '../../platform/cli/terminal-text';
import { createDatabase } from '../../platform/db/connection';
import { migrateToLatest } from '../../platform/db/migrate';
import { replayErasures } from '../data-requests/erasure-replay';

/**
 * The database's backups from the server's shell (in BACKUP_STORE, sealed with BACKUP_KEY):
 *   npm run backup -- key                          a new key to set as BACKUP_KEY (printed once)
 *   npm run backup -- now                          a SQLite snapshot now
 *   npm run backup -- list [--format json]         every backup, oldest first, and whether a drill proved it
 *   npm run backup -- verify [<id>]                a restore drill of one backup (the newest by default)
 *   npm run backup -- restore <id> | --time <ISO time> [--to <DATABASE_URL>] [--force]
 * A restore writes over the database at --to (DATABASE_URL by default) only when it holds no data
 * or with --force, then erases again everyone erased after the backup was taken. Run it with the
 * site stopped. Exit codes: 0 done (or --help), 1 failed, 2 bad usage.
 */
const USAGE = [
  'Usage: npm run backup -- key                      print a new backup key (set it as BACKUP_KEY)',
  '       npm run backup -- now                      take a SQLite snapshot now',
  '       npm run backup -- list [--format json]     every backup, oldest first',
  '       npm run backup -- verify [<id>]            restore a backup (the newest) into a scratch database and check it',
  '       npm run backup -- restore <id> | --time <ISO time> [--to <DATABASE_URL>] [--force]',
  '                                                  restore (the newest backup at or before --time) with the site stopped',
  '       npm run backup -- --help',
].join('\n');

const OPTIONS = { format: { type: 'string' }, time: { type: 'string' }, to: { type: 'string' }, force: { type: 'boolean' } } as const;

const COMMAND_OPTIONS = { key: [], now: [], list: ['format'], verify: [], restore: ['time', 'to', 'force'] } as const;

type BackupCommand =
  | { command: 'key' }
  | { command: 'now' }
  | { command: 'list'; format: 'text' | 'json' }
  | { command: 'verify'; id?: string }
  | { command: 'restore'; id?: string; time?: Date; to?: string; force: boolean };

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
    return { command, id: argument, time, to: values.to, force: values.force === true };
  }
  if (argument !== undefined) throw new UsageError(ARG_MESSAGES.en.unexpected([argument]));
  if (command === 'list') {
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError(`Unknown format ${JSON.stringify(format)}: text or json`);
    return { command, format };
  }
  return command === 'key' ? { command } : { command: 'now' };
}

/** The command was understood but cannot be done; said without the usage text. */
export class CommandFailure extends Error {}

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
  if (command.command === 'now') {
    const manifest = await service.backupNow('manual');
    return `Backup ${manifest.id} taken: ${megabytes(manifest.bytes)} in ${service.catalog.store.location}\n`;
  }
  if (command.command === 'list') {
    const backups = await service.catalog.list((id, problem) => process.stderr.write(`${id}: ${problem}\n`));
    const verified = await service.catalog.verifiedTimes();
    if (command.format === 'json') return `${JSON.stringify(backups.map((backup) => ({ ...backup, verifiedAt: verified.get(backup.id) ?? null })), null, 2)}\n`;
    return backups.length === 0 ? `No backups in ${service.catalog.store.location}\n` : `${backups.map((backup) => line(backup, verified.get(backup.id))).join('\n')}\n`;
  }
  if (command.command === 'verify') {
    const { manifest, checked } = await service.verify(command.id);
    const rows = checked.products.map(({ product, rows }) => `${product} ${rows}`).join(', ');
    return `Backup ${manifest.id} restored into a scratch database and checked: integrity ${checked.integrity}, rows as its manifest counted (${rows})\n`;
  }
  return restore(service, command, command.to ?? config.databaseUrl);
}

async function restore(service: BackupService, command: Extract<BackupCommand, { command: 'restore' }>, target: string): Promise<string> {
  const backups = await service.catalog.list();
  const manifest = command.id ? await service.catalog.manifest(command.id) : [...backups].reverse().find((backup) => Date.parse(backup.takenAt) <= (command.time as Date).getTime());
  if (!manifest) throw new CommandFailure(command.id ? `There is no backup ${command.id}` : `No backup was taken by ${command.time?.toISOString()}`);
  if (!target.startsWith('sqlite:') || target === 'sqlite::memory:') throw new CommandFailure('A PostgreSQL database is restored by the backup agent into a data directory: see docs/operations.md, "Backups and restore"');
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

if (require.main === module) {
  run(process.argv.slice(2)).then(
    (output) => process.stdout.write(inertOutput(output)),
    (error: unknown) => {
      const usageCode = reportUsage(error, USAGE);
      if (usageCode !== undefined) process.exitCode = usageCode;
      else {
        process.stderr.write(inertOutput(`${error instanceof CommandFailure ? error.message : `Failed: ${error instanceof Error ? error.message : String(error)}`}\n`));
        process.exitCode = 1;
      }
    },
  );
}
