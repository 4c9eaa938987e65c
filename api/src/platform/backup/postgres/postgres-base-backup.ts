import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import * as tar from 'tar-stream';
import { sealFile, type SealedFile } from '../backup-cipher';
import { BackupCatalog } from '../backup-catalog';
import { newBackupId, type BackupManifest } from '../backup-manifest';
import { latestMigration, tableRowCounts } from '../table-row-counts';
import type { DatabaseSchema } from '../../db/schema';
import { backupLabel } from './postgres-backup-label';
import { addSmallFile, packDataDir } from './postgres-data-dir-tar';
import { shipWal } from './postgres-wal-archive';
import { nextSegment, walNameOfKey, walObjectKey } from './postgres-wal-names';

/**
 * A PostgreSQL base backup through the low-level API (PostgreSQL 15+), as the site's own code can
 * take it with no pg_basebackup of the server's version at hand (docs/NOTES: verified on 18):
 * on one session `pg_backup_start`, a tar of the data directory, `pg_backup_stop`, the label it
 * returns added to the tar as `backup_label` (last, so the tar is written in one pass), the tar
 * gzipped and sealed to the backup key, and the manifest stored last, once the WAL from the
 * backup's first segment to its last is in the store: a listed backup is always restorable.
 *
 * The row counts of the manifest are exact for what a restore to 'immediate' gives: that restore
 * ends at the backup's end record (where the copy becomes consistent), which pg_backup_stop
 * writes; the counts come from a snapshot taken with it while no write to a counted table can
 * commit (stopAfterCount). Counting at the start would differ by whatever was written during the copy. takenAt is the server's clock
 * right after pg_backup_stop: a restore to that time or later reaches the consistent point.
 */

export interface PostgresBaseBackupOptions {
  catalog: BackupCatalog;
  /** The age recipient (`age1…`) the backup and WAL are sealed to. */
  recipient: string;
  /** The site's database; one of its connections is held for the whole backup, two more for its end (a pool of three or more). */
  kysely: Kysely<DatabaseSchema>;
  /**
   * The server's data directory as this process sees it, readable by it (run as the server's
   * user, or initdb --allow-group-access and its group). Checked against the server's pg_control.
   */
  dataDir: string;
  /** The folder the server's archive_command copies WAL into (postgres-wal-archive.ts). */
  spoolDir: string;
  reason: BackupManifest['reason'];
  /** The clock for the backup's id and duration; the server's clock sets takenAt. */
  now?: () => Date;
  /** Where the tar and the sealed file are written first (os.tmpdir() by default). */
  workDir?: string;
  /** How long to wait for the server to archive the backup's last segment (2 min by default). */
  archiveWaitMs?: number;
  /** Passed to shipWal, to compare a WAL file stored already by content. */
  identity?: string;
}

/** How long the SHARE locks for the count are waited for before trying again (see above). */
const LOCK_TIMEOUT = '50ms';
const LOCK_ATTEMPTS = 200;
const LOCK_RETRY_MS = 20;

interface StopPoint {
  rowCounts: Record<string, number>;
  migration: string;
  labelFile: string;
  stopWal: string;
  takenAt: string;
}

