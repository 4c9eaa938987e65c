import { IMAGE_UPLOAD } from '@agency/shared';
import {
  ERROR_RESPONSES,
  IdParamsSchema,
  ServiceCreateBodySchema,
  ServiceIconSchema,
  ServiceOrderBodySchema,
  ServiceRefusalSchema,
  ServiceSaveBodySchema,
  ServiceVersionBodySchema,
  StaffServiceListSchema,
  StaffServiceSchema,
} from '@agency/shared/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { acceptImageBodies, ICON_MESSAGES, keepUpload, preparedOrRefused, prepareServiceIcon } from '../../site/content';
import type { Db } from '../../platform/db/connection';
import { ApiError } from '../../platform/http/api-error';
import { STAFF_MESSAGES } from '../common/staff-messages';
import type { Actor } from '../inbox/lead-work';
import { sessionOf } from '../sessions/staff-guard';
import { createService, findStaffService, listStaffServices, publishService, reorderServices, saveService, unpublishService } from './service-work';

/** Services in the console («Послуги»): editors and admins; viewers get 403. */
export const serviceRoutes: FastifyPluginAsyncTypebox<{ db: Db; mediaDir: string }> = async (app, { db, mediaDir }) => {
  const editor = { staffRole: 'editor' as const };
  const actorOf = (request: FastifyRequest): Actor => ({ member: sessionOf(request).member, address: request.ip });
  const one = { 200: StaffServiceSchema, 409: ServiceRefusalSchema, ...ERROR_RESPONSES };

  app.get('/api/staff/services', { config: editor, schema: { response: { 200: StaffServiceListSchema, ...ERROR_RESPONSES } } }, async () => listStaffServices(db));

  app.post('/api/staff/services', { config: editor, schema: { body: ServiceCreateBodySchema, response: { 201: StaffServiceSchema, ...ERROR_RESPONSES } } }, async (request, reply) =>
    reply.code(201).send(await createService(db, request.body, actorOf(request))),
  );

  // A static segment: Fastify matches it before `/api/staff/services/:id`.
  app.put('/api/staff/services/order', { config: editor, schema: { body: ServiceOrderBodySchema, response: { 200: StaffServiceListSchema, ...ERROR_RESPONSES } } }, async (request) =>
    reorderServices(db, request.body.ids, actorOf(request)),
  );

  app.put('/api/staff/services/:id', { config: editor, schema: { params: IdParamsSchema, body: ServiceSaveBodySchema, response: one } }, async (request) =>
    saveService(db, Number(request.params.id), request.body, actorOf(request)),
  );

  app.post('/api/staff/services/:id/publish', { config: editor, schema: { params: IdParamsSchema, body: ServiceVersionBodySchema, response: one } }, async (request) =>
    publishService(db, Number(request.params.id), request.body.version, actorOf(request)),
  );

  app.post('/api/staff/services/:id/unpublish', { config: editor, schema: { params: IdParamsSchema, body: ServiceVersionBodySchema, response: one } }, async (request) =>
    unpublishService(db, Number(request.params.id), request.body.version, actorOf(request)),
  );

  acceptImageBodies(app);

  /** Prepares and stores an icon; the service takes it with its next save. */
  app.post(
    '/api/staff/services/:id/icon',
    { config: editor, bodyLimit: IMAGE_UPLOAD.maxBytes, schema: { params: IdParamsSchema, response: { 201: ServiceIconSchema, ...ERROR_RESPONSES } } },
    async (request, reply) => {
      const service = await findStaffService(db, Number(request.params.id));
      if (!service) throw new ApiError(404, 'SERVICE_NOT_FOUND', STAFF_MESSAGES.serviceNotFound);
      const icon = await preparedOrRefused(request.body, ICON_MESSAGES.notAnIcon, (bytes) => prepareServiceIcon(bytes, service.slug));
      await keepUpload(db, mediaDir, icon, sessionOf(request).member.id);
      return reply.code(201).send({ url: icon.url });
    },
  );
};
