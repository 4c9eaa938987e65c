import fsp from 'node:fs/promises';
import path from 'node:path';
import { unsealToFile } from '../backup-cipher';
import { BackupDamagedError, type BackupCatalog } from '../backup-catalog';
import type { BackupManifest } from '../backup-manifest';
import { parseBackupLabel } from './postgres-backup-label';
import { rewriteAutoConf } from './postgres-config-text';
import { RESTORE_WAL_DIR, unpackDataDir } from './postgres-data-dir-tar';
import { dateToPgTimestamp, pgTimestampToIso, WalTransactionScanner } from './postgres-wal-reader';
import { nextSegment, walFileKind, walNameOfKey, walObjectKey, walTimeline } from './postgres-wal-names';

/**
 * Restores a PostgreSQL base backup of the catalog into a data directory, with the archived WAL
 * it replays, ready for a server to start: it recovers to the target, then promotes itself (a new
 * timeline) and takes writes. Nothing is started here (postgres-scratch-cluster.ts starts one).
 *
 * Decisions:
 * - the WAL goes into RESTORE_WAL_DIR inside the data directory, and restore_command reads it
 *   with a path relative to it (the server runs in its data directory): the folder can be moved
 *   before the start, and it can be deleted once the server has promoted. Base backups leave it out.
 * - the restored server does not archive (archive_mode = off; the old archive_command is dropped):
 *   its old archive_command would copy the new timeline into the spool of the server it was
 *   copied from, which may still be running. Point it at a backup store before it serves.
 * - a restore to a time after the archive's last transaction would fail at the end of replay
 *   (PostgreSQL 13+: "recovery ended before configured recovery target was reached"); the WAL is
 *   read first, and when no transaction in it ended after that time the target is left out:
 *   replaying everything gives exactly the data as of that time. The result says so.
 * - a segment missing from the archive is refused when the target needs WAL beyond it: replay
 *   would otherwise stop there quietly and promote with less than asked for.
 */

/** Which backup, and how far to replay. */
export type PostgresRestoreTarget =
  /** That backup; by default only to its consistent point ('immediate'), or through all archived WAL ('end'). */
  | { backupId: string; replay?: 'immediate' | 'end' }
  /** The newest backup taken at or before `time`, replayed up to `time`. */
  | { time: Date }
  /** The newest backup, replayed through all archived WAL. */
  | { latest: true };

export interface PostgresRestoreOptions {
  catalog: BackupCatalog;
  /** The age identity (`AGE-SECRET-KEY-1…`) the backups are sealed to. */
  identity: string;
  target: PostgresRestoreTarget;
  /** The new data directory: created, or empty; mode 0700. */
  dataDir: string;
  /** Empties a non-empty `dataDir` first (never one with a postmaster.pid: a server may run on it). */
  force?: boolean;
}

export type PostgresRecoveryTarget =
  | { kind: 'immediate' }
  | { kind: 'time'; time: string }
  /** Every archived transaction; `requestedTime` when a time was asked for and the archive ends before it. */
  | { kind: 'end'; requestedTime?: string; reason: string };

export interface PostgresRestoreResult {
  backup: BackupManifest;
  dataDir: string;
  /** Where the WAL went, and what: segment and timeline history names, in order. */
  walDir: string;
  walFiles: string[];
  recovery: PostgresRecoveryTarget;
  /** When the latest transaction in the restored WAL ended (µs, UTC), when WAL beyond the backup was read. */
  lastTransactionInWal?: string;
  /** The database and role the backup was taken through (from its label), for checks after the start. */
  database?: string;
  user?: string;
  /** What the operator should know: archiving is off, what to delete after the start. */
  notes: string[];
}

/** The data directory holds something: a restore would mix two clusters. */
export class RestoreTargetNotEmptyError extends Error {
  constructor(readonly dataDir: string) {
    super(`${dataDir} is not empty: restore into an empty folder, or pass force to empty it first`);
  }
}

/** Settings a restore rewrites; every earlier line setting them goes (last restore's targets, archiving). */
const RESTORE_SETTINGS = /^(restore_command|recovery_target.*|archive_mode|archive_command|archive_library)$/;

