import {
  CredentialOptionsResponseSchema,
  ERROR_RESPONSES,
  NO_CONTENT_RESPONSES,
  PasskeyBodySchema,
  RecoveryCodesResponseSchema,
  SessionListSchema,
  SessionParamsSchema,
  TotpConfirmBodySchema,
  TotpSetupResponseSchema,
} from '@agency/shared/contracts';
import { BRAND } from '@agency/shared';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../platform/db/connection';
import { ApiError } from '../../platform/http/api-error';
import { recordAudit } from '../../platform/audit/audit-log';
import { endSession, listSessions, sessionOwner } from '../sessions/session-store';
import { sessionOf } from '../sessions/staff-guard';
import { dropChallenge, putChallenge, readChallenge } from '../credentials/challenges';
import { passkeyIdsOf, registrationOptions, storePasskey, verifyRegistration, type RegistrationChallenge } from '../credentials/passkeys';
import { renewRecoveryCodes } from '../credentials/recovery-codes';
import { codeStep, newTotpSetup, storeTotp } from '../credentials/totp';
import { STAFF_MESSAGES } from '../common/staff-messages';
import type { StaffOrigin } from '../common/staff-origin';
import { randomToken } from '../common/staff-secrets';

export interface AccountRoutesOptions {
  db: Db;
  origin: StaffOrigin;
}

/** A challenge made for one member: it changes that member's account and no other. */
interface MemberChallenge {
  memberId: number;
}


/** A signed-in person's own account: more passkeys, the authenticator app, new recovery codes, their sessions. */
export const accountRoutes: FastifyPluginAsyncTypebox<AccountRoutesOptions> = async (app, { db, origin }) => {
  const config = { staffRole: 'member' as const };

  async function challengeFor<T extends MemberChallenge>(id: string, purpose: 'passkey-registration' | 'totp-setup', memberId: number): Promise<T> {
    const value = await readChallenge<T>(db, id, purpose);
    if (!value || value.memberId !== memberId) throw new ApiError(400, 'CHALLENGE_EXPIRED', STAFF_MESSAGES.challengeExpired);
    return value;
  }

  app.post('/api/staff/account/passkeys/options', { config, schema: { response: { 200: CredentialOptionsResponseSchema, ...ERROR_RESPONSES } } }, async (request) => {
    const { member } = sessionOf(request);
    const userId = randomToken(16);
    const options = await registrationOptions(origin, member.email, userId, await passkeyIdsOf(db, member.id));
    const value: RegistrationChallenge & MemberChallenge = { challenge: options.challenge, userId, memberId: member.id };
    return { challengeId: await putChallenge(db, 'passkey-registration', value), options };
  });

  app.post('/api/staff/account/passkeys', { config, schema: { body: PasskeyBodySchema, response: NO_CONTENT_RESPONSES } }, async (request, reply) => {
    const { member } = sessionOf(request);
    const { challenge } = await challengeFor<RegistrationChallenge & MemberChallenge>(request.body.challengeId, 'passkey-registration', member.id);
    const credential = await verifyRegistration(origin, challenge, request.body.credential);
    if (!credential) throw new ApiError(400, 'PASSKEY_REFUSED', STAFF_MESSAGES.passkeyRefused);
    await db.kysely.transaction().execute(async (trx) => {
      if (!(await dropChallenge(trx, request.body.challengeId))) throw new ApiError(400, 'CHALLENGE_EXPIRED', STAFF_MESSAGES.challengeExpired);
      const now = new Date();
      await storePasskey(trx, member.id, credential, now);
      await recordAudit(trx, { actorId: member.id, actor: member.email, action: 'passkey-added', target: `member:${member.id}`, address: request.ip }, now);
    });
    return reply.code(204).send();
  });

  app.post('/api/staff/account/totp/setup', { config, schema: { response: { 200: TotpSetupResponseSchema, ...ERROR_RESPONSES } } }, async (request) => {
    const { member } = sessionOf(request);
    const setup = await newTotpSetup(member.email, BRAND.name);
    return { challengeId: await putChallenge(db, 'totp-setup', { secret: setup.secret, memberId: member.id }), ...setup };
  });

  app.post('/api/staff/account/totp', { config, schema: { body: TotpConfirmBodySchema, response: NO_CONTENT_RESPONSES } }, async (request, reply) => {
    const { member } = sessionOf(request);
    const { secret } = await challengeFor<{ secret: string } & MemberChallenge>(request.body.challengeId, 'totp-setup', member.id);
    const step = codeStep(secret, request.body.code);
    if (step === undefined) throw new ApiError(400, 'TOTP_REFUSED', STAFF_MESSAGES.totpRefused);
    await db.kysely.transaction().execute(async (trx) => {
      if (!(await dropChallenge(trx, request.body.challengeId))) throw new ApiError(400, 'CHALLENGE_EXPIRED', STAFF_MESSAGES.challengeExpired);
      const now = new Date();
      await storeTotp(trx, member.id, secret, step, now);
      await recordAudit(trx, { actorId: member.id, actor: member.email, action: 'totp-enabled', target: `member:${member.id}`, address: request.ip }, now);
    });
    return reply.code(204).send();
  });

  app.post('/api/staff/account/recovery-codes', { config, schema: { response: { 200: RecoveryCodesResponseSchema, ...ERROR_RESPONSES } } }, async (request) => {
    const { member } = sessionOf(request);
    const recoveryCodes = await db.kysely.transaction().execute(async (trx) => {
      const now = new Date();
      const codes = await renewRecoveryCodes(trx, member.id, now);
      await recordAudit(trx, { actorId: member.id, actor: member.email, action: 'recovery-codes-renewed', target: `member:${member.id}`, address: request.ip }, now);
      return codes;
    });
    return { recoveryCodes };
  });

  app.get('/api/staff/account/sessions', { config, schema: { response: { 200: SessionListSchema, ...ERROR_RESPONSES } } }, async (request) => {
    const session = sessionOf(request);
    return listSessions(db, session.member.id, session.idHash);
  });

  app.delete('/api/staff/account/sessions/:id', { config, schema: { params: SessionParamsSchema, response: NO_CONTENT_RESPONSES } }, async (request, reply) => {
    const { member } = sessionOf(request);
    if ((await sessionOwner(db, request.params.id)) !== member.id) throw new ApiError(404, 'SESSION_NOT_FOUND', STAFF_MESSAGES.sessionNotFound);
    await endSession(db.kysely, request.params.id);
    await recordAudit(db.kysely, { actorId: member.id, actor: member.email, action: 'session-ended', target: `member:${member.id}`, address: request.ip });
    return reply.code(204).send();
  });
};
