import { ERROR_RESPONSES, IdParamsSchema, LeadRoutingListSchema, LeadRoutingMemberSchema, LeadRoutingUpdateSchema } from '@agency/shared/contracts';
import type { LeadKind, LeadRoutingMember } from '@agency/shared';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { recordAudit } from '../../platform/audit/audit-log';
import type { Db } from '../../platform/db/connection';
import { ApiError } from '../../platform/http/api-error';
import { STAFF_MESSAGES } from '../common/staff-messages';
import { sessionOf } from '../sessions/staff-guard';

/**
 * Every current member who works leads (release managers do not) with the kinds of lead they take
 * in turn, whether they are away, and their Telegram chat.
 */
async function routingOf(db: Db, memberId?: number): Promise<LeadRoutingMember[]> {
  let query = db.kysely
    .selectFrom('staff_members')
    .select(['id', 'email', 'role', 'away', 'telegram_chat_id'])
    .where('removed_at', 'is', null)
    .where('role', '!=', 'release_manager')
    .orderBy('id');
  if (memberId !== undefined) query = query.where('id', '=', memberId);
  const [members, routing] = await Promise.all([query.execute(), db.kysely.selectFrom('lead_routing').select(['member_id', 'kind']).execute()]);
  return members.map((member) => ({
    id: Number(member.id),
    email: member.email,
    role: member.role,
    kinds: routing.filter((row) => Number(row.member_id) === Number(member.id)).map((row) => row.kind as LeadKind).sort(),
    away: Number(member.away) === 1,
    telegramChatId: member.telegram_chat_id,
  }));
}

/**
 * Assignment rules (admins): which members take which kind of lead in turn (contact messages,
 * job applications), who is away (skipped), and the Telegram chat an overdue alert about their
 * lead reaches. Each change is audited with what it was before, and holds for new leads on every
 * process within seconds.
 */
export const leadRoutingRoutes: FastifyPluginAsyncTypebox<{ db: Db; routing: { forget(): void } }> = async (app, { db, routing }) => {
  const admin = { staffRole: 'admin' as const };

  app.get('/api/staff/lead-routing', { config: admin, schema: { response: { 200: LeadRoutingListSchema, ...ERROR_RESPONSES } } }, async () => routingOf(db));

  app.put(
    '/api/staff/lead-routing/:id',
    { config: admin, schema: { params: IdParamsSchema, body: LeadRoutingUpdateSchema, response: { 200: LeadRoutingMemberSchema, ...ERROR_RESPONSES } } },
    async (request) => {
      const { member } = sessionOf(request);
      const id = Number(request.params.id);
      const { kinds, away, telegramChatId } = request.body;
      const changed = await db.kysely.transaction().execute(async (trx) => {
        const inTransaction = { kysely: trx, dialect: db.dialect };
        const [before] = await routingOf(inTransaction, id);
        if (!before) return undefined;
        await trx.updateTable('staff_members').set({ away: away ? 1 : 0, telegram_chat_id: telegramChatId }).where('id', '=', id).execute();
        await trx.deleteFrom('lead_routing').where('member_id', '=', id).execute();
        if (kinds.length > 0) await trx.insertInto('lead_routing').values(kinds.map((kind) => ({ member_id: id, kind }))).execute();
        await recordAudit(trx, {
          actorId: member.id,
          actor: member.email,
          action: 'lead-routing-changed',
          target: `member:${id}`,
          address: request.ip,
          detail: { kinds: { from: before.kinds, to: [...kinds].sort() }, away: { from: before.away, to: away }, telegram: { from: before.telegramChatId !== null, to: telegramChatId !== null } },
        });
        return true;
      });
      if (!changed) throw new ApiError(404, 'MEMBER_NOT_FOUND', STAFF_MESSAGES.memberNotFound);
      routing.forget();
      return (await routingOf(db, id))[0]!;
    },
  );
};
