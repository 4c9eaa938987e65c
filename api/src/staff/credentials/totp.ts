import { Secret, TOTP } from 'otpauth';
import type { Db } from '../../platform/db/connection';
import type { AppKysely } from '../../platform/db/schema';

/**
 * Codes from an authenticator app (RFC 6238 through `otpauth`): SHA-1, 6 digits, 30-second steps,
 * as every app reads them. A code of the step before or after is accepted (clocks drift), and no
 * step is accepted twice: a code seen once (over a shoulder, in a proxy) is spent.
 */
const PARAMETERS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;

function totpOf(secret: string, email = '', issuer = ''): TOTP {
  return new TOTP({ ...PARAMETERS, issuer, label: email, secret: Secret.fromBase32(secret) });
}

export interface TotpSetup {
  secret: string;
  uri: string;
  /** The otpauth:// link as a QR code, an SVG data URL for an <img>. */
  qrCode: string;
}

export async function newTotpSetup(email: string, issuer: string): Promise<TotpSetup> {
  const secret = new Secret({ size: 20 }).base32;
  const uri = totpOf(secret, email, issuer).toString();
  // Loaded here, the one place that draws a QR code, rather than at every start.
  const { default: QRCode } = await import('qrcode');
  // SVG, not PNG: sharp at any zoom, smaller, and about a sixth of the CPU (no PNG encoding).
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 2, width: 240, errorCorrectionLevel: 'M' });
  return { secret, uri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/** The time step `code` belongs to (within one step either side of now), or undefined. */
export function codeStep(secret: string, code: string, now = new Date()): number | undefined {
  const delta = totpOf(secret).validate({ token: code, timestamp: now.getTime(), window: 1 });
  return delta === null ? undefined : TOTP.counter({ period: PARAMETERS.period, timestamp: now.getTime() }) + delta;
}

export async function storeTotp(kysely: AppKysely, memberId: number, secret: string, step: number, now: Date): Promise<void> {
  await kysely.deleteFrom('staff_totp').where('member_id', '=', memberId).execute();
  await kysely.insertInto('staff_totp').values({ member_id: memberId, secret, last_step: step, created_at: now.toISOString() }).execute();
}

/**
 * Whether `code` is a valid, unspent code of the member's app; spends its step. The step moves
 * only forward in one statement, so two requests with one code cannot both pass.
 */
export async function useTotpCode(db: Db, memberId: number, code: string, now = new Date()): Promise<boolean> {
  const row = await db.kysely.selectFrom('staff_totp').select(['secret', 'last_step']).where('member_id', '=', memberId).executeTakeFirst();
  if (!row) return false;
  const step = codeStep(row.secret, code, now);
  if (step === undefined) return false;
  const result = await db.kysely
    .updateTable('staff_totp')
    .set({ last_step: step })
    .where('member_id', '=', memberId)
    .where('last_step', '<', step)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function hasTotp(db: Db, memberId: number): Promise<boolean> {
  return (await db.kysely.selectFrom('staff_totp').select('member_id').where('member_id', '=', memberId).executeTakeFirst()) !== undefined;
}
