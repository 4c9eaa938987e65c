import {
  CorrectionBodySchema,
  DataSubjectBodySchema,
  DataSubjectReportSchema,
  ERROR_RESPONSES,
  ErasureBodySchema,
  ErasureResultSchema,
  IdParamsSchema,
  LeadConflictSchema,
  LeadDetailSchema,
} from '@agency/shared/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../platform/db/connection';
import { WalBusyError } from '../../platform/db/deleted-rows';
import { ApiError } from '../../platform/http/api-error';
import type { AuditActor } from '../../platform/audit/audit-log';
import { STAFF_MESSAGES } from '../common/staff-messages';
import type { Actor } from '../inbox/lead-work';
import { sessionOf } from '../sessions/staff-guard';
import { parseDataSubject, type DataSubject } from './data-subject';
import { correctLead } from './lead-correction';
import { ErasureNotJournaledError } from './erasure-journal-writer';
import { eraseSubject, type ErasureOptions } from './subject-erasure';
import { exportSubject, subjectReport } from './subject-report';

export interface DataRequestRoutesOptions {
  db: Db;
  /** Whether the leads webhook is configured (it is told of erasures). */
  webhook: boolean;
  /** Where each erasure is journaled before it is made (the backups' erasure journal); none when backups are off. */
  journal?: ErasureOptions['journal'];
}

function subjectOf(input: string): DataSubject {
  const subject = parseDataSubject(input);
  if (!subject) throw new ApiError(400, 'VALIDATION_ERROR', STAFF_MESSAGES.subjectInvalid, { subject: STAFF_MESSAGES.subjectInvalid });
  return subject;
}

/** «Запити щодо даних»: a person's data found, exported, corrected and erased; admins only. */
export const dataRequestRoutes: FastifyPluginAsyncTypebox<DataRequestRoutesOptions> = async (app, { db, webhook, journal }) => {
  const admin = { staffRole: 'admin' as const };
  const actorOf = (request: FastifyRequest): Actor => ({ member: sessionOf(request).member, address: request.ip });
  const auditActorOf = (request: FastifyRequest): AuditActor => {
    const { member, address } = actorOf(request);
    return { id: member.id, actor: member.email, address };
  };

  // The person is named in the body, never in the URL: servers, proxies and browsers keep URLs
  // in their logs and history, which an erasure cannot reach. POST, so the guard wants the CSRF token too.
  const lookupSchema = { config: admin, schema: { body: DataSubjectBodySchema, response: { 200: DataSubjectReportSchema, ...ERROR_RESPONSES } } };
  app.post('/api/staff/data-requests/lookup', lookupSchema, async (request) => subjectReport(db, subjectOf(request.body.subject)));

  app.post('/api/staff/data-requests/export', lookupSchema, async (request, reply) => {
    const report = await exportSubject(db, subjectOf(request.body.subject), auditActorOf(request));
    return reply.header('content-disposition', `attachment; filename="data-${report.generatedAt.slice(0, 10)}.json"`).send(report);
  });

  app.post(
    '/api/staff/data-requests/erase',
    { config: admin, schema: { body: ErasureBodySchema, response: { 200: ErasureResultSchema, ...ERROR_RESPONSES } } },
    async (request) => {
      const subject = subjectOf(request.body.subject);
      // The confirmation is the same person typed again: a slip of the first field cannot erase someone else.
      const confirmed = parseDataSubject(request.body.confirmation);
      if (!confirmed || JSON.stringify(confirmed) !== JSON.stringify(subject)) {
        throw new ApiError(400, 'VALIDATION_ERROR', STAFF_MESSAGES.erasureNotConfirmed, { confirmation: STAFF_MESSAGES.erasureNotConfirmed });
      }
      try {
        return await eraseSubject(db, subject, auditActorOf(request), { webhook, journal });
      } catch (error) {
        if (error instanceof WalBusyError) throw new ApiError(503, 'ERASURE_UNFINISHED', STAFF_MESSAGES.erasureUnfinished);
        if (error instanceof ErasureNotJournaledError) throw new ApiError(503, 'ERASURE_NOT_JOURNALED', STAFF_MESSAGES.erasureNotJournaled);
        throw error;
      }
    },
  );

  app.patch(
    '/api/staff/leads/:id/fields',
    { config: admin, schema: { params: IdParamsSchema, body: CorrectionBodySchema, response: { 200: LeadDetailSchema, 409: LeadConflictSchema, ...ERROR_RESPONSES } } },
    async (request) => correctLead(db, Number(request.params.id), request.body, actorOf(request)),
  );
};
