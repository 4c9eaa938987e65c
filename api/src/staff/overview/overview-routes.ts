import { DashboardQuerySchema, DashboardSchema, ERROR_RESPONSES, NO_CONTENT_RESPONSES, WeeklyReportChoiceSchema } from '@agency/shared/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../platform/db/connection';
import type { Clock } from '../../platform/lib/clock';
import { recordAudit } from '../../platform/audit/audit-log';
import { sessionOf } from '../sessions/staff-guard';
import { buildDashboard } from './dashboard';
import { resolveRange } from './dashboard-range';

/**
 * «Огляд»: the owner's dashboard for every member (`GET /api/staff/overview`, the period and the
 * filters in the query), and each admin's own choice of the weekly e-mail.
 */
export const overviewRoutes: FastifyPluginAsyncTypebox<{ db: Db; clock: Clock }> = async (app, { db, clock }) => {
  const viewer = { staffRole: 'viewer' as const };
  const admin = { staffRole: 'admin' as const };

  app.get('/api/staff/overview', { config: viewer, schema: { querystring: DashboardQuerySchema, response: { 200: DashboardSchema, ...ERROR_RESPONSES } } }, async (request) => {
    const { member } = sessionOf(request);
    const range = resolveRange(request.query, clock.now().getTime());
    const wants = await db.kysely.selectFrom('staff_members').select('weekly_report').where('id', '=', member.id).executeTakeFirst();
    return buildDashboard(db, range, { weeklyReport: member.role === 'admin' && Number(wants?.weekly_report ?? 0) === 1 });
  });

  app.put('/api/staff/overview/weekly-report', { config: admin, schema: { body: WeeklyReportChoiceSchema, response: NO_CONTENT_RESPONSES } }, async (request, reply) => {
    const { member } = sessionOf(request);
    const { weeklyReport } = request.body;
    await db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('staff_members').set({ weekly_report: weeklyReport ? 1 : 0 }).where('id', '=', member.id).execute();
      await recordAudit(trx, { actorId: member.id, actor: member.email, action: 'weekly-report-changed', target: `member:${member.id}`, address: request.ip, detail: { weeklyReport } });
    });
    return reply.code(204).send();
  });
};
