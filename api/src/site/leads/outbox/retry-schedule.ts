/** When the outbox worker tries a lead again, and when it gives up. */

/** The first retry comes this soon (before jitter), so a receiver's brief hiccup costs seconds. */
export const FIRST_RETRY_MS = 2_000;
/** Retries double up to this gap. */
export const MAX_RETRY_MS = 15 * 60_000;
/** A lead not delivered this long after it arrived is marked failed (`--retry` re-queues it). */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;
/** One delivery attempt may take this long before it counts as failed. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/**
 * A claimed outbox row is held this long by the worker that claimed it; after that it is another
 * worker's again (its worker died mid-delivery).
 */
export const CLAIM_LEASE_MS = 3 * DELIVERY_TIMEOUT_MS;

/**
 * The wait after the `attempts`-th failed attempt: 2 s, 4 s, 8 s … up to 15 min, ±20 % so that
 * leads that failed together do not all come back at the same moment.
 */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * The next attempt after a failure, or `undefined` when the lead is past its deadline. The
 * receiver's own `Retry-After` is honoured when it asks for a longer wait; the last attempt
 * happens at the deadline itself.
 */
export function nextAttemptAt(
  now: Date,
  attempts: number,
  giveUpAt: Date,
  retryAfterMs?: number,
  random?: () => number,
): Date | undefined {
  if (now.getTime() >= giveUpAt.getTime()) return undefined;
  const wait = Math.max(retryDelayMs(attempts, random), retryAfterMs ?? 0);
  return new Date(Math.min(now.getTime() + wait, giveUpAt.getTime()));
}
