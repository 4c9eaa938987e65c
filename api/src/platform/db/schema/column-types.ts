import type { ColumnType } from 'kysely';

// Column representations that differ between SQLite and PostgreSQL (timestamps, JSON) are typed
// `unknown` on read and decoded by the dialect (../dialect.ts).

export type Timestamp = ColumnType<unknown, string | Date | undefined, never>;
export type JsonText = ColumnType<unknown, string, string>;
/** A timestamp that may be rewritten (a post's date, when its author changes it). */
export type EditableTimestamp = ColumnType<unknown, string | Date | undefined, string | Date>;
/** Whole minutes since the Unix epoch. */
export type Minute = number;
/** A count: bigint sums on PostgreSQL read back as strings, hence decoded with Dialect.readCount. */
export type Count = ColumnType<number, number, unknown>;
