import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './schema-builders';

/**
 * The database's backups as admins see them in the console (`GET /api/staff/backups`). Ages are
 * counted on the server: a browser's clock may be wrong, the server's decides the alerts.
 */

const IsoTime = Type.String();
const Seconds = Type.Integer({ minimum: 0 });

export const BACKUP_REASONS = ['interval', 'shutdown', 'manual'] as const;
export type BackupReason = (typeof BACKUP_REASONS)[number];
export const BACKUP_ALERTS = ['backup_stale', 'verify_stale', 'backup_failed', 'verify_failed'] as const;
export type BackupAlertName = (typeof BACKUP_ALERTS)[number];

export const BackupStatusSchema = Type.Object({
  /** Where they are kept: `file:/…` or `s3://<bucket>/<prefix>`. */
  store: Type.String(),
  /** SQLite snapshots, or PostgreSQL base backups with archived WAL between them. */
  kind: StringEnum<'sqlite-snapshot' | 'postgres-base'>(['sqlite-snapshot', 'postgres-base']),
  intervalMs: Type.Integer({ minimum: 0 }),
  verifyIntervalMs: Type.Integer({ minimum: 0 }),
  /** The backups retention keeps, and their size in the store (sealed). */
  count: Type.Integer({ minimum: 0 }),
  totalBytes: Type.Integer({ minimum: 0 }),
  newest: Type.Optional(
    Type.Object({
      id: Type.String(),
      takenAt: IsoTime,
      ageSeconds: Seconds,
      bytes: Type.Integer({ minimum: 0 }),
      reason: StringEnum<BackupReason>(BACKUP_REASONS),
      durationMs: Type.Integer({ minimum: 0 }),
    }),
  ),
  /** The newest backup a restore drill proved; its age counts from when it was taken, as the alert's does. */
  newestVerified: Type.Optional(Type.Object({ id: Type.String(), takenAt: IsoTime, ageSeconds: Seconds, verifiedAt: IsoTime })),
  /** The serving process's last failed backup or drill, until one succeeds. */
  failure: Type.Optional(Type.Object({ at: IsoTime, what: StringEnum<'backup' | 'verify'>(['backup', 'verify']), message: Type.String() })),
});
export type BackupStatusView = Static<typeof BackupStatusSchema>;

/** `GET /api/staff/backups` (admins): no status when BACKUP_STORE=off. */
export const BackupOverviewSchema = Type.Object({
  enabled: Type.Boolean(),
  status: Type.Optional(BackupStatusSchema),
  alerts: Type.Array(StringEnum<BackupAlertName>(BACKUP_ALERTS)),
});
export type BackupOverview = Static<typeof BackupOverviewSchema>;
