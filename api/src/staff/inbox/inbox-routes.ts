import { Readable } from 'node:stream';
import {
  ERROR_RESPONSES,
  IdParamsSchema,
  LeadConflictSchema,
  LeadDetailSchema,
  LeadFilterSchema,
  LeadListQuerySchema,
  LeadNoteSchema,
  LeadPageSchema,
  LeadSummarySchema,
  LeadUpdateBodySchema,
  NoteBodySchema,
  NotSpamBodySchema,
  ResponseReportQuerySchema,
  ResponseReportSchema,
  UnlinkBodySchema,
  SpamBodySchema,
  SpamResponseSchema,
} from '@agency/shared/contracts';
import { FOLLOW_UP_LIMITS, STAFF_LIMITS, type LeadFilter } from '@agency/shared';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../platform/db/connection';
import { ApiError } from '../../platform/http/api-error';
import { recordAudit } from '../../platform/audit/audit-log';
import { sessionOf } from '../sessions/staff-guard';
import { STAFF_MESSAGES } from '../common/staff-messages';
import { listLeads } from './inbox-repository';
import { countLeads, leadCsv } from './lead-csv';
import { findLeadDetail } from './lead-detail';
import { addNote, markNotSpam, markSpam, unlinkLead, updateLead, type Actor, type NotSpamOptions } from './lead-work';
import { responseReport } from './response-report';

/** The lead inbox: everyone reads it; editors work leads, let held ones through («Не спам») and export them. */
export const inboxRoutes: FastifyPluginAsyncTypebox<{ db: Db } & NotSpamOptions> = async (app, { db, channels, followUp }) => {
  const { clock } = followUp;
  const viewer = { staffRole: 'viewer' as const };
  const editor = { staffRole: 'editor' as const };
  const actorOf = (request: FastifyRequest): Actor => ({ member: sessionOf(request).member, address: request.ip });

  app.get('/api/staff/leads', { config: viewer, schema: { querystring: LeadListQuerySchema, response: { 200: LeadPageSchema, ...ERROR_RESPONSES } } }, async (request) => {
    const { before, after, ...filter } = request.query;
    return listLeads(db, { filter, before: before === undefined ? undefined : Number(before), after: after === undefined ? undefined : Number(after), limit: STAFF_LIMITS.pageSize }, clock.now());
  });

  app.get('/api/staff/leads/report', { config: viewer, schema: { querystring: ResponseReportQuerySchema, response: { 200: ResponseReportSchema, ...ERROR_RESPONSES } } }, async (request) => {
    const weeks = Math.min(FOLLOW_UP_LIMITS.reportWeeksMax, Number(request.query.weeks ?? FOLLOW_UP_LIMITS.reportWeeksDefault));
    const { targetMinutes } = await followUp.settings.get();
    return responseReport(db, { weeks, targetMinutes, now: clock.now() });
  });

  app.get('/api/staff/leads/export', { config: editor, schema: { querystring: LeadFilterSchema } }, async (request, reply) => {
    const filter: LeadFilter = request.query;
    const actor = actorOf(request);
    const day = new Date().toISOString().slice(0, 10);
    // Recorded before the file is sent: an export cut short was still an export.
    const rows = await countLeads(db, filter);
    // The search's words are left out: they are often a person's name, e-mail or phone, which the
    // log must not keep (an erasure could not remove them from it).
    const { q, ...filters } = filter;
    await recordAudit(db.kysely, { actorId: actor.member.id, actor: actor.member.email, action: 'leads-exported', target: 'leads', address: actor.address, detail: { filter: filters, searched: q !== undefined, rows } });
    const csv = leadCsv(db, filter);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="leads-${day}.csv"`)
      .send(Readable.from(csv));
  });

  app.get('/api/staff/leads/:id', { config: viewer, schema: { params: IdParamsSchema, response: { 200: LeadDetailSchema, ...ERROR_RESPONSES } } }, async (request) => {
    const lead = await findLeadDetail(db, Number(request.params.id), clock.now());
    if (!lead) throw new ApiError(404, 'LEAD_NOT_FOUND', STAFF_MESSAGES.leadNotFound);
    return lead;
  });

  app.patch(
    '/api/staff/leads/:id',
    { config: editor, schema: { params: IdParamsSchema, body: LeadUpdateBodySchema, response: { 200: LeadSummarySchema, 409: LeadConflictSchema, ...ERROR_RESPONSES } } },
    async (request) => updateLead(db, Number(request.params.id), request.body, actorOf(request), clock),
  );

  app.post(
    '/api/staff/leads/:id/notes',
    { config: editor, schema: { params: IdParamsSchema, body: NoteBodySchema, response: { 201: LeadNoteSchema, ...ERROR_RESPONSES } } },
    async (request, reply) => reply.code(201).send(await addNote(db, Number(request.params.id), request.body.text, actorOf(request), clock)),
  );

  app.post(
    '/api/staff/leads/:id/not-spam',
    { config: editor, schema: { params: IdParamsSchema, body: NotSpamBodySchema, response: { 200: LeadSummarySchema, 409: LeadConflictSchema, ...ERROR_RESPONSES } } },
    async (request) => markNotSpam(db, Number(request.params.id), request.body.version, actorOf(request), { channels, followUp }),
  );

  app.post(
    '/api/staff/leads/:id/unlink',
    { config: editor, schema: { params: IdParamsSchema, body: UnlinkBodySchema, response: { 200: LeadSummarySchema, 409: LeadConflictSchema, ...ERROR_RESPONSES } } },
    async (request) => unlinkLead(db, Number(request.params.id), request.body.version, actorOf(request), clock),
  );

  app.post('/api/staff/leads/spam', { config: editor, schema: { body: SpamBodySchema, response: { 200: SpamResponseSchema, ...ERROR_RESPONSES } } }, async (request) => ({
    updated: await markSpam(db, request.body.ids, actorOf(request)),
  }));
};
