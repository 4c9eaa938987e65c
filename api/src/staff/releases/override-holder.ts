import { mayActOnReleases } from '@agency/shared';
import type { Db } from '../../platform/db/connection';
import { readReleaseApps } from '../common/release-apps-column';
import { sessionLive } from '../sessions/session-store';

/**
 * Whether the staff session whose hash an override names is still live (not signed out, idle or
 * past its end, its member not removed) and its member may still act on `app`'s releases: what
 * keeps a browser's override of a remote (delivery asks it through app.ts, for each request that
 * carries one). One read; it does not mark the session used, as pages are not the console.
 */
export async function overrideHolderMayAct(db: Db, sessionHash: string, app: string, now = new Date()): Promise<boolean> {
  const row = await db.kysely
    .selectFrom('staff_sessions')
    .innerJoin('staff_members', 'staff_members.id', 'staff_sessions.member_id')
    .select(['last_seen_at', 'expires_at', 'role', 'release_apps', 'removed_at'])
    .where('id_hash', '=', sessionHash)
    .executeTakeFirst();
  if (!row || row.removed_at !== null || !sessionLive(row, now)) return false;
  return mayActOnReleases({ role: row.role, releaseApps: readReleaseApps(row.release_apps) }, app);
}
