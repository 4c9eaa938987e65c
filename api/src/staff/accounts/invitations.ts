import { STAFF_LIMITS, STAFF_PATHS, type StaffRole } from '@agency/shared';
import type { Db } from '../../platform/db/connection';
import type { AppKysely } from '../../platform/db/schema';
import { recordAudit, type AuditActor } from '../../platform/audit/audit-log';
import { hashToken, randomToken } from '../common/staff-secrets';
import { normalizeEmail } from './members-repository';

/**
 * One-time invitation links: `<SITE_URL>/staff/invite#<token>`. The token sits in the fragment,
 * so it reaches no access log and no Referer; only its hash is stored.
 */
export interface Invitation {
  link: string;
  expiresAt: string;
}

export type Inviter = AuditActor;

export async function createInvitation(db: Db, siteUrl: string, email: string, role: StaffRole, inviter: Inviter, now = new Date()): Promise<Invitation> {
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + STAFF_LIMITS.invitationHours * 3_600_000).toISOString();
  const address = normalizeEmail(email);
  await db.kysely.transaction().execute(async (trx) => {
    await trx
      .insertInto('staff_invitations')
      .values({ token_hash: hashToken(token), email: address, role, invited_by: inviter.id, created_at: now.toISOString(), expires_at: expiresAt })
      .execute();
    await recordAudit(trx, { actorId: inviter.id, actor: inviter.actor, action: 'invitation-created', target: `email:${address}`, address: inviter.address, detail: { role, expiresAt } }, now);
  });
  return { link: `${siteUrl}${STAFF_PATHS.invite}#${token}`, expiresAt };
}

export interface OpenInvitation {
  tokenHash: string;
  email: string;
  role: StaffRole;
  expiresAt: string;
}

/** The invitation `token` opens, while it is unused and unexpired. */
export async function findOpenInvitation(db: Db, token: string, now = new Date()): Promise<OpenInvitation | undefined> {
  const row = await db.kysely
    .selectFrom('staff_invitations')
    .select(['token_hash', 'email', 'role', 'expires_at'])
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row && { tokenHash: row.token_hash, email: row.email, role: row.role, expiresAt: row.expires_at };
}

/** Marks an invitation used inside the transaction that creates its member; false when another request used it first. */
export async function useInvitation(kysely: AppKysely, invitation: OpenInvitation, now: Date): Promise<boolean> {
  const result = await kysely
    .updateTable('staff_invitations')
    .set({ used_at: now.toISOString() })
    .where('token_hash', '=', invitation.tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
