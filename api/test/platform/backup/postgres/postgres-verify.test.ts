import fs from 'node:fs';
import path from 'node:path';
import { BackupDamagedError } from '../../../../src/platform/backup/backup-catalog';
import type { BackupManifest } from '../../../../src/platform/backup/backup-manifest';
import { takePostgresBaseBackup } from '../../../../src/platform/backup/postgres/postgres-base-backup';
import { BackupVerificationError, verifyPostgresBackup } from '../../../../src/platform/backup/postgres/postgres-verify';
import { copyStore, describeOnPostgres, insertMessage, reachableTempDir, startArchivingCluster, type ArchivingCluster } from './archiving-cluster';
import { BACKUP_SUITE_TIMEOUT_MS } from '../../../helpers/backup-waits';

jest.setTimeout(BACKUP_SUITE_TIMEOUT_MS);

describeOnPostgres('verifyPostgresBackup (a real PostgreSQL with archived WAL)', () => {
  let cluster: ArchivingCluster;
  let backup: BackupManifest;
  let work: string;
  let writtenDuringBackup = 0;

  beforeAll(async () => {
    cluster = await startArchivingCluster();
    work = reachableTempDir('agency-pg-verify-test-');
    for (const name of ['lead-1', 'lead-2']) await insertMessage(cluster.db, name);
    // Rows go on being inserted, one after another, for the whole backup: its counts must still
    // match the restore exactly, whichever way the writes and the backup interleave.
    let backingUp = true;
    const writer = (async () => {
      while (backingUp) {
        await insertMessage(cluster.db, `during-${writtenDuringBackup}`);
        writtenDuringBackup += 1;
      }
    })();
    try {
      backup = await takePostgresBaseBackup({ ...cluster, kysely: cluster.db.kysely, reason: 'interval' });
    } finally {
      backingUp = false;
      await writer;
    }
  });

  afterAll(async () => {
    await cluster?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test('(e) a good backup restores to exactly its manifest, and every product reads its table', async () => {
    const report = await verifyPostgresBackup({ catalog: cluster.catalog, identity: cluster.identity, backupId: backup.id, workDir: work });
    expect(report).toMatchObject({ backupId: backup.id, database: 'site', migration: backup.migration });
    expect(report.products).toEqual({
      'site: contact_messages': backup.rowCounts.contact_messages,
      'delivery: releases': backup.rowCounts.releases,
      'staff: staff_members': backup.rowCounts.staff_members,
      'platform: site_secrets': backup.rowCounts.site_secrets,
    });
    expect(report.tables).toBe(Object.keys(backup.rowCounts).length);
    // The writer did write during the backup (else this would prove nothing about concurrency).
    expect(writtenDuringBackup).toBeGreaterThan(0);
    expect(backup.rowCounts.contact_messages).toBeGreaterThanOrEqual(2);
    // The scratch folder is gone.
    expect(fs.readdirSync(work)).toEqual([]);
  });

  test('a restore that differs from the manifest fails the drill', async () => {
    const catalog = copyStore(cluster.storeDir, path.join(work, 'store-counts'));
    const manifestFile = path.join(work, 'store-counts', 'backups', backup.id, 'manifest.json');
    const changed = { ...backup, rowCounts: { ...backup.rowCounts, contact_messages: (backup.rowCounts.contact_messages ?? 0) + 1 } };
    fs.writeFileSync(manifestFile, JSON.stringify(changed));
    const error = await verifyPostgresBackup({ catalog, identity: cluster.identity, backupId: backup.id, workDir: work }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackupVerificationError);
    expect((error as Error).message).toContain(`table contact_messages has ${backup.rowCounts.contact_messages} rows, the manifest says ${changed.rowCounts.contact_messages}`);
    fs.rmSync(path.join(work, 'store-counts'), { recursive: true, force: true });
  });

  test('a damaged backup fails the drill as damaged', async () => {
    const catalog = copyStore(cluster.storeDir, path.join(work, 'store-damaged'));
    fs.rmSync(path.join(work, 'store-damaged', ...backup.object.split('/')));
    await expect(verifyPostgresBackup({ catalog, identity: cluster.identity, backupId: backup.id, workDir: work })).rejects.toThrow(BackupDamagedError);
    fs.rmSync(path.join(work, 'store-damaged'), { recursive: true, force: true });
    expect(fs.readdirSync(work)).toEqual([]);
  });
});
