import type { StaffRole, TeamMember } from '@agency/shared';
import type { Db } from '../../platform/db/connection';
import type { AppKysely } from '../../platform/db/schema';
import { readReleaseApps, writeReleaseApps } from '../common/release-apps-column';

/** The agency's people as stored: live members only, unless said otherwise. */

const normalizeEmail = (email: string) => email.trim().toLowerCase();
export { normalizeEmail };

const COLUMNS = ['id', 'email', 'role', 'release_apps'] as const;

const asMember = (row: { id: number | string; email: string; role: StaffRole; release_apps: string }): TeamMember => ({
  id: Number(row.id),
  email: row.email,
  role: row.role,
  releaseApps: readReleaseApps(row.release_apps),
});

export async function findMemberByEmail(db: Db, email: string): Promise<TeamMember | undefined> {
  const row = await db.kysely
    .selectFrom('staff_members')
    .select(COLUMNS)
    .where('email', '=', normalizeEmail(email))
    .where('removed_at', 'is', null)
    .executeTakeFirst();
  return row && asMember(row);
}

export async function findMember(db: Db, id: number): Promise<TeamMember | undefined> {
  const row = await db.kysely.selectFrom('staff_members').select(COLUMNS).where('id', '=', id).where('removed_at', 'is', null).executeTakeFirst();
  return row && asMember(row);
}

export async function listMembers(db: Db): Promise<(TeamMember & { createdAt: string })[]> {
  const rows = await db.kysely.selectFrom('staff_members').select([...COLUMNS, 'created_at']).where('removed_at', 'is', null).orderBy('email').execute();
  return rows.map((row) => ({ ...asMember(row), createdAt: row.created_at }));
}

/** A new member; `releaseApps` for a release manager. */
export async function insertMember(kysely: AppKysely, email: string, role: StaffRole, now: Date, releaseApps: readonly string[] = []): Promise<TeamMember> {
  const row = await kysely
    .insertInto('staff_members')
    .values({ email: normalizeEmail(email), role, release_apps: writeReleaseApps(releaseApps), created_at: now.toISOString() })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return asMember(row);
}

/** Sets a member's role and apps. */
export async function setMemberRights(kysely: AppKysely, id: number, role: StaffRole, releaseApps: readonly string[]): Promise<void> {
  await kysely.updateTable('staff_members').set({ role, release_apps: writeReleaseApps(releaseApps) }).where('id', '=', id).execute();
}

/** How many live admins there are besides `exceptId`. */
export async function otherAdmins(kysely: AppKysely, exceptId: number): Promise<number> {
  const { count } = await kysely
    .selectFrom('staff_members')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('role', '=', 'admin')
    .where('removed_at', 'is', null)
    .where('id', '!=', exceptId)
    .executeTakeFirstOrThrow();
  return Number(count);
}
