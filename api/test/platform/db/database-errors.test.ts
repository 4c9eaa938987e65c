import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { isDatabaseUnavailable, isSqliteBusy, isUniqueViolation } from '../../../src/platform/db/database-errors';
import { createTestDatabase, testDialect, type TestDatabase } from '../../helpers/database';
import { eventually } from '../../helpers/eventually';
import { freePort } from '../../helpers/server-process';
import { startTcpProxy } from '../../helpers/tcp-proxy';

// What the API makes of a database error: "unavailable" answers 503 (retry later), a unique
// violation on an idempotency key is a retry of a stored submission, anything else is a 500.

/** The error `run` throws (or rejects with); fails the test when it does not throw. */
async function errorOf(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

/** An error as pg reports one the server sent, with its SQLSTATE. */
function serverError(code: string, message: string): pg.DatabaseError {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.code = code;
  error.severity = 'FATAL';
  return error;
}

describe('SQLite (better-sqlite3)', () => {
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-db-errors-'));
  });

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a second row under a unique index is a unique violation, not an unavailable database', async () => {
    const sqlite = new BetterSqlite3(':memory:');
    try {
      sqlite.exec('create table leads (key text); create unique index leads_key on leads (key)');
      sqlite.prepare('insert into leads (key) values (?)').run('k-1');
      const error = await errorOf(() => sqlite.prepare('insert into leads (key) values (?)').run('k-1'));
      expect(error).toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
      expect(isUniqueViolation(error)).toBe(true);
      expect(isDatabaseUnavailable(error)).toBe(false);
      expect(isSqliteBusy(error)).toBe(false);
    } finally {
      sqlite.close();
    }
  });

  it('a NOT NULL or CHECK constraint is neither', async () => {
    const sqlite = new BetterSqlite3(':memory:');
    try {
      sqlite.exec('create table leads (name text not null, age integer check (age > 0))');
      for (const error of [
        await errorOf(() => sqlite.prepare('insert into leads (name) values (null)').run()),
        await errorOf(() => sqlite.prepare('insert into leads (name, age) values (?, ?)').run('Олена', -1)),
      ]) {
        expect(error).toMatchObject({ code: expect.stringMatching(/^SQLITE_CONSTRAINT_/) });
        expect(isUniqueViolation(error)).toBe(false);
        expect(isDatabaseUnavailable(error)).toBe(false);
      }
    } finally {
      sqlite.close();
    }
  });

  it('a write lock held by another connection past the busy timeout is an unavailable database', async () => {
    const file = path.join(dir, 'locked.sqlite');
    const holder = new BetterSqlite3(file);
    const writer = new BetterSqlite3(file);
    try {
      holder.pragma('journal_mode = WAL');
      holder.exec('create table leads (name text)');
      writer.pragma('busy_timeout = 0');
      holder.exec('begin immediate');
      const error = await errorOf(() => writer.prepare('insert into leads (name) values (?)').run('Олена'));
      expect(error).toMatchObject({ code: expect.stringMatching(/^SQLITE_BUSY/) });
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(isSqliteBusy(error)).toBe(true);
      expect(isUniqueViolation(error)).toBe(false);
    } finally {
      holder.close();
      writer.close();
    }
  });
});

