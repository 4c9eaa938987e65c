import { STAFF_LIMITS, type SessionInfo, type TeamMember } from '@agency/shared';
import type { Db } from '../../platform/db/connection';
import type { AppKysely } from '../../platform/db/schema';
import { readReleaseApps } from '../common/release-apps-column';
import { hashToken, randomToken } from '../common/staff-secrets';

/**
 * Signed-in browsers, on the server: the cookie holds a random id, the table its hash (a copy of
 * the database signs nobody in), the member, a CSRF token, and when it began and was last used.
 * A session ends when signed out, after STAFF_LIMITS.sessionIdleHours without a request, after
 * sessionMaxDays in all, and at once when its member is removed or their role changes. The member
 * is read with every request, so a release manager's changed apps hold from their next one.
 */
const IDLE_MS = STAFF_LIMITS.sessionIdleHours * 3_600_000;
const MAX_MS = STAFF_LIMITS.sessionMaxDays * 24 * 3_600_000;
/** last_seen_at is written at most this often: not one write per request. */
const TOUCH_EVERY_MS = 60_000;

export interface NewSession {
  /** The cookie's value. */
  id: string;
  csrfToken: string;
  expiresAt: Date;
}

export interface ActiveSession {
  idHash: string;
  /** The member as stored now: their role, and a release manager's apps. */
  member: TeamMember;
  csrfToken: string;
}

export async function createSession(kysely: AppKysely, memberId: number, client: { userAgent: string; address: string }, now = new Date()): Promise<NewSession> {
  const id = randomToken();
  const csrfToken = randomToken();
  const expiresAt = new Date(now.getTime() + MAX_MS);
  await kysely
    .insertInto('staff_sessions')
    .values({
      id_hash: hashToken(id),
      member_id: memberId,
      csrf_token: csrfToken,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
      user_agent: client.userAgent.slice(0, 300),
      address: client.address,
    })
    .execute();
  return { id, csrfToken, expiresAt };
}

/** Whether a session last used at `last_seen_at` is still live at `now`: neither idle too long nor past its end. */
export function sessionLive(row: { last_seen_at: string; expires_at: string }, now: Date): boolean {
  return now.getTime() - Date.parse(row.last_seen_at) <= IDLE_MS && now.toISOString() < row.expires_at;
}

/** The live session the cookie names, with its live member; marks it used. */
export async function readSession(db: Db, id: string, now = new Date()): Promise<ActiveSession | undefined> {
  const idHash = hashToken(id);
  const row = await db.kysely
    .selectFrom('staff_sessions')
    .innerJoin('staff_members', 'staff_members.id', 'staff_sessions.member_id')
    .select(['csrf_token', 'last_seen_at', 'expires_at', 'staff_members.id as member_id', 'email', 'role', 'release_apps', 'removed_at'])
    .where('id_hash', '=', idHash)
    .executeTakeFirst();
  if (!row || row.removed_at !== null) return undefined;
  const lastSeen = Date.parse(row.last_seen_at);
  if (!sessionLive(row, now)) {
    await db.kysely.deleteFrom('staff_sessions').where('id_hash', '=', idHash).execute();
    return undefined;
  }
  if (now.getTime() - lastSeen > TOUCH_EVERY_MS) {
    await db.kysely.updateTable('staff_sessions').set({ last_seen_at: now.toISOString() }).where('id_hash', '=', idHash).execute();
  }
  return { idHash, csrfToken: row.csrf_token, member: { id: Number(row.member_id), email: row.email, role: row.role, releaseApps: readReleaseApps(row.release_apps) } };
}

export async function endSession(kysely: AppKysely, idHash: string): Promise<boolean> {
  const result = await kysely.deleteFrom('staff_sessions').where('id_hash', '=', idHash).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Ends every session of a member (removed, or their role changed). */
export async function endMemberSessions(kysely: AppKysely, memberId: number): Promise<number> {
  const result = await kysely.deleteFrom('staff_sessions').where('member_id', '=', memberId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function listSessions(db: Db, memberId: number, currentIdHash: string | undefined, now = new Date()): Promise<SessionInfo[]> {
  const rows = await db.kysely
    .selectFrom('staff_sessions')
    .selectAll()
    .where('member_id', '=', memberId)
    .where('expires_at', '>', now.toISOString())
    .where('last_seen_at', '>', new Date(now.getTime() - IDLE_MS).toISOString())
    .orderBy('last_seen_at', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id_hash,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    userAgent: row.user_agent,
    address: row.address,
    current: row.id_hash === currentIdHash,
  }));
}

/** The member a session (by its listed id) belongs to, if it exists. */
export async function sessionOwner(db: Db, idHash: string): Promise<number | undefined> {
  const row = await db.kysely.selectFrom('staff_sessions').select('member_id').where('id_hash', '=', idHash).executeTakeFirst();
  return row && Number(row.member_id);
}
