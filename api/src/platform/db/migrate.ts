import { Migrator, sql, type Kysely, type MigrationProvider } from 'kysely';
import type { Database } from './connection';
import { isSqliteBusy } from './database-errors';
import { migrations } from './migrations';
import type { DatabaseSchema } from './schema';

const provider: MigrationProvider = { getMigrations: async () => migrations };

async function runMigrator(db: Kysely<DatabaseSchema>, disableTransactions: boolean): Promise<void> {
  const { error } = await new Migrator({ db, provider, disableTransactions }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(`Migration failed: ${String(error)}`);
}

/**
 * Brings the schema up to date, safely when several processes start together.
 * - PostgreSQL: Kysely's Migrator takes an advisory lock and runs in a transaction.
 * - SQLite: Kysely's SQLite lock is a no-op (it assumes one connection), which is not true
 *   for several processes on one file. So the whole run happens inside one
 *   `BEGIN IMMEDIATE` transaction (SQLite's write lock; others wait up to busy_timeout),
 *   with the Migrator's own transactions off. SQLite DDL is transactional, so a failed
 *   migration rolls back entirely. A lock wait that times out is retried.
 */
export async function migrateToLatest(db: Database): Promise<void> {
  if (db.dialect.name === 'postgres') {
    await runMigrator(db.kysely, false);
    return;
  }
  for (let attempt = 1; ; attempt += 1) {
    try {
      await db.kysely.connection().execute(async (connection) => {
        await sql`begin immediate`.execute(connection);
        try {
          await runMigrator(connection, true);
          await sql`commit`.execute(connection);
        } catch (error) {
          await sql`rollback`.execute(connection);
          throw error;
        }
      });
      return;
    } catch (error) {
      if (!isSqliteBusy(error) || attempt >= 10) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}
