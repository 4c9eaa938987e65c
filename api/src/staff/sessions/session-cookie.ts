import { STAFF_API_PREFIX, STAFF_SESSION_COOKIE, type StaffMember } from '@agency/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppKysely } from '../../platform/db/schema';
import { recordAudit } from '../../platform/audit/audit-log';
import type { StaffOrigin } from '../common/staff-origin';
import { createSession } from './session-store';

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's page sends
 * it), Secure over https, and sent to the staff API alone: public pages never carry it.
 */
function cookieOptions(origin: StaffOrigin) {
  return { path: STAFF_API_PREFIX, httpOnly: true, sameSite: 'strict' as const, secure: origin.secureCookie };
}

/** Signs `member` in on this browser: a new session (a new id at every sign-in), its cookie, and the audit entry. */
export async function startSession(
  kysely: AppKysely,
  request: FastifyRequest,
  reply: FastifyReply,
  origin: StaffOrigin,
  member: StaffMember,
  method: string,
): Promise<string> {
  const now = new Date();
  const session = await createSession(kysely, member.id, { userAgent: request.headers['user-agent'] ?? '', address: request.ip }, now);
  await recordAudit(kysely, { actorId: member.id, actor: member.email, action: 'sign-in', target: `member:${member.id}`, address: request.ip, detail: { method } }, now);
  reply.setCookie(STAFF_SESSION_COOKIE, session.id, { ...cookieOptions(origin), expires: session.expiresAt });
  return session.csrfToken;
}

export function clearSessionCookie(reply: FastifyReply, origin: StaffOrigin): void {
  reply.clearCookie(STAFF_SESSION_COOKIE, cookieOptions(origin));
}
