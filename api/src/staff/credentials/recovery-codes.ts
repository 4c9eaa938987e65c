import { randomBytes } from 'node:crypto';
import { STAFF_LIMITS } from '@agency/shared';
import type { Db } from '../../platform/db/connection';
import type { AppKysely } from '../../platform/db/schema';
import { hashToken } from '../common/staff-secrets';

/**
 * One-time recovery codes: shown once when made, stored as hashes only. Ten base32 letters each
 * (50 bits), shown as `abcde-fghij`; typed in any case, with or without the dash.
 */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

function newCode(): string {
  const letters = [...randomBytes(10)].map((byte) => ALPHABET[byte % 32]).join('');
  return `${letters.slice(0, 5)}-${letters.slice(5)}`;
}

const hashOf = (code: string) => hashToken(`recovery:${code.toLowerCase().replace('-', '')}`);

/** Replaces the member's codes with new ones; resolves to them, to show once. */
export async function renewRecoveryCodes(kysely: AppKysely, memberId: number, now: Date): Promise<string[]> {
  const codes = Array.from({ length: STAFF_LIMITS.recoveryCodes }, newCode);
  await kysely.deleteFrom('staff_recovery_codes').where('member_id', '=', memberId).execute();
  await kysely
    .insertInto('staff_recovery_codes')
    .values(codes.map((code) => ({ code_hash: hashOf(code), member_id: memberId, created_at: now.toISOString() })))
    .execute();
  return codes;
}

/** Spends one of the member's unused codes; false when it is not one (or was used). */
export async function useRecoveryCode(db: Db, memberId: number, code: string, now = new Date()): Promise<boolean> {
  const result = await db.kysely
    .updateTable('staff_recovery_codes')
    .set({ used_at: now.toISOString() })
    .where('code_hash', '=', hashOf(code))
    .where('member_id', '=', memberId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function recoveryCodesLeft(db: Db, memberId: number): Promise<number> {
  const { count } = await db.kysely
    .selectFrom('staff_recovery_codes')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('member_id', '=', memberId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(count);
}