/** Takes a base backup of the server behind `kysely` into the catalog; its manifest. */
export async function takePostgresBaseBackup(options: PostgresBaseBackupOptions): Promise<BackupManifest> {
  const now = options.now ?? (() => new Date());
  const started = now();
  const id = newBackupId(started);
  const work = await fsp.mkdtemp(path.join(options.workDir ?? os.tmpdir(), 'agency-pg-backup-'));
  try {
    return await options.kysely.connection().execute(async (connection) => {
      // Only raw SQL and tableRowCounts (which reads any schema) run on it.
      const session = connection as unknown as Kysely<unknown>;
      const server = await checkServer(session, options.dataDir);
      const label = backupLabel({ backupId: id, database: server.database, user: server.user });
      const { rows } = await sql<{ wal: string }>`select pg_walfile_name(b.lsn) as wal from pg_backup_start(${label}, true) as b(lsn)`.execute(session);
      const startWal = (rows[0] as { wal: string }).wal;
      const tarFile = path.join(work, 'data.tar');
      let stop: StopPoint | undefined;
      try {
        await writeTar(tarFile, async (pack) => {
          await packDataDir(options.dataDir, pack);
          stop = await stopAfterCount(session, options.kysely);
          await addSmallFile(pack, 'backup_label', stop.labelFile, new Date(stop.takenAt));
        });
      } catch (error) {
        // A backup left running would make this pooled session refuse the next one.
        if (!stop) await sql`select pg_backup_stop(false)`.execute(session).catch(() => undefined);
        throw error;
      }
      const point = stop as StopPoint;
      const sealedFile = path.join(work, 'data.age');
      const [sealed] = await Promise.all([
        sealFile(tarFile, sealedFile, options.recipient),
        waitForWal(options, startWal, point.stopWal, server.walSegmentSize),
      ]);
      await fsp.rm(tarFile, { force: true });
      const manifest = manifestOf(id, options.reason, sealed, point, startWal, server.version, now().getTime() - started.getTime());
      await options.catalog.add(manifest, sealedFile);
      return manifest;
    });
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}

interface ServerFacts {
  database: string;
  user: string;
  version: number;
  walSegmentSize: number;
}

/** Refuses a server that does not archive WAL, or whose data directory is not `dataDir`. */
async function checkServer(session: Kysely<unknown>, dataDir: string): Promise<ServerFacts> {
  const { rows } = await sql<{ database: string; user: string; version: number; archive_mode: string; segment_size: number; system_id: string }>`
    select current_database() as database, current_user as user,
      current_setting('server_version_num')::int as version, current_setting('archive_mode') as archive_mode,
      (select setting::int from pg_settings where name = 'wal_segment_size') as segment_size,
      (select system_identifier::text from pg_control_system()) as system_id`.execute(session);
  const facts = rows[0] as (typeof rows)[number];
  if (facts.archive_mode === 'off') {
    throw new Error('the PostgreSQL server does not archive its WAL (archive_mode = off): a base backup without archived WAL cannot be restored');
  }
  const control = await fsp.readFile(path.join(dataDir, 'global', 'pg_control')).catch((error: Error) => {
    throw new Error(`cannot read the server's data directory ${dataDir}: ${error.message}`);
  });
  // pg_control starts with the cluster's system identifier (a uint64, in the machine's byte order).
  if (control.length < 8 || control.readBigUInt64LE(0).toString() !== facts.system_id) {
    throw new Error(`${dataDir} is not the data directory of the PostgreSQL server backed up (its system identifier differs)`);
  }
  return { database: facts.database, user: facts.user, version: Math.floor(facts.version / 10000), walSegmentSize: facts.segment_size };
}

/** Writes a tar file with what `fill` packs, then closes it. */
async function writeTar(tarFile: string, fill: (pack: tar.Pack) => Promise<void>): Promise<void> {
  const pack = tar.pack();
  const out = fs.createWriteStream(tarFile, { flags: 'wx', mode: 0o600 });
  const written = new Promise<void>((resolve, reject) => {
    out.on('close', resolve);
    out.on('error', reject);
    pack.on('error', reject);
  });
  written.catch(() => undefined);
  pack.pipe(out);
  try {
    await fill(pack);
    pack.finalize();
  } catch (error) {
    pack.destroy(error as Error);
    out.destroy();
    throw error;
  }
  await written;
}

/**
 * The backup's end, with row counts exact for it, on three sessions:
 * - a lock session takes a SHARE lock on every table of the schema (no write to them can commit
 *   while it holds them), each wait cut off at LOCK_TIMEOUT, far below PostgreSQL's deadlock_timeout
 *   (1 s), so a writer waiting on it is never chosen as a deadlock's victim: this side gives up
 *   and tries again instead;
 * - under those locks a count session opens a REPEATABLE READ snapshot, and the backup's session
 *   runs pg_backup_stop (the end record a restore to 'immediate' stops at): both see the same
 *   committed writes;
 * - the locks go at once; the counts are then taken in the snapshot, while visitors write.
 * Writers wait only for the snapshot and pg_backup_stop (milliseconds), not for the counting.
 */
async function stopAfterCount(session: Kysely<unknown>, kysely: Kysely<DatabaseSchema>): Promise<StopPoint> {
  const { rows: tables } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(session);
  return kysely.connection().execute(async (lockConnection) =>
    kysely.connection().execute(async (countConnection) => {
      const locker = lockConnection as unknown as Kysely<unknown>;
      const counter = countConnection as unknown as Kysely<unknown>;
      let stopped: { labelfile: string; spcmapfile: string; wal: string; micros: string } | undefined;
      try {
        for (let attempt = 1; ; attempt += 1) {
          await sql`begin`.execute(locker);
          try {
            await sql`set local lock_timeout = ${sql.lit(LOCK_TIMEOUT)}`.execute(locker);
            if (tables.length > 0) await sql`lock table ${sql.join(tables.map(({ name }) => sql.table(name)))} in share mode`.execute(locker);
            break;
          } catch (error) {
            await sql`rollback`.execute(locker);
            // 55P03: lock_timeout (a writer was in the middle of a transaction).
            if ((error as { code?: string }).code !== '55P03' || attempt >= LOCK_ATTEMPTS) throw error;
            await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
          }
        }
        try {
          await sql`begin isolation level repeatable read`.execute(counter);
          // The snapshot is taken by the transaction's first query.
          await sql`select 1`.execute(counter);
          const { rows } = await sql<{ labelfile: string; spcmapfile: string; wal: string; micros: string }>`
            select labelfile, spcmapfile, pg_walfile_name(lsn) as wal,
              (extract(epoch from clock_timestamp()) * 1000000)::bigint::text as micros
            from pg_backup_stop(false)`.execute(session);
          stopped = rows[0] as (typeof rows)[number];
        } finally {
          await sql`commit`.execute(locker);
        }
        const rowCounts = await tableRowCounts(counter, 'postgres');
        const migration = await latestMigration(counter);
        await sql`commit`.execute(counter);
        if (stopped.spcmapfile.trim() !== '') throw new Error('the cluster has tablespaces outside its data directory: these backups cover the data directory only');
        // Rounded up to the millisecond: takenAt must not come before the consistent point.
        const takenAt = new Date(Math.ceil(Number(stopped.micros) / 1000)).toISOString();
        return { rowCounts, migration, labelFile: stopped.labelfile, stopWal: stopped.wal, takenAt };
      } catch (error) {
        await sql`rollback`.execute(counter).catch(() => undefined);
        throw error;
      }
    }),
  );
}

/**
 * Ships the spool until the store holds the backup's last segment (pg_backup_stop switched to a
 * new one, so the server archives it at once), then checks that every segment from the first
 * is there.
 */
async function waitForWal(options: PostgresBaseBackupOptions, startWal: string, stopWal: string, segmentSize: number): Promise<void> {
  const { catalog, recipient, spoolDir, identity, workDir } = options;
  const deadline = Date.now() + (options.archiveWaitMs ?? 120_000);
  // The last segment, and the backup's history file (`<startWal>.<offset>.backup`), which the server archives after it.
  const archived = async () =>
    (await catalog.store.size(walObjectKey(stopWal))) !== undefined && (await catalog.store.list('wal/')).some((key) => key.startsWith(`wal/${startWal}.`) && key.endsWith('.backup.age'));
  while (!(await archived())) {
    await shipWal({ catalog, recipient, spoolDir, identity, workDir });
    if (await archived()) break;
    if (Date.now() > deadline) {
      throw new Error(`the server did not archive WAL segment ${stopWal} and the backup's history file into ${spoolDir} in time: check archive_command and pg_stat_archiver`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const stored = new Set((await catalog.store.list('wal/')).map(walNameOfKey));
  for (let segment = startWal; ; segment = nextSegment(segment, segmentSize)) {
    if (!stored.has(segment)) throw new Error(`WAL segment ${segment} of the backup is not in the store: was it archived into another spool?`);
    if (segment === stopWal) return;
  }
}

function manifestOf(
  id: string,
  reason: BackupManifest['reason'],
  sealed: SealedFile,
  stop: StopPoint,
  startWal: string,
  serverVersion: number,
  durationMs: number,
): BackupManifest {
  return {
    format: 'agency-backup/1',
    id,
    kind: 'postgres-base',
    takenAt: stop.takenAt,
    reason,
    object: BackupCatalog.dataKey(id),
    bytes: sealed.bytes,
    sha256: sealed.sha256,
    plainBytes: sealed.plainBytes,
    plainSha256: sealed.plainSha256,
    rowCounts: stop.rowCounts,
    migration: stop.migration,
    postgres: { startWal, stopWal: stop.stopWal, serverVersion },
    durationMs: Math.max(0, durationMs),
  };
}
