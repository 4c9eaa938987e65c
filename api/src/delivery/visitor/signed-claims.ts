import { createHmac, timingSafeEqual } from 'node:crypto';

/** The longest token read: a cookie or link parameter past it is nothing this site signed. */
const MAX_TOKEN_LENGTH = 1024;

const sign = (payload: string, secret: string) => createHmac('sha256', secret).update(payload).digest('base64url');

/**
 * `<payload>.<signature>`, both base64url: `claims` as JSON, signed with HMAC-SHA256 of `secret`.
 * What a preview link and an override cookie carry.
 */
export function signClaims(claims: object, secret: string): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${sign(payload, secret)}`;
}

/**
 * The claims of a token signed with `secret` (compared in constant time); undefined for anything
 * else: another signature, a malformed or overlong token, a payload that is no JSON object. The
 * caller checks each claim it reads.
 */
export function signedClaims(token: string, secret: string): Record<string, unknown> | undefined {
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0 || token.length > MAX_TOKEN_LENGTH) return undefined;
  const expected = Buffer.from(sign(payload, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return typeof claims === 'object' && claims !== null && !Array.isArray(claims) ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
