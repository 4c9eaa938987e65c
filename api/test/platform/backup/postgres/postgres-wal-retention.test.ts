import type { BackupManifest } from '../../../../src/platform/backup/backup-manifest';
import { walToDelete } from '../../../../src/platform/backup/postgres/postgres-wal-retention';
import { describeOnPostgres } from './archiving-cluster';

const backupFrom = (startWal: string) => ({ postgres: { startWal, stopWal: startWal, serverVersion: 18 } }) as BackupManifest;

describeOnPostgres('walToDelete', () => {
  const keys = [
    'wal/000000010000000000000001.age',
    'wal/000000010000000000000002.age',
    'wal/000000010000000000000002.00000028.backup.age',
    'wal/000000010000000000000003.age',
    'wal/000000010000000000000003.00000060.backup.age',
    'wal/000000010000000000000004.age',
    'wal/000000010000000000000004.partial.age',
    'wal/00000002.history.age',
    'wal/000000020000000000000004.age',
    'wal/000000020000000000000005.age',
    'wal/unknown.age',
  ];

  test('everything before the oldest kept backup\'s first segment goes, history files stay', () => {
    expect(walToDelete(keys, backupFrom('000000010000000000000003'))).toEqual([
      'wal/000000010000000000000001.age',
      'wal/000000010000000000000002.age',
      'wal/000000010000000000000002.00000028.backup.age',
    ]);
  });

  test('a backup on a later timeline needs none of an earlier timeline\'s segments', () => {
    expect(walToDelete(keys, backupFrom('000000020000000000000005'))).toEqual([
      'wal/000000010000000000000001.age',
      'wal/000000010000000000000002.age',
      'wal/000000010000000000000002.00000028.backup.age',
      'wal/000000010000000000000003.age',
      'wal/000000010000000000000003.00000060.backup.age',
      'wal/000000010000000000000004.age',
      'wal/000000010000000000000004.partial.age',
      'wal/000000020000000000000004.age',
    ]);
  });

  test('with no base backup kept, nothing is deleted', () => {
    expect(walToDelete(keys, undefined)).toEqual([]);
  });
});
