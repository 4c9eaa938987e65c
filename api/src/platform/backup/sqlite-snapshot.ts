import { runWorkerProgram } from './worker-program';

/**
 * A worker's whole program. Everything SQLite does with a whole database runs synchronously, so it
 * runs on a thread of its own and the server's event loop keeps answering:
 * - snapshot: `VACUUM INTO` copies a consistent snapshot of a live database (a read transaction:
 *   writers in WAL mode go on), compacted; then the copy's rows are counted, so the manifest
 *   describes exactly what was copied;
 * - check: a restored copy's integrity and foreign keys, and the rows of the tables asked about.
 * Plain JavaScript: a worker cannot load TypeScript sources under the test runner.
 */
const SQLITE_PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
// The lowest priority for this thread (Linux keeps a nice value per thread): visitors' requests first.
try {
  require('node:os').setPriority(19);
} catch {}
const quoted = (name) => '"' + name.replace(/"/g, '""') + '"';

function countRows(db, tables) {
  const counts = {};
  for (const name of tables) counts[name] = db.prepare('select count(*) from ' + quoted(name)).pluck().get();
  return counts;
}

function snapshot({ source, target }) {
  const live = new Database(source, { readonly: true, fileMustExist: true, timeout: 10000 });
  try {
    live.prepare('VACUUM INTO ?').run(target);
  } finally {
    live.close();
  }
  const copy = new Database(target, { readonly: true, fileMustExist: true });
  try {
    const tables = copy.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite\\\\_%' escape '\\\\' order by name").pluck().all();
    const migration = copy.prepare('select name from kysely_migration order by name desc limit 1').pluck().get() ?? '';
    return { rowCounts: countRows(copy, tables), migration };
  } finally {
    copy.close();
  }
}

function check({ source, tables }) {
  const copy = new Database(source, { readonly: true, fileMustExist: true });
  try {
    const integrity = copy.pragma('integrity_check').map((row) => row.integrity_check).join('; ');
    const orphans = integrity === 'ok' ? copy.pragma('foreign_key_check').length : 0;
    return { integrity, orphans, rowCounts: integrity === 'ok' ? countRows(copy, tables) : {} };
  } finally {
    copy.close();
  }
}

try {
  parentPort.postMessage({ result: (workerData.task === 'snapshot' ? snapshot : check)(workerData) });
} catch (error) {
  parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
`;

function inWorker<T>(workerData: Record<string, unknown>): Promise<T> {
  return runWorkerProgram(SQLITE_PROGRAM, { ...workerData, driver: require.resolve('better-sqlite3') });
}

export interface SqliteSnapshot {
  rowCounts: Record<string, number>;
  migration: string;
}

/** Writes a consistent copy of the SQLite database `source` to the new file `target`, off the event loop. */
export function snapshotSqlite(source: string, target: string): Promise<SqliteSnapshot> {
  return inWorker({ task: 'snapshot', source, target });
}

export interface SqliteCheck {
  /** `ok`, or what SQLite's integrity check found. */
  integrity: string;
  /** Rows that point to rows that are not there. */
  orphans: number;
  rowCounts: Record<string, number>;
}

/** Checks the SQLite file `source` (a restored copy) off the event loop, counting the rows of `tables`. */
export function checkSqlite(source: string, tables: readonly string[]): Promise<SqliteCheck> {
  return inWorker({ task: 'check', source, tables });
}
