/**
 * What a database error means for the request that met it. Both drivers are read: pg (PostgreSQL
 * SQLSTATE codes and Node's socket errors) and better-sqlite3 (SQLITE_* codes).
 */

interface DriverError {
  code?: unknown;
  message?: unknown;
}

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code } = error as DriverError;
  return typeof code === 'string' ? code : undefined;
}

function messageOf(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '';
  const { message } = error as DriverError;
  return typeof message === 'string' ? message : '';
}

/** The same key or value is already stored (a unique index): PostgreSQL 23505, SQLite's UNIQUE constraint. */
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * SQLite's lock is held by another connection (SQLITE_BUSY and its extended codes). Read from the
 * code, not the error's class: the native addon keeps the class of the first module instance
 * that loaded it.
 */
export function isSqliteBusy(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'SQLITE_BUSY' || (code?.startsWith('SQLITE_BUSY_') ?? false);
}

/** Socket errors of a database connection that could not be made or was lost. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/** pg's own messages when a connection is not there (no code): pool timeout, connection ended. */
const LOST_CONNECTION = /timeout exceeded when trying to connect|Connection terminated|connection timeout|Client has encountered a connection error|not queryable/i;

/**
 * The database cannot answer now, but may in a moment: it is unreachable, restarting, shutting
 * down, out of connections, or (SQLite) locked by another writer past the busy timeout. The
 * request was not carried out; the same request later can succeed. Anything else (a constraint,
 * a bug in a query) is not this.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = codeOf(error);
  if (code !== undefined) {
    if (NETWORK_CODES.has(code)) return true;
    // 08: connection exceptions; 57P01-57P03: admin or crash shutdown, not accepting connections
    // yet; 53300: too many connections.
    if (/^08[0-9A-Z]{3}$/.test(code) || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') return true;
    if (isSqliteBusy(error) || code === 'SQLITE_LOCKED') return true;
  }
  return LOST_CONNECTION.test(messageOf(error));
}
