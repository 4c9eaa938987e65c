import { AuditPageSchema, AuditQuerySchema, ERROR_RESPONSES } from '@agency/shared/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../platform/db/connection';
import { readAudit } from '../../platform/audit/audit-log';

/** Entries per page of the audit log in the console. */
export const AUDIT_PAGE_SIZE = 100;

/** The audit log, newest first, for admins. */
export const auditRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.get('/api/staff/audit', { config: { staffRole: 'admin' }, schema: { querystring: AuditQuerySchema, response: { 200: AuditPageSchema, ...ERROR_RESPONSES } } }, async (request) =>
    readAudit(db, { since: request.query.since, before: request.query.before === undefined ? undefined : Number(request.query.before), limit: AUDIT_PAGE_SIZE }),
  );
};
