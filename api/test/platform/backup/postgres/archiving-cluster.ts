import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { generateBackupKey, backupRecipient } from '../../../../src/platform/backup/backup-cipher';
import { BackupCatalog } from '../../../../src/platform/backup/backup-catalog';
import { rewriteAutoConf } from '../../../../src/platform/backup/postgres/postgres-config-text';
import { shipWal, walArchiveSettings } from '../../../../src/platform/backup/postgres/postgres-wal-archive';
import { walObjectKey } from '../../../../src/platform/backup/postgres/postgres-wal-names';
import { giveToServerUser, postgresBinDir, serverUserIds, startScratchCluster, type ScratchCluster } from '../../../../src/platform/backup/postgres/postgres-scratch-cluster';
import { createDatabase, type Database } from '../../../../src/platform/db/connection';
import { migrateToLatest } from '../../../../src/platform/db/migrate';
import { FileObjectStore } from '../../../../src/platform/object-store/file-object-store';
import { testDialect } from '../../../helpers/database';

/**
 * The PostgreSQL tests of backups need a server of their own: archive_mode takes a restart, and
 * the suite's shared server does not archive. Each test file starts one (a second or two) with:
 * - 1 MiB WAL segments (initdb --wal-segsize=1): the archive, restores and their reads stay small;
 * - archiving into a spool as production does, set in postgresql.auto.conf (so base backups carry
 *   it, and restores must switch it off);
 * - autovacuum off: no transaction but the test's own writes WAL, so the archive's last
 *   transaction is the test's last insert;
 * - track_commit_timestamp on: the test reads its transactions' commit times to compare.
 */

export const describeOnPostgres = testDialect() === 'postgres' ? describe : describe.skip;

export interface ArchivingCluster {
  root: string;
  dataDir: string;
  spoolDir: string;
  server: ScratchCluster;
  /** The site's database (`site`), migrated. */
  db: Database;
  catalog: BackupCatalog;
  storeDir: string;
  identity: string;
  recipient: string;
  /** Forces a segment switch and ships until the switched segment is stored; its name. */
  switchAndShip(): Promise<string>;
  /** The server's clock, to the millisecond (rounded down). */
  serverTime(): Promise<Date>;
  stop(): Promise<void>;
}

/** A folder under os.tmpdir() the PostgreSQL user (as root, `postgres`) can pass through. */
export function reachableTempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o755);
  return dir;
}

export async function startArchivingCluster(): Promise<ArchivingCluster> {
  const root = reachableTempDir('agency-pg-archiving-');
  const dataDir = path.join(root, 'data');
  const spoolDir = path.join(root, 'spool');
  const storeDir = path.join(root, 'store');
  fs.mkdirSync(dataDir, { mode: 0o700 });
  fs.mkdirSync(spoolDir, { mode: 0o700 });
  await giveToServerUser(dataDir);
  await giveToServerUser(spoolDir);
  const initdb = spawnSync(path.join(postgresBinDir(), 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '--wal-segsize=1', '-E', 'UTF8', '--no-instructions'], {
    encoding: 'utf8',
    ...(serverUserIds() ?? {}),
  });
  if (initdb.status !== 0) throw new Error(`initdb failed: ${initdb.stderr || initdb.error?.message}`);
  await rewriteAutoConf(dataDir, () => false, 'Archiving, as an operator sets it up (postgres-wal-archive.ts).', {
    ...walArchiveSettings(spoolDir),
    autovacuum: 'off',
    track_commit_timestamp: 'on',
  });
  const server = await startScratchCluster({ dataDir, settings: { archive_mode: 'on', fsync: 'off' } });
  const admin = new pg.Client(server.url());
  await admin.connect();
  await admin.query('create database site');
  await admin.end();
  // pg's Pool.end() resolves before its clients' sockets have closed; the server stopping right
  // after terminates those, and the pool reports it. Real failures show as failing queries.
  const db = createDatabase(server.url('site'), { poolSize: 4, onPoolError: () => undefined });
  await migrateToLatest(db);
  const catalog = new BackupCatalog(new FileObjectStore(storeDir));
  const identity = await generateBackupKey();
  const recipient = await backupRecipient(identity);

  async function switchAndShip(): Promise<string> {
    // A switch with nothing written since the last one does nothing: a restore point writes a
    // WAL record without being a transaction (the archive's last transaction stays the test's).
    await sql`select pg_create_restore_point('test switch')`.execute(db.kysely);
    const { rows } = await sql<{ wal: string }>`select pg_walfile_name(pg_switch_wal()) as wal`.execute(db.kysely);
    const wal = (rows[0] as { wal: string }).wal;
    // Waits for the server's archiver, however long it takes: no time is asserted.
    while ((await catalog.store.size(walObjectKey(wal))) === undefined) {
      await shipWal({ catalog, recipient, spoolDir });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return wal;
  }

  async function serverTime(): Promise<Date> {
    const { rows } = await sql<{ ms: string }>`select floor(extract(epoch from clock_timestamp()) * 1000)::bigint::text as ms`.execute(db.kysely);
    return new Date(Number((rows[0] as { ms: string }).ms));
  }

  return {
    root,
    dataDir,
    spoolDir,
    server,
    db,
    catalog,
    storeDir,
    identity,
    recipient,
    switchAndShip,
    serverTime,
    stop: async () => {
      await db.destroy();
      await server.stop();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Inserts a contact message named `name`; its commit time (µs, ISO, UTC) from track_commit_timestamp. */
export async function insertMessage(db: Database, name: string): Promise<string> {
  const { id } = await db.kysely
    .insertInto('contact_messages')
    .values({ name, email: `${name}@example.com`, phone: '', company: '', service_type: 'web', message: `from ${name}`, user_agent: null, referrer: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { rows } = await sql<{ at: string }>`
    select to_char(pg_xact_commit_timestamp(xmin) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at
    from contact_messages where id = ${id}`.execute(db.kysely);
  return (rows[0] as { at: string }).at;
}

/** The names of the contact messages at `url`, sorted. */
export async function messageNames(url: string): Promise<string[]> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>('select name from contact_messages order by name');
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

/** A copy of the store's folder, to damage without touching the original. */
export function copyStore(storeDir: string, into: string): BackupCatalog {
  fs.cpSync(storeDir, into, { recursive: true });
  return new BackupCatalog(new FileObjectStore(into));
}
