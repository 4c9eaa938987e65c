import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../../../src/app';
import { createDatabase } from '../../../src/platform/db/connection';
import { startTestApp, testConfig, VALID_CONTACT } from '../../helpers/app';
import { testDialect } from '../../helpers/database';
import { answered, httpRequest } from '../../helpers/http';
import { asPerson } from '../../helpers/person-submission';
import { startDatabaseProxy } from '../../helpers/tcp-proxy';

/**
 * A process on `file` that holds SQLite's write lock (a transaction begun immediate, as a
 * migration's is) for `ms` milliseconds: resolves once it holds it, with a promise of its exit.
 */
function holdWriteLock(file: string, ms: number): Promise<{ exited: Promise<number | null> }> {
  const script = `
    const db = new (require(${JSON.stringify(require.resolve('better-sqlite3'))}))(${JSON.stringify(file)});
    db.exec('begin immediate; create table held (x)');
    process.stdout.write('held\\n');
    setTimeout(() => { db.exec('commit'); db.close(); }, ${ms});
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve({ exited }));
    child.once('exit', (code) => reject(new Error(`the lock holder exited (${code}) before holding the lock`)));
  });
}

(testDialect() === 'sqlite' ? describe : describe.skip)('opening a SQLite database another process is writing', () => {
  let dir: string;
  // An earlier test file in the same Jest worker loads the driver's native addon first, and its
  // errors then carry that module instance's class: opening must not depend on which one.
  beforeAll(async () => {
    await jest.isolateModulesAsync(async () => {
      const { default: Driver } = await import('better-sqlite3');
      new Driver(':memory:').close();
    });
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-connection-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  // Processes started together on a new file (two API replicas, a CLI beside a server) each
  // switch it to WAL as they open it while another may be migrating it: the switch must wait
  // for the other's lock, not fail the start with "database is locked".
  it('waits for the lock to be released instead of failing to open', async () => {
    const file = path.join(dir, 'site.sqlite');
    const holder = await holdWriteLock(file, 300);
    try {
      const db = createDatabase(`sqlite:${file}`);
      try {
        const { rows } = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db.kysely);
        expect(rows[0]?.journal_mode).toBe('wal');
        const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db.kysely);
        expect(tables.rows.map((row) => row.name)).toContain('held');
      } finally {
        await db.destroy();
      }
    } finally {
      expect(await holder.exited).toBe(0);
    }
  });
});

(testDialect() === 'postgres' ? describe : describe.skip)('a PostgreSQL transaction whose machine vanished', () => {
  // A machine that loses power mid-transaction sends the server nothing more, not even a close:
  // the transaction, and the lock its submission holds on the idempotency key, must not outlive it.
  it("is ended by the server, so the submission's retry on another process is stored, once", async () => {
    const site = await startTestApp();
    const { proxy, url: lostUrl } = await startDatabaseProxy(site.testDb.url);
    const lost = await buildApp({ config: testConfig(lostUrl) });
    const key = randomUUID();
    // A person's submission: each try sends the very same body (one token) under the key.
    const person = await asPerson(site, 'contact', VALID_CONTACT);
    const send = (baseUrl: string) => httpRequest(baseUrl, 'POST', '/api/contact', { json: person.json, headers: { ...person.headers, 'idempotency-key': key } });
    try {
      const lostBaseUrl = await lost.listen({ port: 0, host: '127.0.0.1' });
      // The first try's process has stored the lead in its transaction when its machine goes,
      // just before the commit reaches the server.
      const gone = proxy.freezeOn(new RegExp(`${key}[\\s\\S]*commit`, 'i'));
      void send(lostBaseUrl).catch(() => undefined);
      await gone;

      const retry = await answered(send(site.baseUrl), 15);
      expect(retry.statusCode).toBe(201);
      const stored = await site.db.kysely.selectFrom('contact_messages').select(['id', 'message']).where('idempotency_key', '=', key).execute();
      expect(stored).toEqual([{ id: retry.json<{ id: number }>().id, message: VALID_CONTACT.message }]);
    } finally {
      await proxy.close();
      await lost.close();
      await site.close();
    }
  }, 60_000);
});

(testDialect() === 'postgres' ? describe : describe.skip)('a PostgreSQL connection left idle', () => {
  // A new connection costs the server a process and an authentication, which on a busy machine
  // took longer than a request may wait for one: a quiet spell must not cost the next request that.
  it('is still the one a query gets after a quiet spell longer than the pool’s default 10 s', async () => {
    const site = await startTestApp();
    const db = createDatabase(site.testDb.url, { poolSize: 1 });
    const backend = async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db.kysely)).rows[0]!.pid;
    try {
      const before = await backend();
      await new Promise((resolve) => setTimeout(resolve, 11_000));
      expect(await backend()).toBe(before);
    } finally {
      await db.destroy();
      await site.close();
    }
  }, 30_000);
});
