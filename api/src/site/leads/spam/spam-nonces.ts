import type { SpamReasonCode } from '@agency/shared';
import type { Db } from '../../../platform/db/connection';
import { SPAM_TIMING } from './spam-judge';

/**
 * Each form token and each proof of work is accepted once: its nonce is written in the
 * submission's own transaction, so a submission that was not stored leaves its token unused (its
 * retry is no replay), and of two sent at once with one token the second finds the first's row.
 * Resolves to what was used before: `reused-token`, `bad-proof` (a proof solved once, sent again).
 */
export async function claimNonces(db: Db, nonces: { token?: string; proof?: string }, at: Date): Promise<SpamReasonCode[]> {
  const reused: SpamReasonCode[] = [];
  const claims: [string | undefined, SpamReasonCode][] = [
    [nonces.token && `token:${nonces.token}`, 'reused-token'],
    [nonces.proof && `proof:${nonces.proof}`, 'bad-proof'],
  ];
  for (const [nonce, reason] of claims) {
    if (!nonce) continue;
    const result = await db.kysely.insertInto('spam_nonce_uses').values({ nonce, used_at: at.toISOString() }).onConflict((conflict) => conflict.column('nonce').doNothing()).executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) reused.push(reason);
  }
  return reused;
}

/** How long a used nonce is kept: past it, its token counts as stale anyway. */
export function nonceKeepMs(): number {
  return 2 * SPAM_TIMING.staleTokenHours * 3_600_000;
}

/** Forgets nonces used before `nonceKeepMs()` ago; resolves to how many. */
export async function pruneNonceUses(db: Db, now = Date.now()): Promise<number> {
  const result = await db.kysely.deleteFrom('spam_nonce_uses').where('used_at', '<', new Date(now - nonceKeepMs()).toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
