import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** How many distinct statements stay prepared (the API runs a few dozen; lists of ids vary). */
const CACHED_STATEMENTS = 500;

/**
 * The database as Kysely's SQLite dialect sees it, with its statements kept prepared: the dialect
 * prepares every query anew, and preparing costs about as much as running a short insert, so a
 * submission (several statements in one transaction) spent a good part of its time there. The
 * least recently used statement is dropped past CACHED_STATEMENTS; a statement still iterating
 * a streamed result is never handed out twice.
 */
export function withStatementCache(sqlite: BetterSqlite3.Database): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement?.busy) return sqlite.prepare(sql);
      if (statement) {
        statements.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (statements.size >= CACHED_STATEMENTS) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}
