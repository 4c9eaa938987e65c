import type { StaffSession, TeamMember } from '@agency/shared';
import type { Db } from '../../platform/db/connection';
import { passkeyIdsOf } from './passkeys';
import { recoveryCodesLeft } from './recovery-codes';
import { hasTotp } from './totp';

/** What the console knows of the signed-in person: their role and apps, the CSRF token, their ways to sign in. */
export async function describeSession(db: Db, member: TeamMember, csrfToken: string): Promise<StaffSession> {
  return {
    member,
    csrfToken,
    passkeys: (await passkeyIdsOf(db, member.id)).length,
    totp: await hasTotp(db, member.id),
    recoveryCodesLeft: await recoveryCodesLeft(db, member.id),
  };
}