describe('PostgreSQL connections (pg)', () => {
  it('a refused connection (nothing listening) is an unavailable database', async () => {
    const port = await freePort();
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'agency', database: 'agency' });
    const error = await errorOf(() => client.connect());
    expect(error).toMatchObject({ code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isUniqueViolation(error)).toBe(false);
  });

  it('a server that never answers, past the pool connection timeout, is an unavailable database', async () => {
    const blackHole = await startTcpProxy({ host: '127.0.0.1', port: await freePort() });
    blackHole.cut();
    const pool = new pg.Pool({ host: '127.0.0.1', port: blackHole.port, user: 'agency', database: 'agency', connectionTimeoutMillis: 100 });
    try {
      const error = await errorOf(() => pool.query('select 1'));
      expect(error).toMatchObject({ message: expect.stringMatching(/timeout/i) });
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await pool.end();
      await blackHole.close();
    }
  });

  it('a connection the server ends during the handshake is an unavailable database', async () => {
    const server = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'agency', database: 'agency' });
    try {
      const error = await errorOf(() => client.connect());
      expect(error).toMatchObject({ message: expect.stringMatching(/Connection terminated/) });
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('PostgreSQL SQLSTATEs', () => {
  it.each([
    ['57P01', 'terminating connection due to administrator command'],
    ['57P02', 'terminating connection due to crash of another server process'],
    ['57P03', 'the database system is starting up'],
    ['08006', 'connection failure'],
    ['08001', 'could not connect to server'],
    ['53300', 'sorry, too many clients already'],
  ])('%s (%s) is an unavailable database', (code, message) => {
    const error = serverError(code, message);
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isUniqueViolation(error)).toBe(false);
  });

  it('23505 is a unique violation, not an unavailable database', () => {
    const error = serverError('23505', 'duplicate key value violates unique constraint "contact_messages_idempotency_key_idx"');
    expect(isUniqueViolation(error)).toBe(true);
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it.each([
    ['23502', 'null value in column "name" of relation "contact_messages" violates not-null constraint'],
    ['23503', 'insert or update on table "lead_outbox" violates foreign key constraint'],
    ['23514', 'new row for relation "contact_messages" violates check constraint'],
    ['42P01', 'relation "contact_message" does not exist'],
    ['25006', 'cannot execute INSERT in a read-only transaction'],
  ])('%s (%s) is neither', (code, message) => {
    const error = serverError(code, message);
    expect(isDatabaseUnavailable(error)).toBe(false);
    expect(isUniqueViolation(error)).toBe(false);
  });
});

it.each([undefined, null, 'ECONNREFUSED', 42, new Error('something else went wrong'), { code: 57 }])('%p is neither', (value) => {
  expect(isDatabaseUnavailable(value)).toBe(false);
  expect(isUniqueViolation(value)).toBe(false);
});

// Errors a real PostgreSQL server sends; the api-postgres project has one.
(testDialect() === 'postgres' ? describe : describe.skip)('PostgreSQL server errors', () => {
  let testDb: TestDatabase;

  beforeAll(async () => {
    testDb = await createTestDatabase();
  });

  afterAll(async () => {
    await testDb.drop();
  });

  async function connected(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: testDb.url });
    await client.connect();
    return client;
  }

  it('a second row under a unique index is a unique violation; a NOT NULL violation is not; neither is unavailable', async () => {
    const client = await connected();
    try {
      await client.query('create table leads (key text unique, name text not null)');
      await client.query(`insert into leads values ('k-1', 'Олена')`);
      const duplicate = await errorOf(() => client.query(`insert into leads values ('k-1', 'Андрій')`));
      expect(duplicate).toMatchObject({ code: '23505' });
      expect(isUniqueViolation(duplicate)).toBe(true);
      expect(isDatabaseUnavailable(duplicate)).toBe(false);

      const missing = await errorOf(() => client.query(`insert into leads values ('k-2', null)`));
      expect(missing).toMatchObject({ code: '23502' });
      expect(isUniqueViolation(missing)).toBe(false);
      expect(isDatabaseUnavailable(missing)).toBe(false);
    } finally {
      await client.end();
    }
  });

  it('a connection the server terminates (57P01), and the dead client after it, are an unavailable database', async () => {
    const client = await connected();
    const admin = await connected();
    // The server's 57P01 comes first, then pg's own error for the connection it closed.
    const errors: Error[] = [];
    client.on('error', (error) => errors.push(error));
    try {
      const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
      await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      await eventually('the termination reported', () => errors.length, (count) => count > 0);
      expect(errors[0]).toMatchObject({ code: '57P01' });

      const afterwards = await errorOf(() => client.query('select 1'));
      for (const error of [...errors, afterwards]) expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await admin.end();
      await client.end().catch(() => undefined);
    }
  });
});
