import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { createDatabase, type Database, type Db } from '../../src/platform/db/connection';
import { migrateToLatest } from '../../src/platform/db/migrate';
import type { DatabaseSchema } from '../../src/platform/db/schema';

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
  return testDialect() === 'sqlite' ? createSqliteDatabase() : createPostgresDatabase();
}

/**
 * A fresh database already at the latest schema: a copy of one migrated once per schema (by a
 * hash of the migrations and the connection code) rather than a migration per test. What apps and
 * most tests start from; the migrations themselves run on every empty database the server, command
 * and migration tests make with createTestDatabase.
 */
export async function createMigratedTestDatabase(): Promise<TestDatabase> {
  migratedTemplate ??= testDialect() === 'sqlite' ? sqliteTemplate() : postgresTemplate();
  return testDialect() === 'sqlite' ? createSqliteDatabase(await migratedTemplate) : createPostgresDatabase(await migratedTemplate);
}

/** The template's name, found or made once per test file rather than per database. */
let migratedTemplate: Promise<string> | undefined;

const DB_SOURCE_DIR = path.join(__dirname, '../../src/platform/db');

/** A hash of everything that decides what a migrated database holds, and of the dialect. */
function schemaHash(): string {
  const hash = createHash('sha256').update(testDialect());
  const migrationsDir = path.join(DB_SOURCE_DIR, 'migrations');
  const files = [...fs.readdirSync(migrationsDir).map((name) => path.join(migrationsDir, name)), path.join(DB_SOURCE_DIR, 'migrate.ts'), path.join(DB_SOURCE_DIR, 'connection.ts')];
  for (const file of files.sort()) hash.update(file).update(fs.readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

async function migrateAt(url: string): Promise<void> {
  const db = createDatabase(url);
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}

/** The migrated SQLite file every copy is made from, kept in the temporary folder across runs. */
async function sqliteTemplate(): Promise<string> {
  const template = path.join(os.tmpdir(), `agency-api-template-${schemaHash()}.sqlite`);
  if (fs.existsSync(template)) return template;
  // Migrated under a name of its own, then renamed: a reader never sees a half-made template, and
  // two workers making it together both rename a whole one.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-api-template-'));
  try {
    const file = path.join(dir, 'agency.sqlite');
    await migrateAt(`sqlite:${file}`);
    fs.renameSync(file, template);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return template;
}

function createSqliteDatabase(template?: string): TestDatabase {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-api-test-'));
  const file = path.join(dir, 'agency.sqlite');
  // Closed cleanly, the template has no write-ahead log: the one file is the whole database.
  if (template) fs.copyFileSync(template, file);
  return {
    url: `sqlite:${file}`,
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

function postgresServerUrl(): string {
  const serverUrl = process.env.TEST_POSTGRES_URL;
  if (!serverUrl) throw new Error('TEST_POSTGRES_URL is not set');
  return serverUrl;
}

/**
 * The connection that makes and drops a test file's databases (and its template), kept while they
 * come one after another: a new connection costs PostgreSQL about 25 ms of CPU, and a run makes
 * databases by the thousand, two connections each otherwise. Closed once idle for a while, so none outlives its file;
 * one that the server dropped meanwhile is simply opened again.
 */
let adminPool: pg.Pool | undefined;

function postgresAdmin(): pg.Pool {
  if (!adminPool) {
    adminPool = new pg.Pool({ connectionString: postgresServerUrl(), max: 1, idleTimeoutMillis: 2_000, allowExitOnIdle: true });
    adminPool.on('error', () => undefined);
  }
  return adminPool;
}

/** `work` on the admin connection alone, for what needs one session throughout (an advisory lock). */
async function withPostgresAdmin<T>(work: (admin: pg.PoolClient) => Promise<T>): Promise<T> {
  const admin = await postgresAdmin().connect();
  try {
    return await work(admin);
  } finally {
    admin.release();
  }
}

function postgresUrl(name: string): string {
  const url = new URL(postgresServerUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** The migrated PostgreSQL database every copy is made from, made once per server and schema. */
async function postgresTemplate(): Promise<string> {
  const name = `agency_template_${schemaHash()}`;
  return withPostgresAdmin(async (admin) => {
    // One maker at a time across workers; a template is only ever seen under its name whole.
    await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
    try {
      const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (rowCount === 0) {
        const draft = `${name}_draft`;
        await admin.query(`drop database if exists ${draft}`);
        await admin.query(`create database ${draft}`);
        await migrateAt(postgresUrl(draft));
        await admin.query(`alter database ${draft} rename to ${name}`);
      }
    } finally {
      await admin.query('select pg_advisory_unlock(hashtext($1))', [name]);
    }
    return name;
  });
}

async function createPostgresDatabase(template?: string): Promise<TestDatabase> {
  const name = `agency_test_${randomBytes(6).toString('hex')}`;
  await postgresAdmin().query(`create database ${name}${template ? ` template ${template}` : ''}`);
  return {
    url: postgresUrl(name),
    drop: async () => void (await postgresAdmin().query(`drop database if exists ${name} with (force)`)),
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
  const testDb = await createMigratedTestDatabase();
  const db = createDatabase(testDb.url);
  // The connection goes first: dropping the database under open PostgreSQL clients would
  // terminate them (pool errors), and SQLite's files would be removed under an open handle.
  const close = async () => {
    await db.destroy();
    await testDb.drop();
  };
  try {
    // Finds every migration applied (the copy is of a migrated database), and leaves the
    // connection open, as a test that closes it to fail the next query expects.
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

/** The files a SQLite database is made of while open: the main file, its write-ahead log and the log's index. */
export const SQLITE_FILE_SUFFIXES = ['', '-wal', '-shm'] as const;

/**
 * Which of `needles` each file of the SQLite database at `url` holds as raw bytes (UTF-8, as typed
 * and in lower case): `agency.sqlite-wal` → the needles found there. What reaches the disk, not
 * what queries see: deleted rows can outlive their deletion in pages and log frames.
 */
export function sqliteFilesHolding(url: string, needles: readonly string[]): Record<string, string[]> {
  const file = url.slice('sqlite:'.length);
  const found: Record<string, string[]> = {};
  for (const suffix of SQLITE_FILE_SUFFIXES) {
    if (!fs.existsSync(file + suffix)) continue;
    const bytes = fs.readFileSync(file + suffix);
    const held = needles.filter((needle) => [needle, needle.toLowerCase()].some((form) => bytes.includes(Buffer.from(form, 'utf8'))));
    if (held.length > 0) found[path.basename(file + suffix)] = held;
  }
  return found;
}
