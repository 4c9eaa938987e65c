import {
  ERROR_RESPONSES,
  NO_CONTENT_RESPONSES,
  IdParamsSchema,
  InviteBodySchema,
  InviteResponseSchema,
  MemberListSchema,
  RoleBodySchema,
  SessionListSchema,
  SessionParamsSchema,
  TeamMemberSchema,
} from '@agency/shared/contracts';
import { APP_NAMES, releaseAppsProblem, type StaffRole, type TeamMember } from '@agency/shared';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../platform/db/connection';
import type { AppKysely } from '../../platform/db/schema';
import { ApiError } from '../../platform/http/api-error';
import { recordAudit } from '../../platform/audit/audit-log';
import { endMemberSessions, endSession, listSessions, sessionOwner } from '../sessions/session-store';
import { sessionOf } from '../sessions/staff-guard';
import { STAFF_MESSAGES } from '../common/staff-messages';
import { createInvitation } from './invitations';
import { findMember, findMemberByEmail, listMembers, otherAdmins, setMemberRights } from './members-repository';

export interface TeamRoutesOptions {
  db: Db;
  siteUrl: string;
}

/** A role with its apps as a request names them, in APP_NAMES order; 400 when the role cannot hold them. */
function rightsOf(role: StaffRole, releaseApps: readonly string[] = []): { role: StaffRole; releaseApps: string[] } {
  const problem = releaseAppsProblem(role, releaseApps);
  if (problem !== undefined) throw new ApiError(400, 'RELEASE_APPS_INVALID', problem, { releaseApps: problem });
  return { role, releaseApps: APP_NAMES.filter((app) => releaseApps.includes(app)) };
}

/**
 * The team: everyone who works leads may see who is in it (to assign leads; release managers do
 * not); admins invite, change roles and a release manager's apps, remove people and end their
 * sessions. A role change or removal ends every session of that person at once; changed apps hold
 * from the member's next request (the session reads them every time). Both run under the
 * database's write lock, so two admins demoting each other at once cannot leave the site without
 * an admin.
 */
/**
 * A member made a release manager works no leads and reads none: they leave the turns of new
 * leads (follow-up's rules), their open leads become unassigned (each with its history row, and
 * a new version, so a screen still showing the old assignee must read it again), and overdue
 * alerts no longer reach their Telegram chat. Closed leads keep who worked them. Returns how many
 * leads were unassigned.
 */
const UNASSIGN_BATCH = 500;

async function leaveLeadWork(trx: AppKysely, target: TeamMember, actorId: number): Promise<number> {
  await trx.deleteFrom('lead_routing').where('member_id', '=', target.id).execute();
  await trx.updateTable('staff_members').set({ telegram_chat_id: null }).where('id', '=', target.id).execute();
  const open = await trx.selectFrom('leads').select('id').where('assignee_id', '=', target.id).where('status', 'in', ['new', 'in_progress']).execute();
  if (open.length === 0) return 0;
  const at = new Date().toISOString();
  // In batches: a statement's parameters are limited (SQLite).
  for (let start = 0; start < open.length; start += UNASSIGN_BATCH) {
    const ids = open.slice(start, start + UNASSIGN_BATCH).map((lead) => lead.id);
    await trx
      .updateTable('leads')
      .set((eb) => ({ assignee_id: null, version: eb('version', '+', 1), updated_at: at }))
      .where('id', 'in', ids)
      .execute();
    await trx
      .insertInto('lead_history')
      .values(ids.map((id) => ({ lead_id: id, actor_id: actorId, at, change: 'assignee', old_value: target.email, new_value: null })))
      .execute();
  }
  return open.length;
}

