import {
  ContactMessageBodySchema,
  CreatedResponseSchema,
  ERROR_RESPONSES,
  IDEMPOTENCY_KEY_HEADER,
  JobApplicationBodySchema,
  SubmissionHeadersSchema,
} from '@agency/shared/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { ApiError, MESSAGES } from '../../../platform/http/api-error';
import { requireJson } from '../../../platform/http/require-json';
import { normalizeStrings, takeSubmission, type IntakeOutcome, type SubmissionIntakeOptions } from './submission-intake';

/** The answer to a submission, by what became of it (see storeSubmission). */
function answer(reply: FastifyReply, taken: IntakeOutcome) {
  reply.header('cache-control', 'no-store');
  if (taken.outcome === 'key-reused') {
    throw new ApiError(422, 'IDEMPOTENCY_KEY_REUSED', MESSAGES.idempotencyKeyReused);
  }
  // A repeat gets the first answer; the header tells a client (and its logs) it was a repeat.
  if (taken.outcome === 'replayed') reply.header('idempotent-replayed', 'true');
  return reply.code(201).send({ id: taken.id });
}

/** The forms' scripts send their submissions here as JSON, under an idempotency key. */
export const submissionRoutes: FastifyPluginAsyncTypebox<SubmissionIntakeOptions> = async (app, options) => {
  const common = {
    onRequest: requireJson,
    preValidation: normalizeStrings,
    config: { rateLimit: { max: options.rateLimitMax, timeWindow: options.rateLimitWindow } },
  };
  const response = { 201: CreatedResponseSchema, ...ERROR_RESPONSES };
  const headers = SubmissionHeadersSchema;

  app.post('/api/contact', { ...common, schema: { headers, body: ContactMessageBodySchema, response } }, async (request, reply) =>
    answer(reply, await takeSubmission(request, { kind: 'contact', body: request.body }, options, request.headers[IDEMPOTENCY_KEY_HEADER], 'json')),
  );

  app.post('/api/jobs/apply', { ...common, schema: { headers, body: JobApplicationBodySchema, response } }, async (request, reply) =>
    answer(reply, await takeSubmission(request, { kind: 'applications', body: request.body }, options, request.headers[IDEMPOTENCY_KEY_HEADER], 'json')),
  );
};
