import { randomBytes } from 'node:crypto';
import type { Db } from './connection';

/**
 * The site's secret of this name, shared by every API process on the database: made at random
 * (256 bits) by whichever process asks first; the others read it.
 */
export async function siteSecret(db: Db, name: string): Promise<string> {
  await db.kysely
    .insertInto('site_secrets')
    .values({ name, value: randomBytes(32).toString('hex') })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const row = await db.kysely.selectFrom('site_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
