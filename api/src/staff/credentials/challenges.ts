import type { Db } from '../../platform/db/connection';
import type { AppKysely } from '../../platform/db/schema';
import { randomToken } from '../common/staff-secrets';

/**
 * What a sign-in step hands the browser and must get back once: a WebAuthn challenge, or a TOTP
 * secret waiting for its first code. In the database, so any API process can finish the step;
 * taken (deleted) when used, and worthless after CHALLENGE_LIFE_MS.
 */
export const CHALLENGE_LIFE_MS = 5 * 60_000;

export type ChallengePurpose = 'passkey-registration' | 'passkey-sign-in' | 'totp-setup';

export async function putChallenge(db: Db, purpose: ChallengePurpose, value: unknown, now = new Date()): Promise<string> {
  const id = randomToken(16);
  // Expired ones are swept on the way; there are never many.
  await db.kysely.deleteFrom('staff_challenges').where('expires_at', '<', now.toISOString()).execute();
  await db.kysely
    .insertInto('staff_challenges')
    .values({ id, purpose, value: JSON.stringify(value), expires_at: new Date(now.getTime() + CHALLENGE_LIFE_MS).toISOString() })
    .execute();
  return id;
}

/** The challenge's value, once: undefined when unknown, used, expired or of another purpose. */
export async function takeChallenge<T>(db: Db, id: string, purpose: ChallengePurpose, now = new Date()): Promise<T | undefined> {
  const row = await db.kysely.deleteFrom('staff_challenges').where('id', '=', id).returning(['purpose', 'value', 'expires_at']).executeTakeFirst();
  if (!row || row.purpose !== purpose || row.expires_at <= now.toISOString()) return undefined;
  return JSON.parse(row.value) as T;
}

/** The challenge's value without using it up (a mistyped code may be tried again), or undefined. */
export async function readChallenge<T>(db: Db, id: string, purpose: ChallengePurpose, now = new Date()): Promise<T | undefined> {
  const row = await db.kysely.selectFrom('staff_challenges').select(['purpose', 'value', 'expires_at']).where('id', '=', id).executeTakeFirst();
  if (!row || row.purpose !== purpose || row.expires_at <= now.toISOString()) return undefined;
  return JSON.parse(row.value) as T;
}

/** Uses a challenge up inside the transaction that acts on it; false when another request did first. */
export async function dropChallenge(kysely: AppKysely, id: string): Promise<boolean> {
  const result = await kysely.deleteFrom('staff_challenges').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
