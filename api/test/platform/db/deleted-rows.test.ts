import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { createDatabase, type Database } from '../../../src/platform/db/connection';
import { checkpointAndTruncateWal, vacuumTables, WalBusyError } from '../../../src/platform/db/deleted-rows';
import { createTestDatabase, testDialect, type TestDatabase } from '../../helpers/database';

const SECRET = 'someone@example.com';

(testDialect() === 'sqlite' ? describe : describe.skip)('the SQLite write-ahead log after a delete', () => {
  let dir: string;
  let file: string;
  let db: Database;
  /** Another connection to the file, as another process (a CLI, a second API process) would hold. */
  let other: BetterSqlite3.Database;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-deleted-rows-'));
    file = path.join(dir, 'site.sqlite');
    db = createDatabase(`sqlite:${file}`);
    other = new BetterSqlite3(file);
    await sql`create table people (email text)`.execute(db.kysely);
    await sql`insert into people values (${SECRET})`.execute(db.kysely);
    await sql`delete from people`.execute(db.kysely);
  });

  afterEach(async () => {
    other.close();
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const walHolds = () => fs.readFileSync(`${file}-wal`).includes(SECRET);
  const busyTimeout = async () => (await sql<{ timeout: number }>`pragma busy_timeout`.execute(db.kysely)).rows[0]?.timeout;

  it('keeps the deleted row in the log until it is checkpointed and truncated', async () => {
    expect(walHolds()).toBe(true);
    await checkpointAndTruncateWal(db);
    expect(fs.statSync(`${file}-wal`).size).toBe(0);
    expect(fs.readFileSync(file).includes(SECRET)).toBe(false);
  });

  it('waits, without holding the event loop, for a reader to leave the log', async () => {
    other.exec('begin');
    other.prepare('select count(*) from people').get();
    // Ended by a timer of this process: the checkpoint can only finish if its waits let timers run.
    const released = new Promise<void>((resolve) => setTimeout(() => resolve(void other.exec('commit')), 300));
    const started = Date.now();
    await checkpointAndTruncateWal(db);
    await released;
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(fs.statSync(`${file}-wal`).size).toBe(0);
    // The connection's own busy timeout is back for everything else.
    expect(await busyTimeout()).toBe(5000);
  });

  it('gives up with WalBusyError when the log stays in use past the wait', async () => {
    other.exec('begin');
    other.prepare('select count(*) from people').get();
    try {
      await expect(checkpointAndTruncateWal(db, 200)).rejects.toBeInstanceOf(WalBusyError);
      expect(walHolds()).toBe(true);
      expect(await busyTimeout()).toBe(5000);
    } finally {
      other.exec('commit');
    }
    await checkpointAndTruncateWal(db);
    expect(walHolds()).toBe(false);
  });
});

(testDialect() === 'postgres' ? describe : describe.skip)('PostgreSQL tables after a delete', () => {
  let testDb: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = createDatabase(testDb.url, { poolSize: 2 });
  });

  afterAll(async () => {
    await db.destroy();
    await testDb.drop();
  });

  it('vacuums the tables named, and only those', async () => {
    await sql`create table people (id serial primary key, email text)`.execute(db.kysely);
    await sql`create table others (id serial primary key)`.execute(db.kysely);
    await sql`insert into people (email) select 'person' || n || '@example.com' from generate_series(1, 200) as n`.execute(db.kysely);
    await sql`delete from people where id <= 100`.execute(db.kysely);
    const vacuumed = async () =>
      (await sql<{ relname: string }>`select relname from pg_stat_user_tables where last_vacuum is not null order by relname`.execute(db.kysely)).rows.map((row) => row.relname);
    expect(await vacuumed()).toEqual([]);
    await vacuumTables(db, ['people']);
    expect(await vacuumed()).toEqual(['people']);
    await vacuumTables(db, []);
    // Nothing to do on PostgreSQL's side for the SQLite log.
    await expect(checkpointAndTruncateWal(db)).resolves.toBeUndefined();
  });
});