/** Restores a backup into `dataDir` and sets up recovery; see above. */
export async function restorePostgresCluster(options: PostgresRestoreOptions): Promise<PostgresRestoreResult> {
  const { catalog, identity, target } = options;
  const backup = await chooseBackup(catalog, target);
  const dataDir = path.resolve(options.dataDir);
  await prepareDataDir(dataDir, options.force ?? false);
  try {
    return await restoreInto(dataDir, catalog, identity, backup, target);
  } catch (error) {
    // Half a restore is no cluster: the folder was empty (or emptied) before.
    for (const entry of await fsp.readdir(dataDir).catch(() => [])) await fsp.rm(path.join(dataDir, entry), { recursive: true, force: true });
    throw error;
  }
}

async function restoreInto(dataDir: string, catalog: BackupCatalog, identity: string, backup: BackupManifest, target: PostgresRestoreTarget): Promise<PostgresRestoreResult> {
  // Checked first, as it is cheap: the data object's size and SHA-256.
  const sealed = await catalog.data(backup);

  // The WAL next, before the long unpacking: a missing or damaged segment fails the restore early.
  const walDir = path.join(dataDir, RESTORE_WAL_DIR);
  await fsp.mkdir(walDir, { mode: 0o700 });
  const requestedTime = 'time' in target ? target.time : undefined;
  const toImmediate = 'backupId' in target && (target.replay ?? 'immediate') === 'immediate';
  const wal = await restoreWal(catalog, identity, backup, walDir, toImmediate ? 'to-stop' : 'all', requestedTime);

  const tarFile = path.join(dataDir, '.restore-base.tar');
  const unsealed = await unsealToFile(sealed, tarFile, identity).catch((error: Error) => {
    throw new BackupDamagedError(backup.id, `its data cannot be opened with this key (${error.message})`);
  });
  if (unsealed.plainSha256 !== backup.plainSha256) throw new BackupDamagedError(backup.id, 'its data does not match the SHA-256 of its manifest once opened');
  const { names } = await unpackDataDir(tarFile, dataDir);
  await fsp.rm(tarFile, { force: true });
  if (!names.has('backup_label')) throw new BackupDamagedError(backup.id, 'it holds no backup_label');
  const label = parseBackupLabel(await fsp.readFile(path.join(dataDir, 'backup_label'), 'utf8'));
  await fsp.mkdir(path.join(dataDir, 'pg_wal', 'archive_status'), { recursive: true, mode: 0o700 });

  const recovery = recoveryTarget(toImmediate, requestedTime, wal);
  const settings: Record<string, string> = { restore_command: `cp "${RESTORE_WAL_DIR}/%f" "%p"` };
  if (recovery.kind === 'immediate') settings.recovery_target = 'immediate';
  // PostgreSQL's own timestamp syntax: the check of recovery_target_time refuses ISO 8601's `T…Z`.
  if (recovery.kind === 'time') settings.recovery_target_time = recovery.time.replace('T', ' ').replace('Z', '+00');
  settings.recovery_target_action = 'promote';
  settings.archive_mode = 'off';
  await rewriteAutoConf(dataDir, (name) => RESTORE_SETTINGS.test(name), `Restore of backup ${backup.id}: recovery from ${RESTORE_WAL_DIR}/, then promotion; archiving off until this server is pointed at a backup store.`, settings);
  await fsp.writeFile(path.join(dataDir, 'recovery.signal'), '', { mode: 0o600 });
  await fsp.rm(path.join(dataDir, 'standby.signal'), { force: true });
  await fsp.chmod(dataDir, 0o700);

  const notes = [
    'Archiving is off (archive_mode = off): set archive_mode and archive_command (walArchiveSettings) before this server takes writes worth keeping.',
    `${RESTORE_WAL_DIR}/ can be deleted once the server has promoted (pg_is_in_recovery() is false).`,
    ...(process.getuid?.() === 0 ? [`The files belong to root: give ${dataDir} to the user PostgreSQL runs as (chown -R) before starting it.`] : []),
    ...wal.notes,
  ];
  if (recovery.kind === 'end' && recovery.requestedTime) notes.push(recovery.reason);
  return {
    backup,
    dataDir,
    walDir,
    walFiles: wal.files,
    recovery,
    lastTransactionInWal: wal.lastTransaction === undefined ? undefined : pgTimestampToIso(wal.lastTransaction),
    database: label?.database,
    user: label?.user,
    notes,
  };
}

