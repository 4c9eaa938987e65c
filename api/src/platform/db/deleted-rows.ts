import { setTimeout as delay } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Db } from './connection';
import { isSqliteBusy } from './database-errors';

/**
 * What a deletion leaves in the database's own files, cleared as far as each dialect allows, for
 * deletions a person asked for. `db` is the database, never a transaction: both statements
 * refuse to run inside one.
 */

/** How long a checkpoint waits for other connections to leave the WAL before giving up. */
export const WAL_TRUNCATE_WAIT_MS = 10_000;
const WAL_RETRY_PAUSE_MS = 50;

/** The WAL stayed in use by other connections (another process reading or writing) past the wait. */
export class WalBusyError extends Error {
  constructor() {
    super(`the SQLite write-ahead log was still in use after ${WAL_TRUNCATE_WAIT_MS} ms and could not be truncated`);
    this.name = 'WalBusyError';
  }
}

interface CheckpointRow {
  busy: number;
  log: number;
  checkpointed: number;
}

/** One try: whether the WAL was copied into the main file and truncated to zero bytes. */
async function truncateOnce(db: Db): Promise<boolean> {
  // One connection held throughout, so the busy timeout of 0 applies to the checkpoint alone.
  // With the usual 5 s, SQLite would wait for other connections' readers inside the synchronous
  // call, holding the event loop; the waiting is done here instead, between tries.
  return db.kysely.connection().execute(async (connection) => {
    const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(connection);
    const timeout = Number(rows[0]?.timeout ?? 0);
    await sql.raw('pragma busy_timeout = 0').execute(connection);
    try {
      const result = await sql<CheckpointRow>`pragma wal_checkpoint(TRUNCATE)`.execute(connection);
      // busy is 1 when a reader or writer kept it from finishing; a database not in WAL mode answers 0.
      return result.rows[0]?.busy === 0;
    } catch (error) {
      if (isSqliteBusy(error)) return false;
      throw error;
    } finally {
      await sql.raw(`pragma busy_timeout = ${timeout}`).execute(connection);
    }
  });
}

/**
 * SQLite: copies every frame of the write-ahead log into the main file and truncates the log to
 * zero bytes. Until then the `-wal` file keeps the pages as they were before a delete (the main
 * file's copies are overwritten, `secure_delete`), and SQLite's own checkpoints never truncate it.
 * Retried while other connections keep it in use; WalBusyError past WAL_TRUNCATE_WAIT_MS.
 * Nothing to do on PostgreSQL.
 */
export async function checkpointAndTruncateWal(db: Db, waitMs = WAL_TRUNCATE_WAIT_MS): Promise<void> {
  if (db.dialect.name !== 'sqlite') return;
  const deadline = Date.now() + waitMs;
  while (!(await truncateOnce(db))) {
    if (Date.now() >= deadline) throw new WalBusyError();
    await delay(WAL_RETRY_PAUSE_MS);
  }
}

/**
 * PostgreSQL: vacuums the tables rows were deleted from, so their space (and their index
 * entries: INDEX_CLEANUP ON, which a plain VACUUM may skip when few pages changed) is free for
 * the next rows to overwrite now rather than when autovacuum gets to a table, about a fifth of
 * which must change first. It does not overwrite the bytes itself. Milliseconds on tables of this
 * size, and its lock does not block reads or writes. Nothing to do on SQLite.
 */
export async function vacuumTables(db: Db, tables: readonly string[]): Promise<void> {
  if (db.dialect.name !== 'postgres' || tables.length === 0) return;
  await sql`vacuum (index_cleanup on) ${sql.join(tables.map((table) => sql.table(table)))}`.execute(db.kysely);
}

/** Both of the above: what `tables` lost leaves the database's files (SQLite) or is freed to be overwritten (PostgreSQL). */
export async function clearDeletedRows(db: Db, tables: readonly string[]): Promise<void> {
  await checkpointAndTruncateWal(db);
  await vacuumTables(db, tables);
}
