/**
 * A submission's own id, chosen by the client and sent on every try of it: the API stores it
 * with the lead, so a retry after a lost answer returns the first answer instead of a second lead.
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** Long enough for a UUID or 128 random bits in any common encoding; only URL-safe characters. */
export const IDEMPOTENCY_KEY_PATTERN = '^[A-Za-z0-9_.:-]{16,100}$';
