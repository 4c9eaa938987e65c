import type { Database } from '../../../src/platform/db/connection';
import { SiteLease } from '../../../src/platform/scheduling/site-lease';
import { openMigratedTestDatabase, type MigratedTestDatabase } from '../../helpers/database';

let testDb: MigratedTestDatabase;
let db: Database;
beforeAll(async () => {
  testDb = await openMigratedTestDatabase();
  db = testDb.db;
});
afterAll(() => testDb.close());

describe('SiteLease', () => {
  it('is held by one process at a time, renewed by its holder, and taken over only once it lapses', async () => {
    let now = 1_000_000;
    const clock = () => now;
    const first = new SiteLease(db, 'decisions', 5000, clock);
    const second = new SiteLease(db, 'decisions', 5000, clock);
    expect(await first.acquire()).toBe(true);
    expect(await second.acquire()).toBe(false);
    now += 4000;
    expect(await first.acquire()).toBe(true);
    now += 4000;
    // Renewed 4 s ago with 5 s to live: still the first one's.
    expect(await second.acquire()).toBe(false);
    now += 1001;
    expect(await second.acquire()).toBe(true);
    expect(await first.acquire()).toBe(false);
  });

  it('is free for another at once when its holder gives it up, and other leases are apart', async () => {
    const first = new SiteLease(db, 'apart', 60_000);
    const second = new SiteLease(db, 'apart', 60_000);
    const other = new SiteLease(db, 'other', 60_000);
    expect(await first.acquire()).toBe(true);
    expect(await other.acquire()).toBe(true);
    expect(await second.acquire()).toBe(false);
    await first.release();
    expect(await second.acquire()).toBe(true);
  });

  it('lets exactly one of many processes asking at the same moment hold it', async () => {
    const leases = Array.from({ length: 8 }, () => new SiteLease(db, 'race', 60_000));
    const held = await Promise.all(leases.map((lease) => lease.acquire()));
    expect(held.filter(Boolean)).toHaveLength(1);
  });
});
