import type { BackupManifest } from './backup-manifest';

/** What the console and /metrics show of the backups, and what alerts watch. */
export interface BackupStatus {
  /** Where they go (`file:/…`, `s3://…`). */
  store: string;
  kind: BackupManifest['kind'];
  /** Full backups: every SQLite snapshot, or PostgreSQL base backups (WAL is archived between them). */
  intervalMs: number;
  verifyIntervalMs: number;
  count: number;
  totalBytes: number;
  newest?: Pick<BackupManifest, 'id' | 'takenAt' | 'bytes' | 'reason' | 'durationMs'>;
  newestVerified?: { id: string; takenAt: string; verifiedAt: string };
  /** The last failure of this process's backups or drills since its last success, if any. */
  failure?: { at: string; what: 'backup' | 'verify'; message: string };
}

export type BackupAlert = 'backup_stale' | 'verify_stale' | 'backup_failed' | 'verify_failed';

/**
 * The alerts a status calls for at `now`: a newest good backup older than twice its interval, a
 * newest one a drill restored taken longer ago than twice the drill interval, or a failure.
 */
export function alertsOf(status: BackupStatus, now: number): BackupAlert[] {
  const alerts: BackupAlert[] = [];
  const age = (iso: string | undefined) => (iso === undefined ? Infinity : now - Date.parse(iso));
  if (age(status.newest?.takenAt) > 2 * status.intervalMs) alerts.push('backup_stale');
  if (age(status.newestVerified?.takenAt) > 2 * status.verifyIntervalMs) alerts.push('verify_stale');
  if (status.failure) alerts.push(status.failure.what === 'backup' ? 'backup_failed' : 'verify_failed');
  return alerts;
}
