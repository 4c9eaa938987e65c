import {
  ERROR_RESPONSES,
  StaffCanaryBodySchema,
  StaffPromoteBodySchema,
  StaffReleaseChangedSchema,
  StaffReleaseDetailSchema,
  StaffReleaseExpectBodySchema,
  StaffReleaseHealthQuerySchema,
  StaffReleasesSchema,
  StaffStageBodySchema,
} from '@agency/shared/contracts';
import type { ReleaseExpectation, StaffCanaryBody, StaffPromoteBody, StaffReleaseExpectBody, StaffStageBody } from '@agency/shared';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../platform/db/connection';
import { recordAudit, type AuditAction } from '../../platform/audit/audit-log';
import { ApiError } from '../../platform/http/api-error';
import { parseDuration } from '../../platform/lib/duration';
import { STAFF_MESSAGES } from '../common/staff-messages';
import { sessionOf } from '../sessions/staff-guard';
import { appsToActOn, checkMayAct, knownApp } from './release-rights';

type ReleaseDesk = FastifyInstance['delivery']['releaseDesk'];
type DeskCommand = Parameters<ReleaseDesk['act']>[2];

/** The window «Релізи» shows by default, as `--status` reports it. */
export const DEFAULT_HEALTH_WINDOW = '1h';
/** The longest window asked for: telemetry is kept about two weeks, and a month is plenty to compare releases. */
const MAX_HEALTH_WINDOW_MS = 30 * 24 * 3_600_000;

const AppParams = Type.Object({ app: Type.String({ minLength: 1, maxLength: 40 }) });

/** How each command is recorded in the staff audit log. */
const AUDIT_ACTIONS: Record<DeskCommand['command'], AuditAction> = {
  stage: 'release-staged',
  canary: 'release-canary',
  promote: 'release-promoted',
  rollback: 'release-rolled-back',
  abort: 'release-aborted',
};

/**
 * «Релізи» (`/api/staff/releases…`): release managers and admins read every app's releases and
 * their health; a release manager changes the releases of the apps given to them, with the same
 * commands, gate, rules and release events as the release API (actor `staff:<e-mail>`), each
 * naming the state it was decided on (`expect`). A refused change is 409 with the command's own
 * message (CONCURRENT_CHANGE when the state moved on, REFUSED otherwise) and changes nothing;
 * every change is also in the staff audit log.
 */
export const releaseRoutes: FastifyPluginAsyncTypebox<{ db: Db; desk: ReleaseDesk }> = async (app, { db, desk }) => {
  const read = { staffRole: 'releases' as const };

  app.get('/api/staff/releases', { config: read, schema: { response: { 200: StaffReleasesSchema, ...ERROR_RESPONSES } } }, async (request) => {
    const { member } = sessionOf(request);
    return { apps: await desk.apps(), mayAct: appsToActOn(member) };
  });

  app.get(
    '/api/staff/releases/:app',
    { config: read, schema: { params: AppParams, querystring: StaffReleaseHealthQuerySchema, response: { 200: StaffReleaseDetailSchema, ...ERROR_RESPONSES } } },
    async (request) => {
      const { member } = sessionOf(request);
      const name = knownApp(request.params.app);
      const windowMs = parseDuration(request.query.since ?? DEFAULT_HEALTH_WINDOW, { wholeUnits: true });
      if (windowMs === undefined || windowMs <= 0 || windowMs > MAX_HEALTH_WINDOW_MS) throw new ApiError(400, 'BAD_REQUEST', STAFF_MESSAGES.releaseWindowInvalid);
      const health = await desk.health(name, new Date(Date.now() - windowMs));
      return { ...health, mayAct: appsToActOn(member).includes(name) };
    },
  );

  /**
   * A change of `:app`'s releases: refused (403) before its body is read unless the member may
   * act on the app, then run as them and recorded in the audit log.
   */
  function change<Body extends { expect: ReleaseExpectation }>(path: string, body: unknown, commandOf: (body: Body) => DeskCommand) {
    app.post(
      `/api/staff/releases/:app/${path}`,
      {
        config: read,
        preValidation: async (request: FastifyRequest) => {
          const name = knownApp((request.params as { app: string }).app);
          checkMayAct(sessionOf(request).member, name);
        },
        schema: { params: AppParams, body: body as never, response: { 200: StaffReleaseChangedSchema, ...ERROR_RESPONSES } },
      },
      async (request) => {
        const { member } = sessionOf(request);
        const name = request.params.app;
        const { expect, ...fields } = request.body as Body;
        const command = commandOf(request.body as Body);
        const changed = await desk.act(`staff:${member.email}`, name, command, expect);
        await recordAudit(db.kysely, {
          actorId: member.id,
          actor: member.email,
          action: AUDIT_ACTIONS[command.command],
          target: `releases:${name}`,
          address: request.ip,
          detail: { ...fields, expect, done: changed.done },
        });
        return changed;
      },
    );
  }

  change<StaffStageBody>('stage', StaffStageBodySchema, ({ release }) => ({ command: 'stage', release }));
  change<StaffCanaryBody>('canary', StaffCanaryBodySchema, ({ release, share, minViews, promoteAfter }) => ({ command: 'canary', release, share, minViews, promoteAfter }));
  change<StaffPromoteBody>('promote', StaffPromoteBodySchema, ({ release }) => ({ command: 'promote', release }));
  change<StaffReleaseExpectBody>('rollback', StaffReleaseExpectBodySchema, () => ({ command: 'rollback' }));
  change<StaffReleaseExpectBody>('abort', StaffReleaseExpectBodySchema, () => ({ command: 'abort' }));
};
