import { BACKUP_RETENTION_DAYS } from '@agency/shared';
import type { BackupManifest } from '../../../src/platform/backup/backup-manifest';
import { backupsToDelete } from '../../../src/platform/backup/backup-retention';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const NOW = Date.parse('2026-11-30T12:02:00.000Z');

function backupAt(ms: number): BackupManifest {
  const takenAt = new Date(ms).toISOString();
  return { id: takenAt, takenAt } as BackupManifest;
}

test('keeps every backup of the last day, the newest of each older day within the promised days, and nothing older', () => {
  // One every five minutes for forty days, as a site that never stopped would have taken them.
  const backups: BackupManifest[] = [];
  for (let at = NOW - 40 * DAY; at <= NOW; at += 5 * MINUTE) backups.push(backupAt(at));

  const deleted = new Set(backupsToDelete(backups, NOW).map((backup) => backup.takenAt));
  const kept = backups.filter((backup) => !deleted.has(backup.takenAt)).map((backup) => backup.takenAt);

  const lastDay = backups.filter((backup) => Date.parse(backup.takenAt) >= NOW - DAY).map((backup) => backup.takenAt);
  const older = kept.filter((takenAt) => Date.parse(takenAt) < NOW - DAY);
  expect(kept.filter((takenAt) => Date.parse(takenAt) >= NOW - DAY)).toEqual(lastDay);
  // Each older day keeps exactly its last backup (23:57 UTC), back to the promised number of days.
  expect(older.every((takenAt) => takenAt.endsWith('T23:57:00.000Z'))).toBe(true);
  expect(new Set(older.map((takenAt) => takenAt.slice(0, 10))).size).toBe(older.length);
  expect(Math.min(...older.map((takenAt) => Date.parse(takenAt)))).toBeGreaterThanOrEqual(NOW - BACKUP_RETENTION_DAYS * DAY);
  expect(older.length).toBe(BACKUP_RETENTION_DAYS - 1);
});

test('a backup just past the promised days goes even when it is the only one', () => {
  const old = backupAt(NOW - BACKUP_RETENTION_DAYS * DAY - MINUTE);
  const recent = backupAt(NOW - BACKUP_RETENTION_DAYS * DAY + MINUTE);
  expect(backupsToDelete([old], NOW)).toEqual([old]);
  expect(backupsToDelete([old, recent], NOW)).toEqual([old]);
});
