import type { OpsMessage } from '../alerts/ops-webhook';
import { alertsOf, type BackupAlert, type BackupStatus } from './backup-status';

/** The JSON body of a message to the ops webhook about the backups. */
export interface BackupAlertMessage extends OpsMessage {
  type: 'backup_alert';
  alert: BackupAlert;
  /** What is wrong, for a person reading the channel. */
  text: string;
  newestBackupAt: string | null;
  newestVerifiedAt: string | null;
}

/** How long after the start a store with no backup at all is not yet a problem. */
export const FIRST_BACKUP_GRACE_MS = 10 * 60_000;

const TEXT: Record<BackupAlert, (status: BackupStatus) => string> = {
  backup_stale: (status) => `No backup for over ${Math.round((2 * status.intervalMs) / 60_000)} minutes (the newest: ${status.newest?.takenAt ?? 'none'}).`,
  verify_stale: (status) => `No restore drill of a recent backup passed (the newest proven backup: ${status.newestVerified?.takenAt ?? 'none'}).`,
  backup_failed: (status) => `A backup failed: ${status.failure?.message ?? ''}`,
  verify_failed: (status) => `A restore drill failed: ${status.failure?.message ?? ''}`,
};

/**
 * Watches the backups' status and says each new problem once: an alert is sent when it starts,
 * not at every check while it lasts, and again if it comes back after it cleared.
 */
export function createBackupAlerts(site: string, notify: (message: BackupAlertMessage, idempotencyKey: string) => Promise<unknown>, startedAt = Date.now()) {
  let raised = new Set<BackupAlert>();
  return async function check(status: BackupStatus, now: number): Promise<BackupAlert[]> {
    // A new site has no backup yet: the first one (the agent's, on PostgreSQL) is given a few minutes.
    const settling = now - startedAt < FIRST_BACKUP_GRACE_MS;
    const current = alertsOf(status, now).filter((alert) => !(settling && alert.endsWith('_stale') && status.newest === undefined));
    const fresh = current.filter((alert) => !raised.has(alert));
    raised = new Set(current);
    const at = new Date(now).toISOString();
    for (const alert of fresh) {
      await notify(
        { type: 'backup_alert', site, at, alert, text: TEXT[alert](status), newestBackupAt: status.newest?.takenAt ?? null, newestVerifiedAt: status.newestVerified?.takenAt ?? null },
        `backup:${alert}:${at}`,
      );
    }
    return fresh;
  };
}
