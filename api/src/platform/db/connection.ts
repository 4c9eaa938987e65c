import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import { ensureParentDir } from '../config';
import { isSqliteBusy } from './database-errors';
import { dialectFromUrl, type Dialect } from './dialect';
import { withStatementCache } from './sqlite-statement-cache';
import type { DatabaseSchema } from './schema';

export interface Database {
  kysely: Kysely<DatabaseSchema>;
  dialect: Dialect;
  /** Changes how long a query waits for a new PostgreSQL connection from now on (SQLite has none to wait for). */
  setConnectTimeout(ms: number): void;
  destroy(): Promise<void>;
}

/**
 * What repository code takes: the database, or a transaction on it with the same dialect. The
 * queries are shared by both dialects; see ./dialect.ts for what differs.
 */
export type Db = Pick<Database, 'kysely' | 'dialect'>;

export interface DatabaseOptions {
  /** PostgreSQL pool size per process. */
  poolSize?: number;
  /** Errors of idle pooled PostgreSQL clients (e.g. the server restarted); without a handler they crash the process. */
  onPoolError?: (error: Error) => void;
  /** How long a query waits for a PostgreSQL connection (none by default: the CLI may reach far). */
  connectTimeoutMs?: number;
  /** Every query's end, succeeded or failed (Kysely's log events). */
  onQuery?: (event: LogEvent) => void;
}

/**
 * How long PostgreSQL lets a session of ours sit in an open transaction with no statement running
 * before it ends the session (rolling the transaction back). Our transactions run their statements
 * back to back, so a transaction idle this long belongs to a process that died or a machine that
 * vanished mid-way; the server would otherwise keep it, and its locks, for hours (until TCP gives
 * up). A submission holds its idempotency key's lock: its retry, reaching another process, waits
 * on that lock and is stored once this ends it, well within the time the form keeps retrying.
 */
export const PG_IDLE_IN_TRANSACTION_TIMEOUT_MS = 5_000;

/**
 * How long a pooled PostgreSQL connection may sit unused before it is closed: minutes, not the
 * pool's default 10 s. A new connection costs the server a process and an authentication; on a
 * busy machine that took longer than a query may wait for one (DATABASE_CONNECT_TIMEOUT_MS), so a
 * process that had let its connections go between two bursts of requests answered them 503. A
 * process holds at most its pool's few connections, far below the server's limit.
 */
export const PG_POOL_IDLE_TIMEOUT_MS = 5 * 60_000;

/** How long opening waits for another process's write lock before giving up. */
const SQLITE_LOCK_WAIT_MS = 5000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Switches the file to WAL. That takes a write lock while the statement already holds a read
 * lock, and SQLite answers BUSY at once there instead of calling the busy handler (waiting could
 * deadlock). Processes opening one new file together (API replicas, a CLI beside a server) hit
 * it, so the switch is retried until the lock wait is spent. It runs once, at start-up.
 */
function switchToWal(sqlite: BetterSqlite3.Database): void {
  const deadline = Date.now() + SQLITE_LOCK_WAIT_MS;
  for (;;) {
    try {
      sqlite.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if (!isSqliteBusy(error) || Date.now() >= deadline) throw error;
      sleepSync(10 + Math.random() * 40);
    }
  }
}

function openSqlite(file: string): BetterSqlite3.Database {
  if (file !== ':memory:') ensureParentDir(file);
  const sqlite = new BetterSqlite3(file, { timeout: SQLITE_LOCK_WAIT_MS });
  // WAL lets readers run during a write; synchronous=FULL fsyncs the WAL on every commit,
  // so a 201 (sent after the commit) survives a killed process and a power cut alike.
  switchToWal(sqlite);
  sqlite.pragma('synchronous = FULL');
  // Deleted rows are overwritten, not just unlinked: a lead erased on request or past its
  // retention must not linger in the file's free pages.
  sqlite.pragma('secure_delete = ON');
  sqlite.pragma('foreign_keys = ON');
  return sqlite;
}

/** Opens the database named by DATABASE_URL (`sqlite:<absolute path>` or `postgres://…`). */
export function createDatabase(url: string, options: DatabaseOptions = {}): Database {
  const dialect = dialectFromUrl(url);
  let kysely: Kysely<DatabaseSchema>;
  let pool: pg.Pool | undefined;
  if (dialect.name === 'sqlite') {
    kysely = new Kysely<DatabaseSchema>({
      dialect: new SqliteDialect({ database: withStatementCache(openSqlite(url.slice('sqlite:'.length))) }),
      log: options.onQuery,
    });
  } else {
    pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 0,
      idleTimeoutMillis: PG_POOL_IDLE_TIMEOUT_MS,
      // Idle connections do not keep a process alive (a CLI command that is done exits).
      allowExitOnIdle: true,
      idle_in_transaction_session_timeout: PG_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    });
    pool.on('error', (error) => (options.onPoolError ?? ((e: Error) => console.error('PostgreSQL pool error:', e.message)))(error));
    // The pool listens for errors of idle clients only. A client taken from it but between two
    // queries when the server goes away (a restart sends every client 57P01) would emit an
    // 'error' nobody handles, and so end the process. Its next query fails instead, and that
    // request is answered 503 (see database-errors.ts).
    pool.on('connect', (client) => client.on('error', () => undefined));
    kysely = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }), log: options.onQuery });
  }
  let destroyed: Promise<void> | undefined;
  return {
    kysely,
    dialect,
    setConnectTimeout(ms) {
      // The pool reads its options at every connect.
      if (pool) pool.options.connectionTimeoutMillis = ms;
    },
    destroy() {
      destroyed ??= kysely.destroy();
      return destroyed;
    },
  };
}
