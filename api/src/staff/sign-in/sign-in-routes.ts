import {
  CodeSignInBodySchema,
  CredentialOptionsResponseSchema,
  ERROR_RESPONSES,
  PasskeyBodySchema,
  RecoverySignInBodySchema,
  StaffSessionSchema,
} from '@agency/shared/contracts';
import type { TeamMember } from '@agency/shared';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../platform/db/connection';
import { ApiError } from '../../platform/http/api-error';
import { findMemberByEmail } from '../accounts/members-repository';
import { recordAudit } from '../../platform/audit/audit-log';
import { clearSessionCookie, startSession } from '../sessions/session-cookie';
import { endSession } from '../sessions/session-store';
import { sessionOf } from '../sessions/staff-guard';
import { STAFF_MESSAGES } from '../common/staff-messages';
import type { StaffOrigin } from '../common/staff-origin';
import { putChallenge, takeChallenge } from '../credentials/challenges';
import { describeSession } from '../credentials/describe-session';
import { signInOptions, verifySignIn } from '../credentials/passkeys';
import { useRecoveryCode } from '../credentials/recovery-codes';
import { useTotpCode } from '../credentials/totp';
import { lockedUntil, recordCodeFailure } from './code-lockout';

export interface SignInRoutesOptions {
  db: Db;
  origin: StaffOrigin;
  rateLimitPerMinute: number;
}

export const signInRoutes: FastifyPluginAsyncTypebox<SignInRoutesOptions> = async (app, { db, origin, rateLimitPerMinute }) => {
  const signIn = { staffRole: 'public' as const, rateLimit: { max: rateLimitPerMinute, timeWindow: 60_000 } };
  const response = { 200: StaffSessionSchema, ...ERROR_RESPONSES };

  async function failed(request: FastifyRequest, actor: string, method: string, reason: string): Promise<void> {
    await recordAudit(db.kysely, { actorId: null, actor, action: 'sign-in-failed', target: 'session', address: request.ip, detail: { method, reason } });
  }

  app.post('/api/staff/sign-in/passkey/options', { config: signIn, schema: { response: { 200: CredentialOptionsResponseSchema, ...ERROR_RESPONSES } } }, async () => {
    const options = await signInOptions(origin);
    return { challengeId: await putChallenge(db, 'passkey-sign-in', options.challenge), options };
  });

  app.post('/api/staff/sign-in/passkey', { config: signIn, schema: { body: PasskeyBodySchema, response } }, async (request, reply) => {
    const challenge = await takeChallenge<string>(db, request.body.challengeId, 'passkey-sign-in');
    if (challenge === undefined) throw new ApiError(400, 'CHALLENGE_EXPIRED', STAFF_MESSAGES.challengeExpired);
    const member = await verifySignIn(db, origin, challenge, request.body.credential, new Date());
    if (!member) {
      await failed(request, 'passkey', 'passkey', 'not verified');
      throw new ApiError(401, 'PASSKEY_REFUSED', STAFF_MESSAGES.passkeyRefused);
    }
    return describeSession(db, member, await startSession(db.kysely, request, reply, origin, member, 'passkey'));
  });

  /** E-mail and a one-time code (`check` spends it); one answer for a wrong code and an unknown e-mail. */
  async function codeSignIn(request: FastifyRequest, email: string, method: string, check: (member: TeamMember) => Promise<boolean>) {
    if (await lockedUntil(db, email)) {
      await failed(request, email, method, 'locked out');
      throw new ApiError(429, 'CODES_LOCKED', STAFF_MESSAGES.lockedOut);
    }
    const member = await findMemberByEmail(db, email);
    if (member && (await check(member))) return member;
    await failed(request, email, method, member ? 'wrong code' : 'no such member');
    if (await recordCodeFailure(db, email)) throw new ApiError(429, 'CODES_LOCKED', STAFF_MESSAGES.lockedOut);
    throw new ApiError(401, 'CODE_REFUSED', STAFF_MESSAGES.codeRefused);
  }

  app.post('/api/staff/sign-in/code', { config: signIn, schema: { body: CodeSignInBodySchema, response } }, async (request, reply) => {
    const member = await codeSignIn(request, request.body.email, 'totp', (candidate) => useTotpCode(db, candidate.id, request.body.code));
    return describeSession(db, member, await startSession(db.kysely, request, reply, origin, member, 'totp'));
  });

  app.post('/api/staff/sign-in/recovery', { config: signIn, schema: { body: RecoverySignInBodySchema, response } }, async (request, reply) => {
    const member = await codeSignIn(request, request.body.email, 'recovery code', (candidate) => useRecoveryCode(db, candidate.id, request.body.code));
    return describeSession(db, member, await startSession(db.kysely, request, reply, origin, member, 'recovery code'));
  });

  app.get('/api/staff/session', { config: { staffRole: 'member' }, schema: { response } }, async (request) => {
    const session = sessionOf(request);
    return describeSession(db, session.member, session.csrfToken);
  });

  app.post('/api/staff/sign-out', { config: { staffRole: 'member' }, schema: { response: { 204: { type: 'null' }, ...ERROR_RESPONSES } } }, async (request, reply) => {
    const session = sessionOf(request);
    await endSession(db.kysely, session.idHash);
    await recordAudit(db.kysely, { actorId: session.member.id, actor: session.member.email, action: 'sign-out', target: `member:${session.member.id}`, address: request.ip });
    clearSessionCookie(reply, origin);
    return reply.code(204).send();
  });
};
