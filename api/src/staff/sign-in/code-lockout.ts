import { STAFF_LIMITS } from '@agency/shared';
import type { Db } from '../../platform/db/connection';
import { normalizeEmail } from '../accounts/members-repository';

/**
 * Wrong one-time codes (from the app or recovery codes) per e-mail: after STAFF_LIMITS.codeFailures
 * within STAFF_LIMITS.lockoutMinutes, that e-mail refuses codes for lockoutMinutes. Counted by
 * e-mail whether or not it has an account, so the answer never tells which ones do. Passkeys are
 * not affected: they cannot be guessed.
 */
const WINDOW_MS = STAFF_LIMITS.lockoutMinutes * 60_000;

export async function lockedUntil(db: Db, email: string, now = new Date()): Promise<string | undefined> {
  const row = await db.kysely.selectFrom('staff_code_lockouts').select('until').where('email', '=', normalizeEmail(email)).executeTakeFirst();
  return row && row.until > now.toISOString() ? row.until : undefined;
}

/** Records a wrong code; resolves to true when this one locks the e-mail out. */
export async function recordCodeFailure(db: Db, email: string, now = new Date()): Promise<boolean> {
  const address = normalizeEmail(email);
  const windowStart = new Date(now.getTime() - WINDOW_MS).toISOString();
  return db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('staff_code_failures').where('email', '=', address).where('at', '<', windowStart).execute();
    await trx.insertInto('staff_code_failures').values({ email: address, at: now.toISOString() }).execute();
    const { count } = await trx
      .selectFrom('staff_code_failures')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('email', '=', address)
      .executeTakeFirstOrThrow();
    if (Number(count) < STAFF_LIMITS.codeFailures) return false;
    const until = new Date(now.getTime() + WINDOW_MS).toISOString();
    await trx.deleteFrom('staff_code_lockouts').where('email', '=', address).execute();
    await trx.insertInto('staff_code_lockouts').values({ email: address, until }).execute();
    await trx.deleteFrom('staff_code_failures').where('email', '=', address).execute();
    return true;
  });
}
