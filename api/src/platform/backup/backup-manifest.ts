import { randomBytes } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/** What a backup's manifest says; one schema checks a manifest read back and types it. */
export const BackupManifestSchema = Type.Object({
  format: Type.Literal('agency-backup/1'),
  id: Type.String({ pattern: '^[0-9]{8}T[0-9]{9}Z-[0-9a-f]{6}$' }),
  /** A SQLite snapshot (the whole database) or a PostgreSQL base backup (a cluster, replayed with archived WAL). */
  kind: Type.Union([Type.Literal('sqlite-snapshot'), Type.Literal('postgres-base')]),
  /** When the data is consistent as of: a restore to this moment or later may start from it. */
  takenAt: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$' }),
  reason: Type.Union([Type.Literal('interval'), Type.Literal('shutdown'), Type.Literal('manual')]),
  /** The data object's key in the store, its size and SHA-256 as stored (sealed). */
  object: Type.String(),
  bytes: Type.Integer({ minimum: 0 }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  /** Size and SHA-256 of the unsealed data (the database file, or the cluster's tar). */
  plainBytes: Type.Integer({ minimum: 0 }),
  plainSha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  /** Rows per table at `takenAt` (the base backup's start on PostgreSQL). */
  rowCounts: Type.Record(Type.String(), Type.Integer({ minimum: 0 })),
  /** The newest migration the database had run. */
  migration: Type.String(),
  /** A PostgreSQL base backup: the WAL it needs, first and last segment, and the server's major version. */
  postgres: Type.Optional(
    Type.Object({
      startWal: Type.String({ pattern: '^[0-9A-F]{24}$' }),
      stopWal: Type.String({ pattern: '^[0-9A-F]{24}$' }),
      serverVersion: Type.Integer(),
    }),
  ),
  /** How long taking it took. */
  durationMs: Type.Integer({ minimum: 0 }),
});

export type BackupManifest = Static<typeof BackupManifestSchema>;

/** A new backup's id: its time, sortable as text, and a random tail so two processes never share one. */
export function newBackupId(at: Date): string {
  const stamp = at.toISOString().replace(/[-:.]/g, '');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

/** The manifest in `bytes`, or a message saying why it is not one. */
export function parseManifest(bytes: Buffer): BackupManifest | string {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    return `not JSON (${(error as Error).message})`;
  }
  if (Value.Check(BackupManifestSchema, value)) return value;
  const first = Value.Errors(BackupManifestSchema, value).First();
  return `not a backup manifest (${first ? `${first.path || '/'}: ${first.message}` : 'unknown field'})`;
}
