import type { Migration } from 'kysely';
import * as m0001 from './0001_initial';

/** All migrations in order. Names sort alphabetically; append only. */
export const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
};
