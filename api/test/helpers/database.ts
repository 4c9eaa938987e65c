import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { createDatabase, type Database, type Db } from '../../src/db/connection';
import { migrateToLatest } from '../../src/db/migrate';
import type { DatabaseSchema } from '../../src/db/schema';

export type TestDialect = 'sqlite' | 'postgres';

export function testDialect(): TestDialect {
  return process.env.TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
}

export interface TestDatabase {
  url: string;
  /** Removes the database (drops it, or deletes the SQLite files). */
  drop(): Promise<void>;
}

/** A fresh, empty database for one test file: a temp SQLite file or a new PostgreSQL database. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDialect() === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-api-test-'));
    return {
      url: `sqlite:${path.join(dir, 'agency.sqlite')}`,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const serverUrl = process.env.TEST_POSTGRES_URL;
  if (!serverUrl) throw new Error('TEST_POSTGRES_URL is not set');
  const name = `agency_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

export interface MigratedTestDatabase {
  url: string;
  /** Open on `url`, the schema migrated to the latest version. */
  db: Database;
  /** Closes `db`, then removes the database. */
  close(): Promise<void>;
}

/**
 * A fresh database at the latest schema, opened: what most tests start from. One per test file
 * (beforeAll) or per test (beforeEach), so that no test sees another file's or test's rows; pair
 * it with `close()` in the matching afterAll/afterEach.
 */
export async function openMigratedTestDatabase(): Promise<MigratedTestDatabase> {
  const testDb = await createTestDatabase();
  let db: Database | undefined;
  // The connection goes first: dropping the database under open PostgreSQL clients would
  // terminate them (pool errors), and SQLite's files would be removed under an open handle.
  const close = async () => {
    await db?.destroy();
    await testDb.drop();
  };
  try {
    db = createDatabase(testDb.url);
    await migrateToLatest(db);
  } catch (error) {
    await close();
    throw error;
  }
  return { url: testDb.url, db, close };
}

/** How many rows a table holds (whatever the dialect returns a count as). */
export async function countRows(db: Db, table: keyof DatabaseSchema): Promise<number> {
  const row = await db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow();
  return db.dialect.readCount(row.count);
}

/**
 * Whether SQLite's search index still stores `term` (a lower-case word as the index folds it) in
 * its segments, where a deleted row's words can outlive the row. Only a term that shares no first
 * letter with another indexed word is stored whole, so pick one like that. PostgreSQL keeps its
 * search text in a column, which `textColumnsHolding` scans.
 */
export async function sqliteSearchIndexHolds(db: Db, term: string): Promise<boolean> {
  const { rows } = await sql<{ block: Uint8Array | null }>`select block from lead_search_data`.execute(db.kysely);
  const wanted = Buffer.from(term, 'utf8');
  return rows.some(({ block }) => block !== null && Buffer.from(block).includes(wanted));
}

/**
 * Every text column of every table (the search index's own tables too) whose value contains one
 * of `needles` (case-insensitive): `table.column` → rows. What "nothing holds this person" is
 * checked against.
 */
export async function textColumnsHolding(db: Db, needles: readonly string[]): Promise<Record<string, number>> {
  const columns: { table: string; column: string }[] = [];
  if (db.dialect.name === 'postgres') {
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' and data_type in ('text', 'character varying', 'json', 'jsonb', 'tsvector')`.execute(db.kysely);
    for (const row of rows) columns.push({ table: row.table_name, column: row.column_name });
  } else {
    const { rows: tables } = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db.kysely);
    for (const { name } of tables) {
      const { rows } = await sql<{ name: string; type: string }>`select name, type from pragma_table_info(${name})`.execute(db.kysely);
      // FTS5 declares no types: its columns hold text.
      for (const column of rows) if (column.type === '' || /text|char|clob/i.test(column.type)) columns.push({ table: name, column: column.name });
    }
  }
  // Compared here, not in SQL: SQLite's lower() and LIKE fold ASCII letters only.
  const wanted = needles.map((needle) => needle.toLowerCase());
  const found: Record<string, number> = {};
  for (const { table, column } of columns) {
    const { rows } = await sql<{ value: string | null }>`select cast(${sql.ref(column)} as text) as value from ${sql.table(table)}`.execute(db.kysely);
    const count = rows.filter(({ value }) => value !== null && wanted.some((needle) => value.toLowerCase().includes(needle))).length;
    if (count > 0) found[`${table}.${column}`] = count;
  }
  return found;
}
