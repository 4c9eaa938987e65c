import {
  CredentialOptionsResponseSchema,
  ERROR_RESPONSES,
  InvitationAcceptedSchema,
  InvitationBodySchema,
  InvitationInfoSchema,
  InvitationPasskeyBodySchema,
  InvitationTotpBodySchema,
  TotpSetupResponseSchema,
} from '@agency/shared/contracts';
import { BRAND } from '@agency/shared';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../platform/db/connection';
import { isUniqueViolation } from '../../platform/db/database-errors';
import type { AppKysely } from '../../platform/db/schema';
import { ApiError } from '../../platform/http/api-error';
import { recordAudit } from '../../platform/audit/audit-log';
import { startSession } from '../sessions/session-cookie';
import { dropChallenge, putChallenge, readChallenge, type ChallengePurpose } from '../credentials/challenges';
import { registrationOptions, storePasskey, verifyRegistration, type RegistrationChallenge } from '../credentials/passkeys';
import { renewRecoveryCodes } from '../credentials/recovery-codes';
import { describeSession } from '../credentials/describe-session';
import { codeStep, newTotpSetup, storeTotp } from '../credentials/totp';
import { STAFF_MESSAGES } from '../common/staff-messages';
import type { StaffOrigin } from '../common/staff-origin';
import { randomToken } from '../common/staff-secrets';
import { findOpenInvitation, useInvitation, type OpenInvitation } from './invitations';
import { insertMember } from './members-repository';

export interface InvitationRoutesOptions {
  db: Db;
  origin: StaffOrigin;
  rateLimitPerMinute: number;
}

/** A challenge made for one invitation: it finishes that invitation and no other. */
interface InvitationChallenge {
  tokenHash: string;
}

/**
 * Accepting an invitation: the person opens the link, registers a passkey (or an authenticator
 * app where the device has none), and is signed in with ten recovery codes shown once. The token
 * is sent in each request's body, never in a URL.
 */
export const invitationRoutes: FastifyPluginAsyncTypebox<InvitationRoutesOptions> = async (app, { db, origin, rateLimitPerMinute }) => {
  const config = { staffRole: 'public' as const, rateLimit: { max: rateLimitPerMinute, timeWindow: 60_000 } };

  async function openInvitation(token: string): Promise<OpenInvitation> {
    const invitation = await findOpenInvitation(db, token);
    if (!invitation) throw new ApiError(404, 'INVITATION_INVALID', STAFF_MESSAGES.invitationInvalid);
    return invitation;
  }

  async function challengeFor<T extends InvitationChallenge>(id: string, purpose: ChallengePurpose, invitation: OpenInvitation): Promise<T> {
    const value = await readChallenge<T>(db, id, purpose);
    if (!value || value.tokenHash !== invitation.tokenHash) throw new ApiError(400, 'CHALLENGE_EXPIRED', STAFF_MESSAGES.challengeExpired);
    return value;
  }

  /** Creates the member, runs `withMember` (their way to sign in), signs them in: all or nothing. */
  async function accept(
    request: FastifyRequest,
    reply: FastifyReply,
    invitation: OpenInvitation,
    challengeId: string,
    method: string,
    withMember: (kysely: AppKysely, memberId: number, now: Date) => Promise<void>,
  ) {
    const now = new Date();
    try {
      return await db.kysely.transaction().execute(async (trx) => {
        if (!(await dropChallenge(trx, challengeId)) || !(await useInvitation(trx, invitation, now))) {
          throw new ApiError(404, 'INVITATION_INVALID', STAFF_MESSAGES.invitationInvalid);
        }
        const member = await insertMember(trx, invitation.email, invitation.role, now, invitation.releaseApps);
        await withMember(trx, member.id, now);
        const recoveryCodes = await renewRecoveryCodes(trx, member.id, now);
        await recordAudit(trx, { actorId: member.id, actor: member.email, action: 'invitation-accepted', target: `member:${member.id}`, address: request.ip, detail: { role: member.role, ...(member.role === 'release_manager' && { releaseApps: member.releaseApps }), method } }, now);
        const csrfToken = await startSession(trx, request, reply, origin, member, method);
        return { member, csrfToken, recoveryCodes };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError(409, 'MEMBER_EXISTS', STAFF_MESSAGES.memberExists);
      throw error;
    }
  }

  app.post('/api/staff/invitation', { config, schema: { body: InvitationBodySchema, response: { 200: InvitationInfoSchema, ...ERROR_RESPONSES } } }, async (request) => {
    const { email, role, releaseApps, expiresAt } = await openInvitation(request.body.token);
    return { email, role, releaseApps, expiresAt };
  });

  app.post(
    '/api/staff/invitation/passkey/options',
    { config, schema: { body: InvitationBodySchema, response: { 200: CredentialOptionsResponseSchema, ...ERROR_RESPONSES } } },
    async (request) => {
      const invitation = await openInvitation(request.body.token);
      const userId = randomToken(16);
      const options = await registrationOptions(origin, invitation.email, userId, []);
      const value: RegistrationChallenge & InvitationChallenge = { challenge: options.challenge, userId, tokenHash: invitation.tokenHash };
      return { challengeId: await putChallenge(db, 'passkey-registration', value), options };
    },
  );

  app.post(
    '/api/staff/invitation/passkey',
    { config, schema: { body: InvitationPasskeyBodySchema, response: { 200: InvitationAcceptedSchema, ...ERROR_RESPONSES } } },
    async (request, reply) => {
      const invitation = await openInvitation(request.body.token);
      const { challenge } = await challengeFor<RegistrationChallenge & InvitationChallenge>(request.body.challengeId, 'passkey-registration', invitation);
      const credential = await verifyRegistration(origin, challenge, request.body.credential);
      if (!credential) throw new ApiError(400, 'PASSKEY_REFUSED', STAFF_MESSAGES.passkeyRefused);
      const accepted = await accept(request, reply, invitation, request.body.challengeId, 'passkey', (trx, memberId, now) => storePasskey(trx, memberId, credential, now));
      return { session: await describeSession(db, accepted.member, accepted.csrfToken), recoveryCodes: accepted.recoveryCodes };
    },
  );

  app.post(
    '/api/staff/invitation/totp/setup',
    { config, schema: { body: InvitationBodySchema, response: { 200: TotpSetupResponseSchema, ...ERROR_RESPONSES } } },
    async (request) => {
      const invitation = await openInvitation(request.body.token);
      const setup = await newTotpSetup(invitation.email, BRAND.name);
      return { challengeId: await putChallenge(db, 'totp-setup', { secret: setup.secret, tokenHash: invitation.tokenHash }), ...setup };
    },
  );

  app.post(
    '/api/staff/invitation/totp',
    { config, schema: { body: InvitationTotpBodySchema, response: { 200: InvitationAcceptedSchema, ...ERROR_RESPONSES } } },
    async (request, reply) => {
      const invitation = await openInvitation(request.body.token);
      const { secret } = await challengeFor<{ secret: string } & InvitationChallenge>(request.body.challengeId, 'totp-setup', invitation);
      const step = codeStep(secret, request.body.code);
      if (step === undefined) throw new ApiError(400, 'TOTP_REFUSED', STAFF_MESSAGES.totpRefused);
      const accepted = await accept(request, reply, invitation, request.body.challengeId, 'totp', (trx, memberId, now) => storeTotp(trx, memberId, secret, step, now));
      return { session: await describeSession(db, accepted.member, accepted.csrfToken), recoveryCodes: accepted.recoveryCodes };
    },
  );
};
