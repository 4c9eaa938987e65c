import { sql, type Transaction } from 'kysely';
import type { Database } from '../../platform/db/connection';
import type { DatabaseSchema } from '../../platform/db/schema';
import { TELEMETRY_BUDGET, type TelemetryBudget, type TelemetryTable } from '../../platform/config/telemetry';

/**
 * The order each table's rows go in: by the minute they age by, the oldest first, then by their
 * primary key, so that rows of one minute (a flood's) go some, not all, at a time.
 */
const PRUNE_ORDER = {
  telemetry_minutes: ['minute', 'app', 'release', 'page', 'kind', 'bucket'],
  telemetry_error_minutes: ['minute', 'app', 'release', 'fingerprint'],
  telemetry_errors: ['last_minute', 'app', 'release', 'fingerprint'],
  telemetry_clients: ['last_minute', 'app', 'release', 'kind', 'client'],
  visit_sessions: ['first_minute', 'id'],
} as const satisfies Record<TelemetryTable, readonly string[]>;

/** A table over its budget is pruned to this share of it, so it is not pruned again at every write. */
const PRUNED_TO = 0.9;

type Db = Database['kysely'] | Transaction<DatabaseSchema>;

async function countRows(db: Db, dialect: Database['dialect'], table: TelemetryTable): Promise<number> {
  const row = await db.selectFrom(table).select(sql<number | string>`count(*)`.as('rows')).executeTakeFirstOrThrow();
  return dialect.readCount(row.rows);
}

/**
 * Keeps `table` within its budget: when it holds more rows, the oldest are deleted until nine
 * tenths of the budget are left. Resolves with the rows it holds after, and how many were deleted.
 */
export async function pruneToBudget(db: Db, dialect: Database['dialect'], table: TelemetryTable, budget: number): Promise<{ rows: number; deleted: number }> {
  const rows = await countRows(db, dialect, table);
  if (rows <= budget) return { rows, deleted: 0 };
  const columns = PRUNE_ORDER[table];
  const kept = Math.floor(budget * PRUNED_TO);
  // The newest row past what is kept: it and every row before it in that order go.
  const newestGone = await sql<Record<string, unknown>>`select ${sql.join(columns.map((column) => sql.ref(column)))} from ${sql.table(table)}
    order by ${sql.join(columns.map((column) => sql`${sql.ref(column)} desc`))} limit 1 offset ${kept}`.execute(db);
  const cutoff = newestGone.rows[0];
  if (!cutoff) return { rows, deleted: 0 };
  // A row-value comparison orders the columns as the query above did (both databases have it).
  const result = await sql`delete from ${sql.table(table)} where (${sql.join(columns.map((column) => sql.ref(column)))}) <= (${sql.join(
    columns.map((column) => cutoff[column]),
  )})`.execute(db);
  const deleted = Number(result.numAffectedRows ?? 0);
  return { rows: rows - deleted, deleted };
}

/**
 * Watches the rows a process writes into the telemetry tables and keeps each within its budget: a
 * table is counted at its first write, and again only once the rows added since its last count
 * could have taken it past the budget, so a table far from it costs no count at every write.
 * Other processes' rows are not seen here: `enforce` counts every table once a minute too.
 */
export class TelemetryBudgetKeeper {
  /** Rows each table held at its last count, plus the rows this process added since (an upper bound). */
  private readonly known = new Map<TelemetryTable, number>();

  constructor(
    private readonly db: Database,
    private readonly budget: TelemetryBudget = TELEMETRY_BUDGET,
    private readonly onPruned: (table: TelemetryTable, deleted: number) => void = () => {},
  ) {}

  /** After `added` rows were written to `table` in `trx`: prunes it there if it may be over budget. */
  async added(trx: Transaction<DatabaseSchema>, table: TelemetryTable, added: number): Promise<void> {
    const estimate = (this.known.get(table) ?? Number.POSITIVE_INFINITY) + added;
    if (estimate <= this.budget[table]) {
      this.known.set(table, estimate);
      return;
    }
    const { rows, deleted } = await pruneToBudget(trx, this.db.dialect, table, this.budget[table]);
    this.known.set(table, rows);
    if (deleted > 0) this.onPruned(table, deleted);
  }

  /** Counts every table again (and prunes one over budget), as other processes write too. */
  async enforce(): Promise<number> {
    let deleted = 0;
    for (const table of Object.keys(this.budget) as TelemetryTable[]) {
      const result = await pruneToBudget(this.db.kysely, this.db.dialect, table, this.budget[table]);
      this.known.set(table, result.rows);
      if (result.deleted > 0) this.onPruned(table, result.deleted);
      deleted += result.deleted;
    }
    return deleted;
  }
}
