import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { BackupCatalog } from '../backup-catalog';
import { latestMigration, tableRowCounts } from '../table-row-counts';
import { createDatabase } from '../../db/connection';
import type { DatabaseSchema } from '../../db/schema';
import { restorePostgresCluster } from './postgres-restore';
import { startScratchCluster } from './postgres-scratch-cluster';

/**
 * A restore drill of one base backup: restored into a scratch folder to its consistent point
 * ('immediate': the backup alone, with the WAL written during it), started, and compared with its
 * manifest. The manifest's row counts were taken at exactly that point (postgres-base-backup.ts),
 * so they must match table by table, not roughly. Then one query per product reads a table of
 * each through the site's schema. A damaged backup fails in the restore (BackupDamagedError).
 */

export interface VerifyPostgresBackupOptions {
  catalog: BackupCatalog;
  identity: string;
  backupId: string;
  /** Where the scratch data directory goes (os.tmpdir() by default); removed afterwards. */
  workDir?: string;
  /** Folder of the PostgreSQL binaries (postgresBinDir by default). */
  binDir?: string;
  /** How long recovery may take (10 min by default). */
  timeoutMs?: number;
}

export interface PostgresVerifyReport {
  backupId: string;
  database: string;
  walFiles: number;
  tables: number;
  rows: number;
  migration: string;
  /** Each product's query and the rows it counted. */
  products: Record<string, number>;
  durationMs: number;
}

/** The restored data differs from the manifest. */
export class BackupVerificationError extends Error {
  constructor(
    readonly backupId: string,
    readonly problems: string[],
  ) {
    super(`backup ${backupId} restored, but not as its manifest says: ${problems.join('; ')}`);
  }
}

/** A table per product, read through the typed schema. */
const PRODUCT_TABLES = { site: 'contact_messages', delivery: 'releases', staff: 'staff_members', platform: 'site_secrets' } as const;

export async function verifyPostgresBackup(options: VerifyPostgresBackupOptions): Promise<PostgresVerifyReport> {
  const started = Date.now();
  const scratch = await fsp.mkdtemp(path.join(options.workDir ?? os.tmpdir(), 'agency-pg-verify-'));
  try {
    // As root the server runs as another user, who must be able to pass through to its data.
    await fsp.chmod(scratch, 0o711);
    const restored = await restorePostgresCluster({
      catalog: options.catalog,
      identity: options.identity,
      target: { backupId: options.backupId, replay: 'immediate' },
      dataDir: path.join(scratch, 'data'),
    });
    const { backup } = restored;
    if (!restored.database || !restored.user) throw new BackupVerificationError(backup.id, ['its backup_label does not name the database it was taken of']);
    // Nothing of the drill is kept: it need not wait for the disk.
    const cluster = await startScratchCluster({ dataDir: restored.dataDir, binDir: options.binDir, user: restored.user, timeoutMs: options.timeoutMs, settings: { fsync: 'off' } });
    try {
      // The server stops right after, and pg's Pool.end() resolves before its sockets close: the
      // pool would report that termination. A real failure fails a query instead.
      const db = createDatabase(cluster.url(restored.database), { poolSize: 1, onPoolError: () => undefined });
      try {
        // tableRowCounts reads any schema; Kysely's types do not widen DatabaseSchema to unknown.
        const anySchema = db.kysely as unknown as Kysely<unknown>;
        const counts = await tableRowCounts(anySchema, 'postgres');
        const problems = compareCounts(backup.rowCounts, counts);
        const migration = await latestMigration(anySchema);
        if (migration !== backup.migration) problems.push(`its newest migration is ${migration || 'none'}, the manifest says ${backup.migration}`);
        const products: Record<string, number> = {};
        for (const [product, table] of Object.entries(PRODUCT_TABLES)) {
          products[`${product}: ${table}`] = await countRows(db.kysely, table);
        }
        if (problems.length > 0) throw new BackupVerificationError(backup.id, problems);
        return {
          backupId: backup.id,
          database: restored.database,
          walFiles: restored.walFiles.length,
          tables: Object.keys(counts).length,
          rows: Object.values(counts).reduce((sum, n) => sum + n, 0),
          migration,
          products,
          durationMs: Date.now() - started,
        };
      } finally {
        await db.destroy();
      }
    } finally {
      await cluster.stop();
    }
  } finally {
    await fsp.rm(scratch, { recursive: true, force: true });
  }
}

function compareCounts(expected: Record<string, number>, actual: Record<string, number>): string[] {
  const problems: string[] = [];
  for (const table of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
    const want = expected[table];
    const got = actual[table];
    if (want === undefined) problems.push(`table ${table} is not in the manifest`);
    else if (got === undefined) problems.push(`table ${table} is missing`);
    else if (want !== got) problems.push(`table ${table} has ${got} rows, the manifest says ${want}`);
  }
  return problems;
}

async function countRows(kysely: ReturnType<typeof createDatabase>['kysely'], table: (typeof PRODUCT_TABLES)[keyof typeof PRODUCT_TABLES]): Promise<number> {
  const row = await kysely
    .selectFrom(table as keyof DatabaseSchema)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
