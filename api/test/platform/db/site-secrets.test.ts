import { createDatabase, type Database } from '../../../src/platform/db/connection';
import { migrateToLatest } from '../../../src/platform/db/migrate';
import { siteSecret } from '../../../src/platform/db/site-secrets';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';

// Secrets every API process shares through the database (SQLite, then PostgreSQL).

let testDb: TestDatabase;
const connections: Database[] = [];

beforeEach(async () => {
  testDb = await createTestDatabase();
  for (let index = 0; index < 2; index += 1) connections.push(createDatabase(testDb.url));
  await migrateToLatest(connections[0]!);
});

afterEach(async () => {
  await Promise.all(connections.splice(0).map((db) => db.destroy()));
  await testDb.drop();
});

it('makes one random secret per name, the same for every process that asks, at once or later', async () => {
  const [one, two] = connections as [Database, Database];
  const first = await Promise.all([siteSecret(one, 'a'), siteSecret(two, 'a'), siteSecret(one, 'a')]);
  expect(new Set(first).size).toBe(1);
  expect(first[0]).toMatch(/^[0-9a-f]{64}$/);
  expect(await siteSecret(two, 'a')).toBe(first[0]);
  expect(await siteSecret(two, 'b')).not.toBe(first[0]);
});
