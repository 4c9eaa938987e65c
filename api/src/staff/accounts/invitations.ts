import { releaseAppsProblem, STAFF_LIMITS, STAFF_PATHS, type StaffRole } from '@agency/shared';
import type { Db } from '../../platform/db/connection';
import type { AppKysely } from '../../platform/db/schema';
import { recordAudit, type AuditActor } from '../../platform/audit/audit-log';
import { readReleaseApps, writeReleaseApps } from '../common/release-apps-column';
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

/** Who is invited, with what rights: a role, and a release manager's apps (releaseAppsProblem says which may be). */
export interface Invitee {
  email: string;
  role: StaffRole;
  releaseApps: readonly string[];
}

export async function createInvitation(db: Db, siteUrl: string, { email, role, releaseApps }: Invitee, inviter: Inviter, now = new Date()): Promise<Invitation> {
  // The callers refuse these first, each in its own words; never store rights the role cannot hold.
  const problem = releaseAppsProblem(role, releaseApps);
  if (problem !== undefined) throw new Error(problem);
  const token = randomToken();
  const apps = writeReleaseApps(releaseApps);
  const expiresAt = new Date(now.getTime() + STAFF_LIMITS.invitationHours * 3_600_000).toISOString();
  const address = normalizeEmail(email);
  await db.kysely.transaction().execute(async (trx) => {
    await trx
      .insertInto('staff_invitations')
      .values({ token_hash: hashToken(token), email: address, role, release_apps: apps, invited_by: inviter.id, created_at: now.toISOString(), expires_at: expiresAt })
      .execute();
    await recordAudit(trx, { actorId: inviter.id, actor: inviter.actor, action: 'invitation-created', target: `email:${address}`, address: inviter.address, detail: { role, ...(role === 'release_manager' && { releaseApps: readReleaseApps(apps) }), expiresAt } }, now);
  });
  return { link: `${siteUrl}${STAFF_PATHS.invite}#${token}`, expiresAt };
}

export interface OpenInvitation {
  tokenHash: string;
  email: string;
  role: StaffRole;
  releaseApps: string[];
  expiresAt: string;
}

/** The invitation `token` opens, while it is unused and unexpired. */
export async function findOpenInvitation(db: Db, token: string, now = new Date()): Promise<OpenInvitation | undefined> {
  const row = await db.kysely
    .selectFrom('staff_invitations')
    .select(['token_hash', 'email', 'role', 'release_apps', 'expires_at'])
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row && { tokenHash: row.token_hash, email: row.email, role: row.role, releaseApps: readReleaseApps(row.release_apps), expiresAt: row.expires_at };
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
