import { sql, type Kysely, type Transaction } from 'kysely';
import type { DatabaseSchema } from './schema';

/**
 * Every difference between SQLite (better-sqlite3) and PostgreSQL (pg) that the
 * repository code meets lives here:
 * - timestamps: SQLite stores ISO 8601 text (`2026-03-04T09:15:00.000Z`, sortable as text),
 *   PostgreSQL `timestamptz` (pg reads it back as a Date). Bound values differ too:
 *   better-sqlite3 refuses a Date.
 * - JSON (`services.features`): SQLite `text`, PostgreSQL `jsonb`; both are written as a
 *   JSON string, read back as a string (SQLite) or an already-parsed value (PostgreSQL).
 * - aggregate counts: number on SQLite, string (bigint) on PostgreSQL.
 * - ids: both dialects support `insert … returning id`, which the repository uses
 *   (SQLite's insertId is a bigint and pg has none).
 * - booleans: the schema deliberately has no boolean columns (SQLite would return 0/1).
 * - a cross-process write lock for one-off work such as seeding.
 * - row locks: PostgreSQL claims outbox rows with `FOR UPDATE SKIP LOCKED`; SQLite has no row
 *   locks and needs none (one writer at a time, so a claiming UPDATE is atomic anyway).
 * The migrations keep their own copy of the DDL differences, because they are frozen.
 */
export type DialectName = 'sqlite' | 'postgres';

export interface Dialect {
  name: DialectName;
  /** A value to bind for a timestamp column. */
  timestamp(date: Date): string | Date;
  /** Any stored timestamp → ISO 8601 string in UTC. */
  readTimestamp(value: unknown): string;
  /** A value to bind for a JSON column. */
  json(value: unknown): string;
  readStringArray(value: unknown): string[];
  readCount(value: unknown): number;
  /** Whether `select … for update skip locked` exists (PostgreSQL). */
  skipLocked: boolean;
  /**
   * Runs `work` in a transaction that holds a database-wide write lock, so that two
   * processes starting together on the same database run it one after the other.
   */
  withWriteLock<T>(db: Kysely<DatabaseSchema>, work: (trx: Kysely<DatabaseSchema>) => Promise<T>): Promise<T>;
}

function toIso(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') {
    // SQLite's CURRENT_TIMESTAMP style ('YYYY-MM-DD HH:MM:SS') is UTC without a marker.
    const normalized = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?$/.test(value)
      ? `${value.replace(' ', 'T')}Z`
      : value;
    const date = new Date(normalized);
    if (!Number.isNaN(date.getTime())) return date.toISOString();
  }
  throw new Error(`Unreadable timestamp: ${String(value)}`);
}

function readStringArray(value: unknown): string[] {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  if (!Array.isArray(parsed)) return [];
  return parsed.filter((item): item is string => typeof item === 'string');
}

const common = {
  readTimestamp: toIso,
  json: (value: unknown) => JSON.stringify(value),
  readStringArray,
  readCount: (value: unknown) => Number(value),
};

/** Any constant: the advisory lock key used by withWriteLock on PostgreSQL. */
const PG_WRITE_LOCK_KEY = 739_104_552;

export const sqliteDialect: Dialect = {
  ...common,
  name: 'sqlite',
  skipLocked: false,
  timestamp: (date) => date.toISOString(),
  async withWriteLock(db, work) {
    // BEGIN IMMEDIATE takes SQLite's write lock up front (waiting up to busy_timeout),
    // instead of failing when a deferred transaction tries to upgrade its lock.
    return db.connection().execute(async (connection) => {
      await sql`begin immediate`.execute(connection);
      try {
        const result = await work(connection);
        await sql`commit`.execute(connection);
        return result;
      } catch (error) {
        await sql`rollback`.execute(connection);
        throw error;
      }
    });
  },
};

export const postgresDialect: Dialect = {
  ...common,
  name: 'postgres',
  skipLocked: true,
  timestamp: (date) => date,
  async withWriteLock(db, work) {
    return db.transaction().execute(async (trx: Transaction<DatabaseSchema>) => {
      await sql`select pg_advisory_xact_lock(${PG_WRITE_LOCK_KEY})`.execute(trx);
      return work(trx);
    });
  },
};

export function dialectFromUrl(url: string): Dialect {
  if (url.startsWith('sqlite:')) return sqliteDialect;
  if (/^postgres(ql)?:\/\//.test(url)) return postgresDialect;
  throw new Error('DATABASE_URL must start with sqlite: or postgres://');
}
