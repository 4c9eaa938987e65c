import { roleAllows, STAFF_CSRF_HEADER, STAFF_SESSION_COOKIE, type StaffAccess } from '@agency/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../platform/db/connection';
import { ApiError } from '../../platform/http/api-error';
import { STAFF_MESSAGES } from '../common/staff-messages';
import type { StaffOrigin } from '../common/staff-origin';
import { sameSecret } from '../common/staff-secrets';
import { readSession, type ActiveSession } from './session-store';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in member's session, on routes that need one. */
    staffSession?: ActiveSession;
  }
  interface FastifyContextConfig {
    /**
     * What a staff route needs (roleAllows): the least role of the agency's work, `releases` for
     * «Релізи», `member` for anyone signed in (their own session and account); `public` for the
     * sign-in routes, which need no session (state-changing ones still need the site's Origin).
     */
    staffRole?: StaffAccess | 'public';
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Every staff route's gate, in this order: a session where the route needs one (else 401); for
 * a state-changing request, an Origin equal to SITE_URL and, with a session, its CSRF token in
 * the STAFF_CSRF_HEADER header (else 403, before anything changes); then the route's role (403).
 * The Origin check also covers the sign-in routes, so no other site can sign a browser in.
 */
export function staffGuard(db: Db, origin: StaffOrigin) {
  return async function guard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    reply.header('cache-control', 'no-store');
    const needed = request.routeOptions.config.staffRole;
    if (needed === undefined) throw new Error(`staff route ${request.routeOptions.url} declares no staffRole`);
    const changing = STATE_CHANGING.has(request.method);
    let session: ActiveSession | undefined;
    if (needed !== 'public') {
      const id = request.cookies[STAFF_SESSION_COOKIE];
      session = id ? await readSession(db, id) : undefined;
      if (!session) throw new ApiError(401, 'SIGN_IN_REQUIRED', STAFF_MESSAGES.signInRequired);
      request.staffSession = session;
    }
    if (changing) {
      if (request.headers.origin !== origin.origin) throw new ApiError(403, 'CSRF_REFUSED', STAFF_MESSAGES.csrf);
      const token = request.headers[STAFF_CSRF_HEADER];
      if (session && (typeof token !== 'string' || !sameSecret(token, session.csrfToken))) throw new ApiError(403, 'CSRF_REFUSED', STAFF_MESSAGES.csrf);
    }
    if (session && needed !== 'public' && !roleAllows(session.member.role, needed)) throw new ApiError(403, 'FORBIDDEN', STAFF_MESSAGES.forbidden);
  };
}

/** The signed-in session of a route the guard let through with a role. */
export function sessionOf(request: FastifyRequest): ActiveSession {
  if (!request.staffSession) throw new Error('staff route without a session: give it a staffRole');
  return request.staffSession;
}
