import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import * as tar from 'tar-stream';
import { unsealToFile } from '../../../../src/platform/backup/backup-cipher';
import type { BackupManifest } from '../../../../src/platform/backup/backup-manifest';
import { latestMigration, tableRowCounts } from '../../../../src/platform/backup/table-row-counts';
import { takePostgresBaseBackup } from '../../../../src/platform/backup/postgres/postgres-base-backup';
import { nextSegment, walObjectKey } from '../../../../src/platform/backup/postgres/postgres-wal-names';
import { createDatabase } from '../../../../src/platform/db/connection';
import { describeOnPostgres, insertMessage, reachableTempDir, startArchivingCluster, type ArchivingCluster } from './archiving-cluster';
import { BACKUP_SUITE_TIMEOUT_MS } from '../../../helpers/backup-waits';

jest.setTimeout(BACKUP_SUITE_TIMEOUT_MS);

describeOnPostgres('takePostgresBaseBackup (a real PostgreSQL with archived WAL)', () => {
  let cluster: ArchivingCluster;
  let backup: BackupManifest;
  let work: string;
  /** The backup's tar: entry names in order, and backup_label's text. */
  let entries: { name: string; type: string }[];
  let label: string;

  beforeAll(async () => {
    cluster = await startArchivingCluster();
    work = reachableTempDir('agency-pg-base-backup-test-');
    await insertMessage(cluster.db, 'lead-1');
    backup = await takePostgresBaseBackup({ ...cluster, kysely: cluster.db.kysely, reason: 'manual', now: () => new Date('2026-11-30T12:00:00.000Z') });
    const tarFile = path.join(work, 'data.tar');
    const sealed = await cluster.catalog.store.get(backup.object);
    await unsealToFile(sealed as Buffer, tarFile, cluster.identity);
    ({ entries, label } = await readTar(tarFile));
  });

  afterAll(async () => {
    await cluster?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test('the manifest: a PostgreSQL base backup with its WAL range, counts and migration', async () => {
    const anySchema = cluster.db.kysely as unknown as Parameters<typeof tableRowCounts>[0];
    expect(backup).toMatchObject({
      format: 'agency-backup/1',
      kind: 'postgres-base',
      reason: 'manual',
      object: `backups/${backup.id}/data.age`,
      rowCounts: await tableRowCounts(anySchema, 'postgres'),
      migration: await latestMigration(anySchema),
      postgres: { serverVersion: 18 },
    });
    expect(backup.id.startsWith('20261130T120000000Z-')).toBe(true);
    expect(backup.rowCounts.contact_messages).toBe(1);
    const { startWal, stopWal } = backup.postgres as NonNullable<BackupManifest['postgres']>;
    expect(startWal <= stopWal).toBe(true);
    // takenAt is the server's clock at the backup's end: before anything that follows it.
    const { rows } = await sql<{ now: Date }>`select clock_timestamp() as now`.execute(cluster.db.kysely);
    expect(Date.parse(backup.takenAt)).toBeLessThanOrEqual((rows[0] as { now: Date }).now.getTime());
    expect(await cluster.catalog.manifest(backup.id)).toEqual(backup);
  });

  test('every WAL segment from the first to the last is in the store, and the spool is shipped', async () => {
    const { startWal, stopWal } = backup.postgres as NonNullable<BackupManifest['postgres']>;
    const segmentSize = 1024 * 1024;
    for (let name = startWal; ; name = nextSegment(name, segmentSize)) {
      expect(await cluster.catalog.store.size(walObjectKey(name))).toBeGreaterThan(0);
      if (name === stopWal) break;
    }
    const keys = await cluster.catalog.store.list('wal/');
    expect(keys.some((key) => key.startsWith(`wal/${startWal}.`) && key.endsWith('.backup.age'))).toBe(true);
    expect(fs.readdirSync(cluster.spoolDir).filter((name) => name <= stopWal)).toEqual([]);
  });

  test('the tar: the data directory without WAL, pid or temporary files, and backup_label last', () => {
    const names = entries.map((entry) => entry.name.replace(/\/$/, ''));
    expect(names).toEqual(expect.arrayContaining(['PG_VERSION', 'global/pg_control', 'postgresql.auto.conf', 'pg_wal', 'pg_wal/archive_status', 'pg_replslot', 'pg_stat_tmp']));
    expect(names.filter((name) => name.startsWith('pg_wal/') && name !== 'pg_wal/archive_status' && name !== 'pg_wal/summaries')).toEqual([]);
    expect(names.filter((name) => /^(postmaster\.(pid|opts)|pg_(replslot|stat_tmp|dynshmem|notify|serial|snapshots|subtrans)\/.+)$/.test(name) || name.includes('pgsql_tmp'))).toEqual([]);
    expect(names.filter((name) => name === 'backup_label')).toHaveLength(1);
    expect(names[names.length - 1]).toBe('backup_label');
    expect(label).toContain(`START WAL LOCATION: `);
    expect(label).toContain(`(file ${backup.postgres?.startWal})`);
    expect(label).toContain(`LABEL: agency backup ${backup.id} of database site as postgres`);
  });

  test('a data directory that is not the server\'s is refused before the backup starts', async () => {
    const other = path.join(work, 'other');
    fs.mkdirSync(path.join(other, 'global'), { recursive: true });
    fs.writeFileSync(path.join(other, 'global', 'pg_control'), Buffer.alloc(8192));
    await expect(takePostgresBaseBackup({ ...cluster, dataDir: other, kysely: cluster.db.kysely, reason: 'manual' })).rejects.toThrow(/is not the data directory of the PostgreSQL server/);
    // The session was not left in backup mode: the next backup works.
    const next = await takePostgresBaseBackup({ ...cluster, kysely: cluster.db.kysely, reason: 'manual' });
    expect(next.id).not.toBe(backup.id);
  });

  test('a server that does not archive its WAL is refused', async () => {
    // The suite's shared server runs without archive_mode.
    const db = createDatabase(process.env.TEST_POSTGRES_URL as string, { poolSize: 1 });
    try {
      await expect(takePostgresBaseBackup({ ...cluster, kysely: db.kysely, reason: 'manual' })).rejects.toThrow(/archive_mode = off/);
    } finally {
      await db.destroy();
    }
  });
});

async function readTar(file: string): Promise<{ entries: { name: string; type: string }[]; label: string }> {
  const extract = tar.extract();
  fs.createReadStream(file).pipe(extract);
  const entries: { name: string; type: string }[] = [];
  let label = '';
  for await (const entry of extract) {
    entries.push({ name: entry.header.name, type: entry.header.type });
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    if (entry.header.name === 'backup_label') label = Buffer.concat(chunks).toString('utf8');
  }
  return { entries, label };
}
