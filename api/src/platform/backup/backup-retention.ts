import { BACKUP_RETENTION_DAYS } from '@agency/shared';
import type { BackupManifest } from './backup-manifest';

const DAY_MS = 86_400_000;

/** Every backup of the last day is kept. */
export const KEEP_ALL_FOR_MS = DAY_MS;

/**
 * The backups retention removes at `now`: every backup of the last 24 hours stays; older ones,
 * the newest of each UTC day stays until it is BACKUP_RETENTION_DAYS old; the rest go. The same
 * number of days is what /privacy promises about an erased person leaving the backups.
 */
export function backupsToDelete(backups: readonly BackupManifest[], now: number): BackupManifest[] {
  const newestOfDay = new Map<string, BackupManifest>();
  for (const backup of backups) {
    const day = backup.takenAt.slice(0, 10);
    const kept = newestOfDay.get(day);
    if (!kept || kept.takenAt < backup.takenAt) newestOfDay.set(day, backup);
  }
  const dailyKept = new Set(newestOfDay.values());
  return backups.filter((backup) => {
    const age = now - Date.parse(backup.takenAt);
    if (age <= KEEP_ALL_FOR_MS) return false;
    if (age > BACKUP_RETENTION_DAYS * DAY_MS) return true;
    return !dailyKept.has(backup);
  });
}