export const teamRoutes: FastifyPluginAsyncTypebox<TeamRoutesOptions> = async (app, { db, siteUrl }) => {
  const admin = { staffRole: 'admin' as const };

  /** Runs `change` on a live member under the write lock, refusing to leave no admin. */
  async function changeMember(memberId: number, role: StaffRole | 'removed', change: (kysely: AppKysely, member: TeamMember) => Promise<void>): Promise<TeamMember> {
    return db.dialect.withWriteLock(db.kysely, async (trx) => {
      const member = await findMember({ kysely: trx, dialect: db.dialect }, memberId);
      if (!member) throw new ApiError(404, 'MEMBER_NOT_FOUND', STAFF_MESSAGES.memberNotFound);
      if (member.role === 'admin' && role !== 'admin' && (await otherAdmins(trx, member.id)) === 0) {
        throw new ApiError(409, 'LAST_ADMIN', STAFF_MESSAGES.lastAdmin);
      }
      await change(trx, member);
      return member;
    });
  }

  app.get('/api/staff/members', { config: { staffRole: 'viewer' }, schema: { response: { 200: MemberListSchema, ...ERROR_RESPONSES } } }, async () => listMembers(db));

  app.post('/api/staff/members/invitations', { config: admin, schema: { body: InviteBodySchema, response: { 200: InviteResponseSchema, ...ERROR_RESPONSES } } }, async (request) => {
    const { member } = sessionOf(request);
    const rights = rightsOf(request.body.role, request.body.releaseApps);
    if (await findMemberByEmail(db, request.body.email)) throw new ApiError(409, 'MEMBER_EXISTS', STAFF_MESSAGES.memberExists);
    return createInvitation(db, siteUrl, { email: request.body.email, ...rights }, { id: member.id, actor: member.email, address: request.ip });
  });

  app.patch(
    '/api/staff/members/:id',
    { config: admin, schema: { params: IdParamsSchema, body: RoleBodySchema, response: { 200: TeamMemberSchema, ...ERROR_RESPONSES } } },
    async (request) => {
      const actor = sessionOf(request).member;
      const { role, releaseApps } = rightsOf(request.body.role, request.body.releaseApps);
      const member = await changeMember(Number(request.params.id), role, async (trx, target) => {
        const sameApps = target.releaseApps.join() === releaseApps.join();
        if (target.role === role && sameApps) return;
        await setMemberRights(trx, target.id, role, releaseApps);
        const audit = { actorId: actor.id, actor: actor.email, target: `member:${target.id}`, address: request.ip };
        if (target.role === role) {
          await recordAudit(trx, { ...audit, action: 'release-apps-changed', detail: { from: target.releaseApps, to: releaseApps } });
          return;
        }
        const leadsUnassigned = role === 'release_manager' ? await leaveLeadWork(trx, target, actor.id) : undefined;
        const ended = await endMemberSessions(trx, target.id);
        const apps = target.role === 'release_manager' || role === 'release_manager' ? { releaseApps: { from: target.releaseApps, to: releaseApps } } : {};
        await recordAudit(trx, { ...audit, action: 'role-changed', detail: { from: target.role, to: role, ...apps, sessionsEnded: ended, ...(leadsUnassigned !== undefined && { leadsUnassigned }) } });
      });
      return { ...member, role, releaseApps };
    },
  );

  app.delete('/api/staff/members/:id', { config: admin, schema: { params: IdParamsSchema, response: NO_CONTENT_RESPONSES } }, async (request, reply) => {
    const actor = sessionOf(request).member;
    await changeMember(Number(request.params.id), 'removed', async (trx, target) => {
      await trx.updateTable('staff_members').set({ removed_at: new Date().toISOString() }).where('id', '=', target.id).execute();
      await trx.deleteFrom('staff_passkeys').where('member_id', '=', target.id).execute();
      await trx.deleteFrom('staff_totp').where('member_id', '=', target.id).execute();
      await trx.deleteFrom('staff_recovery_codes').where('member_id', '=', target.id).execute();
      const ended = await endMemberSessions(trx, target.id);
      await recordAudit(trx, { actorId: actor.id, actor: actor.email, action: 'member-removed', target: `member:${target.id}`, address: request.ip, detail: { email: target.email, sessionsEnded: ended } });
    });
    return reply.code(204).send();
  });

  app.get('/api/staff/members/:id/sessions', { config: admin, schema: { params: IdParamsSchema, response: { 200: SessionListSchema, ...ERROR_RESPONSES } } }, async (request) => {
    if (!(await findMember(db, Number(request.params.id)))) throw new ApiError(404, 'MEMBER_NOT_FOUND', STAFF_MESSAGES.memberNotFound);
    return listSessions(db, Number(request.params.id), sessionOf(request).idHash);
  });

  app.delete('/api/staff/sessions/:id', { config: admin, schema: { params: SessionParamsSchema, response: NO_CONTENT_RESPONSES } }, async (request, reply) => {
    const actor = sessionOf(request).member;
    const owner = await sessionOwner(db, request.params.id);
    if (owner === undefined || !(await endSession(db.kysely, request.params.id))) throw new ApiError(404, 'SESSION_NOT_FOUND', STAFF_MESSAGES.sessionNotFound);
    await recordAudit(db.kysely, { actorId: actor.id, actor: actor.email, action: 'session-ended', target: `member:${owner}`, address: request.ip });
    return reply.code(204).send();
  });
};
