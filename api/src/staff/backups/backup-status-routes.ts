import { BackupOverviewSchema, ERROR_RESPONSES, type BackupOverview } from '@agency/shared/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { BackupService } from '../../platform/backup/backup-service';
import { alertsOf, type BackupStatus } from '../../platform/backup/backup-status';
import { ApiError } from '../../platform/http/api-error';
import { STAFF_MESSAGES } from '../common/staff-messages';

export interface BackupStatusRoutesOptions {
  /** The database's backups; undefined when BACKUP_STORE=off. */
  backups: BackupService | undefined;
  /** The clock ages and alerts are counted by (tests move it). */
  now?: () => number;
}

/** The status as the console reads it: whole seconds since `iso`, never negative on a skewed clock. */
export function backupOverview(status: BackupStatus, now: number): BackupOverview {
  const ageSeconds = (iso: string) => Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  const { newest, newestVerified, failure } = status;
  return {
    enabled: true,
    status: {
      store: status.store,
      kind: status.kind,
      intervalMs: status.intervalMs,
      verifyIntervalMs: status.verifyIntervalMs,
      count: status.count,
      totalBytes: status.totalBytes,
      ...(newest && { newest: { ...newest, ageSeconds: ageSeconds(newest.takenAt) } }),
      ...(newestVerified && { newestVerified: { ...newestVerified, ageSeconds: ageSeconds(newestVerified.takenAt) } }),
      ...(failure && { failure }),
    },
    alerts: alertsOf(status, now),
  };
}

/**
 * «Резервні копії» (admins): the database's backups as the store holds them, whoever took them
 * (this site on SQLite, the backup agent on PostgreSQL), with the alerts the ops webhook is sent.
 */
export const backupStatusRoutes: FastifyPluginAsyncTypebox<BackupStatusRoutesOptions> = async (app, { backups, now = Date.now }) => {
  app.get('/api/staff/backups', { config: { staffRole: 'admin' }, schema: { response: { 200: BackupOverviewSchema, ...ERROR_RESPONSES } } }, async (request) => {
    if (!backups) return { enabled: false, alerts: [] };
    let status: BackupStatus;
    try {
      status = await backups.status();
    } catch (error) {
      request.log.error({ err: error }, 'backups: the console could not read the backup store');
      throw new ApiError(503, 'BACKUP_STORE_UNAVAILABLE', STAFF_MESSAGES.backupStoreUnavailable);
    }
    return backupOverview(status, now());
  });
};
