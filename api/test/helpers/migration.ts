import { Migrator, type MigrationProvider } from 'kysely';
import { createDatabase, type Database } from '../../src/platform/db/connection';
import { migrations } from '../../src/platform/db/migrations';
import { createTestDatabase, type TestDatabase } from './database';

/**
 * A test of one migration on the data of the schema before it: a fresh database for the suite;
 * `migrateToBefore()` brings it to the migration just before `name` and resolves with it (then the
 * test stores rows and runs the rest with migrateToLatest).
 */
export function setUpMigrationTest(name: string): { migrateToBefore(): Promise<Database> } {
  let testDb: TestDatabase;
  let db: Database | undefined;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = createDatabase(testDb.url, { poolSize: 2 });
  });
  afterAll(async () => {
    await db?.destroy();
    await testDb?.drop();
  });
  const before: MigrationProvider = {
    getMigrations: async () => Object.fromEntries(Object.entries(migrations).filter(([migration]) => migration < name)),
  };
  return {
    async migrateToBefore() {
      if (!db) throw new Error('the migration test database is made in beforeAll');
      const { error } = await new Migrator({ db: db.kysely, provider: before }).migrateToLatest();
      if (error) throw error;
      return db;
    },
  };
}
