import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Random tokens and their stored form: the database keeps only a hash of anything that grants access. */

/** `bytes` random bytes as base64url (32 bytes: 43 characters). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** The SHA-256 of a token, base64url: what is stored and looked up. High-entropy tokens need no slow hash. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** Compares two secrets in constant time. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
