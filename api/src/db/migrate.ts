import { Migrator, type MigrationProvider } from 'kysely';
import type { Database } from './connection';
import { migrations } from './migrations';

const provider: MigrationProvider = { getMigrations: async () => migrations };

function isSqliteBusy(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && String(error.code).startsWith('SQLITE_BUSY');
}

/**
 * Brings the schema up to date. Kysely's Migrator runs under a lock (a PostgreSQL advisory
 * lock; on SQLite one transaction), so processes starting together are safe. On SQLite two
 * deferred transactions can still collide when both upgrade to a write lock; the loser is
 * rolled back with SQLITE_BUSY and simply tries again, then finds nothing left to do.
 */
export async function migrateToLatest(db: Database): Promise<void> {
  const migrator = new Migrator({ db: db.kysely, provider });
  for (let attempt = 1; ; attempt += 1) {
    const { error } = await migrator.migrateToLatest();
    if (!error) return;
    if (db.dialect.name === 'sqlite' && isSqliteBusy(error) && attempt < 20) {
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      continue;
    }
    throw error instanceof Error ? error : new Error(`Migration failed: ${String(error)}`);
  }
}
