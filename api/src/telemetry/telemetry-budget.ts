import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/connection';
import type { DatabaseSchema } from '../db/schema';
import { TELEMETRY_BUDGET, type TelemetryBudget, type TelemetryTable } from './telemetry-limits';

/** The column each table's rows age by: the oldest go first. */
const AGE_COLUMN = {
  telemetry_minutes: 'minute',
  telemetry_error_minutes: 'minute',
  telemetry_errors: 'last_minute',
  telemetry_clients: 'last_minute',
  visit_sessions: 'first_minute',
} as const satisfies Record<TelemetryTable, string>;

/** A table over its budget is pruned to this share of it, so it is not pruned again at every write. */
const PRUNED_TO = 0.9;

type Db = Database['kysely'] | Transaction<DatabaseSchema>;

async function countRows(db: Db, dialect: Database['dialect'], table: TelemetryTable): Promise<number> {
  const row = await db.selectFrom(table).select(sql<number | string>`count(*)`.as('rows')).executeTakeFirstOrThrow();
  return dialect.readCount(row.rows);
}

/**
 * Keeps `table` within its budget: when it holds more rows, the oldest are deleted until at most
 * nine tenths of the budget are left (rows of one minute go together). Resolves with the rows it
 * holds after, and how many were deleted.
 */
export async function pruneToBudget(db: Db, dialect: Database['dialect'], table: TelemetryTable, budget: number): Promise<{ rows: number; deleted: number }> {
  const rows = await countRows(db, dialect, table);
  if (rows <= budget) return { rows, deleted: 0 };
  const column = AGE_COLUMN[table];
  const kept = Math.floor(budget * PRUNED_TO);
  // The age of the newest row past what is kept: it and every older row go.
  const oldestGone = await db
    .selectFrom(table)
    .select(sql<number>`${sql.ref(column)}`.as('age'))
    .orderBy(sql.ref(column), 'desc')
    .limit(1)
    .offset(kept)
    .executeTakeFirst();
  if (!oldestGone) return { rows, deleted: 0 };
  const result = await db.deleteFrom(table).where(sql.ref(column), '<=', oldestGone.age).executeTakeFirst();
  const deleted = Number(result.numDeletedRows);
  return { rows: rows - deleted, deleted };
}

/**
 * Watches the rows a process writes into the telemetry tables and keeps each within its budget:
 * after a write it counts a table again only once the rows added since its last count could have
 * taken it past the budget, so a table far from it costs no count. Other processes' rows are not
 * seen here: `enforceTelemetryBudget` counts every table once a minute too.
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
