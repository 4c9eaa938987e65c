import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { FORM_NAMES, type FormName } from '@agency/shared';

/**
 * The signed token the server puts into every form it sends: which form, and when it was sent.
 * `<form>.<issued at, ms, base 36>.<nonce>.<MAC>`, the MAC an HMAC-SHA-256 (cut to 128 bits) of
 * the rest under a secret every API process shares. Not secret itself: a bot may read it, but
 * cannot make one up, move its time, use it for the other form, or (spam_nonce_uses) use it twice.
 */

export type TokenReading =
  | { ok: true; form: FormName; issuedAt: number; nonce: string }
  /** malformed: not a token at all; forged: a token this site did not sign; wrong-form: signed for the other form. */
  | { ok: false; problem: 'malformed' | 'forged' | 'wrong-form' };

const SHAPE = /^([a-z-]{1,20})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{22})$/;

export class FormTokens {
  constructor(private readonly secret: string) {}

  private mac(text: string): Buffer {
    return createHmac('sha256', this.secret).update(text).digest().subarray(0, 16);
  }

  issue(form: FormName, at: number = Date.now()): string {
    const body = `${form}.${at.toString(36)}.${randomBytes(12).toString('base64url')}`;
    return `${body}.${this.mac(body).toString('base64url')}`;
  }

  read(token: string, form: FormName): TokenReading {
    const parts = SHAPE.exec(token);
    if (!parts) return { ok: false, problem: 'malformed' };
    const [, tokenForm = '', issued = '', nonce = ''] = parts;
    const body = token.slice(0, token.lastIndexOf('.'));
    const given = Buffer.from(parts[4] ?? '', 'base64url');
    if (given.length !== 16 || !timingSafeEqual(given, this.mac(body))) return { ok: false, problem: 'forged' };
    if (!(FORM_NAMES as readonly string[]).includes(tokenForm)) return { ok: false, problem: 'forged' };
    if (tokenForm !== form) return { ok: false, problem: 'wrong-form' };
    return { ok: true, form, issuedAt: parseInt(issued, 36), nonce };
  }
}