/** The backup `target` names: by id, the newest at or before a time, or the newest. */
async function chooseBackup(catalog: BackupCatalog, target: PostgresRestoreTarget): Promise<BackupManifest> {
  if ('backupId' in target) {
    const manifest = await catalog.manifest(target.backupId);
    if (!manifest) throw new Error(`there is no backup ${target.backupId} in ${catalog.store.location}`);
    if (manifest.kind !== 'postgres-base' || !manifest.postgres) throw new Error(`backup ${target.backupId} is not a PostgreSQL base backup (${manifest.kind})`);
    return manifest;
  }
  const backups = (await catalog.list()).filter((manifest) => manifest.kind === 'postgres-base' && manifest.postgres);
  if ('latest' in target) {
    const newest = backups[backups.length - 1];
    if (!newest) throw new Error(`there is no PostgreSQL base backup in ${catalog.store.location}`);
    return newest;
  }
  if (Number.isNaN(target.time.getTime())) throw new Error('the time to restore to is not a valid date');
  const time = target.time.toISOString();
  const before = backups.filter((manifest) => manifest.takenAt <= time);
  const chosen = before[before.length - 1];
  if (!chosen) {
    const oldest = backups[0];
    throw new Error(`no PostgreSQL base backup was taken at or before ${time}${oldest ? `: the oldest is from ${oldest.takenAt}` : ''}`);
  }
  return chosen;
}

