import type { Db } from '../../platform/db/connection';

/** A fact about the database itself that the API watches: whether it takes writes. */

/**
 * Rewrites the probe row and commits: it fails when the database cannot take writes (a full
 * disk, a read-only file system or replica), which a `select 1` never shows.
 */
export async function probeWrite(db: Db): Promise<void> {
  const result = await db.kysely
    .updateTable('health_probe')
    .set({ checked_at: db.dialect.timestamp(new Date()) })
    .where('id', '=', 1)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new Error('the health probe row is missing');
}
