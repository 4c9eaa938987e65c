import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { BackupCatalog, BackupDamagedError } from '../../../../src/platform/backup/backup-catalog';
import type { BackupManifest } from '../../../../src/platform/backup/backup-manifest';
import { takePostgresBaseBackup } from '../../../../src/platform/backup/postgres/postgres-base-backup';
import { restorePostgresCluster, RestoreTargetNotEmptyError, type PostgresRestoreOptions } from '../../../../src/platform/backup/postgres/postgres-restore';
import { startScratchCluster } from '../../../../src/platform/backup/postgres/postgres-scratch-cluster';
import { walObjectKey } from '../../../../src/platform/backup/postgres/postgres-wal-names';
import { copyStore, describeOnPostgres, insertMessage, messageNames, reachableTempDir, startArchivingCluster, type ArchivingCluster } from './archiving-cluster';
import { BACKUP_SUITE_TIMEOUT_MS } from '../../../helpers/backup-waits';

jest.setTimeout(BACKUP_SUITE_TIMEOUT_MS);

// One archiving server for the file. Its story, every step committed before the next starts:
//   before-1..3 | base backup | after-a | T1 | after-b | switch (segment S1) | after-c | switch (S2)
// (S1 holds after-a and after-b, S2 holds after-c.)
describeOnPostgres('restorePostgresCluster (a real PostgreSQL with archived WAL)', () => {
  let cluster: ArchivingCluster;
  let backup: BackupManifest;
  let t1: Date;
  let s1: string;
  let lastCommit: string;
  let work: string;

  beforeAll(async () => {
    cluster = await startArchivingCluster();
    work = reachableTempDir('agency-pg-restore-test-');
    for (const name of ['before-1', 'before-2', 'before-3']) await insertMessage(cluster.db, name);
    backup = await takePostgresBaseBackup({ ...cluster, kysely: cluster.db.kysely, reason: 'manual' });
    await insertMessage(cluster.db, 'after-a');
    // Whole milliseconds between the commits and T1, as recovery_target_time is written in them.
    await waitServerClockPast(cluster, 5);
    t1 = await cluster.serverTime();
    await waitServerClockPast(cluster, 5);
    await insertMessage(cluster.db, 'after-b');
    s1 = await cluster.switchAndShip();
    lastCommit = await insertMessage(cluster.db, 'after-c');
    await cluster.switchAndShip();
  });

  afterAll(async () => {
    await cluster?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  let runs = 0;
  const freshDir = () => path.join(work, `data-${(runs += 1)}`);
  const restore = (target: PostgresRestoreOptions['target'], catalog: BackupCatalog = cluster.catalog, dataDir = freshDir()) =>
    restorePostgresCluster({ catalog, identity: cluster.identity, target, dataDir });

  /** Starts PostgreSQL on a restored directory, lets it recover, and reads the contact messages' names. */
  async function namesAfterRecovery(dataDir: string): Promise<string[]> {
    const server = await startScratchCluster({ dataDir, settings: { fsync: 'off' } });
    try {
      return await messageNames(server.url('site'));
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }

  test('(a) to a time between two commits: exactly the rows committed before it', async () => {
    const result = await restore({ time: t1 });
    expect(result.backup.id).toBe(backup.id);
    expect(result.recovery).toEqual({ kind: 'time', time: t1.toISOString() });
    expect(result.walFiles[0]).toBe(backup.postgres?.startWal);
    expect(result.database).toBe('site');
    // The restored server must not archive into the old server's spool.
    const autoConf = fs.readFileSync(path.join(result.dataDir, 'postgresql.auto.conf'), 'utf8');
    expect(autoConf).toMatch(/^archive_mode = 'off'$/m);
    expect(autoConf).not.toMatch(/archive_command/);
    expect(fs.existsSync(path.join(result.dataDir, 'recovery.signal'))).toBe(true);
    expect(await namesAfterRecovery(result.dataDir)).toEqual(['after-a', 'before-1', 'before-2', 'before-3']);
  });

  test('(b) to the end: every shipped row, and the WAL reader finds the last commit exactly', async () => {
    const result = await restore({ latest: true });
    expect(result.recovery.kind).toBe('end');
    expect(result.lastTransactionInWal).toBe(lastCommit);
    expect(await namesAfterRecovery(result.dataDir)).toEqual(['after-a', 'after-b', 'after-c', 'before-1', 'before-2', 'before-3']);
  });

  test('a time after the last archived commit restores to the end of the archive instead of failing', async () => {
    const after = new Date(Date.parse(lastCommit) + 1);
    const result = await restore({ time: after });
    expect(result.recovery).toMatchObject({ kind: 'end', requestedTime: after.toISOString() });
    expect(result.notes.join('\n')).toContain('recovery ended before configured recovery target was reached');
    expect(await namesAfterRecovery(result.dataDir)).toEqual(['after-a', 'after-b', 'after-c', 'before-1', 'before-2', 'before-3']);
  });

  test('to the backup itself (immediate): the rows of the backup only', async () => {
    const result = await restore({ backupId: backup.id });
    expect(result.recovery).toEqual({ kind: 'immediate' });
    expect(result.walFiles.at(-1)).toBe(backup.postgres?.stopWal);
    expect(await namesAfterRecovery(result.dataDir)).toEqual(['before-1', 'before-2', 'before-3']);
  });

  test('a time before every backup is refused', async () => {
    await expect(restore({ time: new Date(Date.parse(backup.takenAt) - 1) })).rejects.toThrow(/no PostgreSQL base backup was taken at or before/);
  });

  describe('(c) damage is refused with a clear error', () => {
    let copies = 0;
    const damagedCopy = () => copyStore(cluster.storeDir, path.join(work, `store-${(copies += 1)}`));
    const objectFile = (catalog: BackupCatalog, key: string) => path.join((catalog.store as { dir?: string }).dir as string, ...key.split('/'));

    test('a truncated data object', async () => {
      const catalog = damagedCopy();
      const file = objectFile(catalog, backup.object);
      fs.truncateSync(file, backup.bytes - 100);
      const error = await restore({ backupId: backup.id }, catalog).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BackupDamagedError);
      expect((error as Error).message).toMatch(/has \d+ bytes, its manifest says/);
    });

    test('a byte flipped in the data object', async () => {
      const catalog = damagedCopy();
      const file = objectFile(catalog, backup.object);
      const bytes = fs.readFileSync(file);
      bytes[bytes.length >> 1] = (bytes[bytes.length >> 1] as number) ^ 1;
      fs.writeFileSync(file, bytes);
      await expect(restore({ backupId: backup.id }, catalog)).rejects.toThrow(/does not match the SHA-256 of its manifest/);
    });

    test('a byte flipped in a WAL object', async () => {
      const catalog = damagedCopy();
      const file = objectFile(catalog, walObjectKey(s1));
      const bytes = fs.readFileSync(file);
      bytes[bytes.length - 20] = (bytes[bytes.length - 20] as number) ^ 1;
      fs.writeFileSync(file, bytes);
      await expect(restore({ latest: true }, catalog)).rejects.toThrow(new RegExp(`WAL file ${s1} cannot be opened`));
    });

    test('a WAL segment the backup needs', async () => {
      const catalog = damagedCopy();
      const startWal = backup.postgres?.startWal as string;
      fs.rmSync(objectFile(catalog, walObjectKey(startWal)));
      const dataDir = freshDir();
      await expect(restore({ backupId: backup.id }, catalog, dataDir)).rejects.toThrow(new RegExp(`WAL segment ${startWal} is missing from the store`));
      // Nothing half-restored is left to be started by mistake.
      expect(fs.readdirSync(dataDir)).toEqual([]);
    });

    test('a WAL segment missing between archived ones', async () => {
      const catalog = damagedCopy();
      fs.rmSync(objectFile(catalog, walObjectKey(s1)));
      const error = await restore({ latest: true }, catalog).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BackupDamagedError);
      expect((error as Error).message).toMatch(new RegExp(`WAL segment ${s1} is missing from the store, and the archive goes on after it`));
      // The backup alone needs none of it.
      const alone = await restore({ backupId: backup.id }, catalog);
      expect(alone.recovery.kind).toBe('immediate');
      fs.rmSync(alone.dataDir, { recursive: true, force: true });
    });
  });

  describe('(d) the target folder', () => {
    test('a non-empty folder is refused without force, emptied with it', async () => {
      const dataDir = freshDir();
      fs.mkdirSync(dataDir);
      fs.writeFileSync(path.join(dataDir, 'something'), 'kept?');
      await expect(restore({ backupId: backup.id }, cluster.catalog, dataDir)).rejects.toThrow(RestoreTargetNotEmptyError);
      expect(fs.readFileSync(path.join(dataDir, 'something'), 'utf8')).toBe('kept?');
      const forced = await restorePostgresCluster({ catalog: cluster.catalog, identity: cluster.identity, target: { backupId: backup.id }, dataDir, force: true });
      expect(fs.existsSync(path.join(dataDir, 'something'))).toBe(false);
      expect(fs.existsSync(path.join(forced.dataDir, 'PG_VERSION'))).toBe(true);
      expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    test('a folder with a postmaster.pid is refused even with force', async () => {
      const dataDir = freshDir();
      fs.mkdirSync(dataDir);
      fs.writeFileSync(path.join(dataDir, 'postmaster.pid'), '12345\n');
      await expect(restorePostgresCluster({ catalog: cluster.catalog, identity: cluster.identity, target: { backupId: backup.id }, dataDir, force: true })).rejects.toThrow(
        /postmaster\.pid: a server may be running on it/,
      );
      expect(fs.existsSync(path.join(dataDir, 'postmaster.pid'))).toBe(true);
    });
  });
});

/** Waits until the server's clock has moved `ms` milliseconds on (pg_sleep; no time is asserted). */
async function waitServerClockPast(cluster: ArchivingCluster, ms: number): Promise<void> {
  await sql`select pg_sleep(${ms / 1000})`.execute(cluster.db.kysely);
}