async function prepareDataDir(dataDir: string, force: boolean): Promise<void> {
  const entries = await fsp.readdir(dataDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (entries === undefined) {
    await fsp.mkdir(dataDir, { recursive: true, mode: 0o700 });
    return;
  }
  if (entries.length > 0) {
    if (!force) throw new RestoreTargetNotEmptyError(dataDir);
    if (entries.includes('postmaster.pid')) {
      throw new Error(`${dataDir} has a postmaster.pid: a server may be running on it. Stop it (and delete the file if none runs) before restoring over it`);
    }
    for (const entry of entries) await fsp.rm(path.join(dataDir, entry), { recursive: true, force: true });
  }
  await fsp.chmod(dataDir, 0o700);
}

interface RestoredWal {
  files: string[];
  lastTransaction?: bigint;
  /** Why the WAL's transaction times could not be read (then a target time is kept as asked). */
  unreadable?: string;
  /** The first segment found missing, when WAL after it exists in the store (a gap). */
  gap?: { missing: string; after: string };
  notes: string[];
}

/**
 * Downloads and opens the WAL a restore of `backup` replays: from its first segment to its last
 * ('to-stop'), or on through everything archived after it ('all'), with every timeline history
 * file. Segments of later timelines come along (recovery follows the newest timeline, as
 * PostgreSQL does by default). Reads transaction end times when WAL beyond the backup is wanted.
 */
async function restoreWal(
  catalog: BackupCatalog,
  identity: string,
  backup: BackupManifest,
  walDir: string,
  reach: 'to-stop' | 'all',
  requestedTime: Date | undefined,
): Promise<RestoredWal> {
  const { startWal, stopWal } = backup.postgres as NonNullable<BackupManifest['postgres']>;
  const timeline = walTimeline(startWal);
  const names = (await catalog.store.list('wal/')).map(walNameOfKey).filter((name): name is string => name !== undefined);
  // Every timeline's history (a few bytes each): recovery reads them to follow timelines.
  const history = names.filter((name) => walFileKind(name) === 'history');
  const segments = names.filter(
    (name) =>
      walFileKind(name) === 'segment' &&
      ((walTimeline(name) === timeline && name >= startWal && (reach === 'all' || name <= stopWal)) ||
        (reach === 'all' && walTimeline(name) > timeline && name.slice(8) >= startWal.slice(8))),
  );
  const result: RestoredWal = { files: [], notes: [] };
  let scanner = reach === 'all' ? new WalTransactionScanner() : undefined;
  for (const name of history) await download(catalog, identity, backup, name, walDir, result);

  // Segments must follow one another on each timeline: the first gap ends what replay can reach.
  // The segment size is in every segment's first page header.
  let segmentSize = 0;
  let previous: string | undefined;
  const downloaded = new Set<string>();
  for (const name of segments) {
    const expected = previous === undefined ? startWal : walTimeline(previous) === walTimeline(name) ? nextSegment(previous, segmentSize) : name;
    if (name !== expected) {
      result.gap = { missing: expected, after: previous ?? '(none)' };
      break;
    }
    const bytes = await fsp.readFile(await download(catalog, identity, backup, name, walDir, result));
    segmentSize ||= bytes.length >= 40 ? bytes.readUInt32LE(32) : 0;
    if (!segmentSize) throw new BackupDamagedError(backup.id, `WAL segment ${name} has no segment header`);
    try {
      scanner?.add(name, bytes);
    } catch (error) {
      // PostgreSQL reads the WAL all the same; only the end-of-archive check is lost.
      result.unreadable = `WAL segment ${name} could not be read for its transaction times (${(error as Error).message})`;
      result.notes.push(`${result.unreadable}: if the archive ends before the target time, PostgreSQL stops at the end of replay; restore with { latest: true } then.`);
      scanner = undefined;
    }
    downloaded.add(name);
    previous = name;
  }

  // What the backup itself needs, its first segment to its last, must all be there.
  for (let name = startWal; ; name = nextSegment(name, segmentSize)) {
    if (!downloaded.has(name)) throw new BackupDamagedError(backup.id, `WAL segment ${name} is missing from the store: the backup needs ${startWal} to ${stopWal}`);
    if (name === stopWal || !segmentSize) break;
  }
  result.lastTransaction = scanner?.latestTransactionEnd;
  if (result.gap) {
    // Replay would stop at the gap and promote: fine only when the target time comes before it.
    const reached = result.lastTransaction;
    if (requestedTime === undefined || reached === undefined || reached <= dateToPgTimestamp(requestedTime)) {
      throw new BackupDamagedError(
        backup.id,
        `WAL segment ${result.gap.missing} is missing from the store, and the archive goes on after it: replay would stop after ${result.gap.after}` +
          (reached !== undefined ? `, whose latest transaction ended at ${pgTimestampToIso(reached)}` : '') +
          '. Restore to a time before that, or to the backup itself (replay: immediate)',
      );
    }
    result.notes.push(`WAL segment ${result.gap.missing} is missing from the store; the target time is reached before it.`);
  }
  return result;
}

async function download(catalog: BackupCatalog, identity: string, backup: BackupManifest, name: string, walDir: string, result: RestoredWal): Promise<string> {
  const bytes = await catalog.store.get(walObjectKey(name));
  if (!bytes) throw new BackupDamagedError(backup.id, `WAL file ${name} vanished from the store during the restore`);
  const file = path.join(walDir, name);
  await unsealToFile(bytes, file, identity).catch(async (error: Error) => {
    await fsp.rm(file, { force: true });
    throw new BackupDamagedError(backup.id, `WAL file ${name} cannot be opened (${error.message}): it was changed, cut short or sealed to another key`);
  });
  result.files.push(name);
  return file;
}

/** What recovery is told; see the decisions at the top. */
function recoveryTarget(toImmediate: boolean, requestedTime: Date | undefined, wal: RestoredWal): PostgresRecoveryTarget {
  if (toImmediate) return { kind: 'immediate' };
  if (!requestedTime) return { kind: 'end', reason: 'every archived transaction is replayed' };
  const time = requestedTime.toISOString();
  const last = wal.lastTransaction;
  if (wal.unreadable) return { kind: 'time', time };
  if (last === undefined || last <= dateToPgTimestamp(requestedTime)) {
    const ends = last === undefined ? 'holds no transaction after the backup' : `ends with a transaction at ${pgTimestampToIso(last)}`;
    return {
      kind: 'end',
      requestedTime: time,
      reason: `The archive ${ends}, before ${time}: recovery replays all of it (a target past the last transaction would stop PostgreSQL with "recovery ended before configured recovery target was reached"); the data is the same as at ${time}.`,
    };
  }
  return { kind: 'time', time };
}
