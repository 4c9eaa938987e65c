import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../db/dialect';

/**
 * Rows per table of the database (every table of ours, the migrations' own included): what a
 * manifest records and a restore drill compares.
 */
export async function tableRowCounts(kysely: Kysely<unknown>, dialect: DialectName): Promise<Record<string, number>> {
  const tables =
    dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' order by name`.execute(kysely)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(kysely);
  const counts: Record<string, number> = {};
  for (const { name } of tables.rows) {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(name)}`.execute(kysely);
    counts[name] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}

/** The newest migration the database ran ('' before the first). */
export async function latestMigration(kysely: Kysely<unknown>): Promise<string> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(kysely);
  return rows[0]?.name ?? '';
}
