import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { TeamMember } from '@agency/shared';
import type { Db } from '../../platform/db/connection';
import type { AppKysely } from '../../platform/db/schema';
import { readReleaseApps } from '../common/release-apps-column';
import type { StaffOrigin } from '../common/staff-origin';

/**
 * Passkeys (WebAuthn) through @simplewebauthn/server: discoverable credentials (so signing in
 * needs no e-mail) with user verification required (the device's PIN or biometrics), no
 * attestation (the agency trusts any authenticator its people choose).
 */

/**
 * The library, loaded by the first passkey call: with its certificate parsers it is the largest
 * the API loads (about 300 modules, 0.2 CPU-seconds), and every server, command and test that
 * never signs a member in would pay for it at each start.
 */
const webAuthn = () => import('@simplewebauthn/server');

export interface RegistrationChallenge {
  challenge: string;
  /** The WebAuthn user handle of the person registering: random, never their e-mail. */
  userId: string;
}

export async function registrationOptions(origin: StaffOrigin, email: string, userId: string, existing: readonly string[]) {
  const { generateRegistrationOptions } = await webAuthn();
  return generateRegistrationOptions({
    rpName: origin.rpName,
    rpID: origin.rpId,
    userName: email,
    userID: Buffer.from(userId, 'base64url'),
    attestationType: 'none',
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
    excludeCredentials: existing.map((id) => ({ id })),
  });
}

/** The new credential, when the browser's answer proves it; undefined otherwise. */
export async function verifyRegistration(origin: StaffOrigin, challenge: string, credential: unknown) {
  const { verifyRegistrationResponse } = await webAuthn();
  try {
    const result = await verifyRegistrationResponse({
      response: credential as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: origin.origin,
      expectedRPID: origin.rpId,
      requireUserVerification: true,
    });
    return result.verified ? result.registrationInfo.credential : undefined;
  } catch {
    return undefined;
  }
}

export async function storePasskey(
  kysely: AppKysely,
  memberId: number,
  credential: { id: string; publicKey: Uint8Array; counter: number; transports?: string[] },
  now: Date,
): Promise<void> {
  await kysely
    .insertInto('staff_passkeys')
    .values({
      id: credential.id,
      member_id: memberId,
      public_key: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? []),
      created_at: now.toISOString(),
    })
    .execute();
}

export async function passkeyIdsOf(db: Db, memberId: number): Promise<string[]> {
  const rows = await db.kysely.selectFrom('staff_passkeys').select('id').where('member_id', '=', memberId).execute();
  return rows.map((row) => row.id);
}

export async function signInOptions(origin: StaffOrigin) {
  const { generateAuthenticationOptions } = await webAuthn();
  return generateAuthenticationOptions({ rpID: origin.rpId, userVerification: 'required', allowCredentials: [] });
}

/** The live member whose passkey signed `challenge`, or undefined. Moves the signature counter. */
export async function verifySignIn(db: Db, origin: StaffOrigin, challenge: string, credential: unknown, now: Date): Promise<TeamMember | undefined> {
  const response = credential as AuthenticationResponseJSON;
  const row = await db.kysely
    .selectFrom('staff_passkeys')
    .innerJoin('staff_members', 'staff_members.id', 'staff_passkeys.member_id')
    .select(['staff_passkeys.id', 'public_key', 'counter', 'transports', 'staff_members.id as member_id', 'email', 'role', 'release_apps'])
    .where('staff_passkeys.id', '=', String(response.id))
    .where('removed_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const { verifyAuthenticationResponse } = await webAuthn();
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin.origin,
      expectedRPID: origin.rpId,
      requireUserVerification: true,
      credential: { id: row.id, publicKey: Buffer.from(row.public_key, 'base64url'), counter: Number(row.counter), transports: JSON.parse(row.transports) as string[] },
    });
    if (!result.verified) return undefined;
    await db.kysely
      .updateTable('staff_passkeys')
      .set({ counter: result.authenticationInfo.newCounter, last_used_at: now.toISOString() })
      .where('id', '=', row.id)
      .execute();
    return { id: Number(row.member_id), email: row.email, role: row.role, releaseApps: readReleaseApps(row.release_apps) };
  } catch {
    return undefined;
  }
}
