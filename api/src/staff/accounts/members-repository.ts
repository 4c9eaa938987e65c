import type { StaffMember, StaffRole } from '@agency/shared';
import type { Db } from '../../platform/db/connection';
import type { AppKysely } from '../../platform/db/schema';

/** The agency's people as stored: live members only, unless said otherwise. */

const normalizeEmail = (email: string) => email.trim().toLowerCase();
export { normalizeEmail };

const asMember = (row: { id: number | string; email: string; role: StaffRole }): StaffMember => ({ id: Number(row.id), email: row.email, role: row.role });

export async function findMemberByEmail(db: Db, email: string): Promise<StaffMember | undefined> {
  const row = await db.kysely
    .selectFrom('staff_members')
    .select(['id', 'email', 'role'])
    .where('email', '=', normalizeEmail(email))
    .where('removed_at', 'is', null)
    .executeTakeFirst();
  return row && asMember(row);
}

export async function findMember(db: Db, id: number): Promise<StaffMember | undefined> {
  const row = await db.kysely.selectFrom('staff_members').select(['id', 'email', 'role']).where('id', '=', id).where('removed_at', 'is', null).executeTakeFirst();
  return row && asMember(row);
}

export async function listMembers(db: Db): Promise<(StaffMember & { createdAt: string })[]> {
  const rows = await db.kysely.selectFrom('staff_members').select(['id', 'email', 'role', 'created_at']).where('removed_at', 'is', null).orderBy('email').execute();
  return rows.map((row) => ({ ...asMember(row), createdAt: row.created_at }));
}

export async function insertMember(kysely: AppKysely, email: string, role: StaffRole, now: Date): Promise<StaffMember> {
  const row = await kysely
    .insertInto('staff_members')
    .values({ email: normalizeEmail(email), role, created_at: now.toISOString() })
    .returning(['id', 'email', 'role'])
    .executeTakeFirstOrThrow();
  return asMember(row);
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
