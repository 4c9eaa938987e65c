import { HONEYPOT_FIELD } from '@agency/shared';
import type { FastifyPluginAsync, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Database } from '../db/connection';
import {
  insertContactMessage,
  insertJobApplication,
  plausibleNextId,
  type ApplicationInput,
  type ContactInput,
  type SubmissionMeta,
} from '../db/repository';
import { ApiError, MESSAGES } from '../validation/errors';
import { applicationBodySchema, contactBodySchema, createdResponseSchema, errorResponseSchema } from '../validation/schemas';

export interface SubmissionRoutesOptions {
  db: Database;
  rateLimitMax: number;
  rateLimitWindow: number;
}

type Honeypot = { [HONEYPOT_FIELD]?: string };

const JSON_TYPE = /^application\/json\s*(?:;|$)/i;

/** Only JSON bodies: anything else (or no content type at all) is a 415 before parsing. */
const requireJson: onRequestHookHandler = async (request) => {
  const type = request.headers['content-type'];
  if (!type || !JSON_TYPE.test(type)) {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', MESSAGES.unsupportedMediaType);
  }
};

/**
 * Trims every top-level string of the body, so "  " counts as empty and is stored trimmed.
 * NUL characters are refused: PostgreSQL cannot store them in text, and no form sends them.
 */
async function trimStrings(request: FastifyRequest): Promise<void> {
  const body = request.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  const record = body as Record<string, unknown>;
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) {
    if (typeof value !== 'string') continue;
    if (value.includes('\u0000')) fields[key] = MESSAGES.nulCharacter;
    record[key] = value.trim();
  }
  if (Object.keys(fields).length > 0) throw new ApiError(400, 'VALIDATION_ERROR', MESSAGES.validation, fields);
}

function metaOf(request: FastifyRequest): SubmissionMeta {
  const clip = (value: string | string[] | undefined) =>
    typeof value === 'string' && value !== '' ? value.slice(0, 1000) : null;
  return { user_agent: clip(request.headers['user-agent']), referrer: clip(request.headers.referer) };
}

function isBot(body: Honeypot): boolean {
  return (body[HONEYPOT_FIELD] ?? '') !== '';
}

export const submissionRoutes: FastifyPluginAsync<SubmissionRoutesOptions> = async (app, options) => {
  const { db } = options;
  const common = {
    onRequest: requireJson,
    preValidation: trimStrings,
    config: { rateLimit: { max: options.rateLimitMax, timeWindow: options.rateLimitWindow } },
  };
  const response = { 201: createdResponseSchema, '4xx': errorResponseSchema };

  app.post<{ Body: ContactInput & Honeypot }>(
    '/api/contact',
    { ...common, schema: { body: contactBodySchema, response } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const body = request.body;
      if (isBot(body)) {
        request.log.info('honeypot filled: contact message answered but not stored');
        return reply.code(201).send({ id: await plausibleNextId(db, 'contact_messages') });
      }
      const id = await insertContactMessage(
        db,
        {
          name: body.name,
          email: body.email,
          phone: body.phone,
          company: body.company ?? '',
          service_type: body.service_type ?? '',
          message: body.message,
        },
        metaOf(request),
      );
      return reply.code(201).send({ id });
    },
  );

  app.post<{ Body: ApplicationInput & Honeypot }>(
    '/api/jobs/apply',
    { ...common, schema: { body: applicationBodySchema, response } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const body = request.body;
      if (isBot(body)) {
        request.log.info('honeypot filled: job application answered but not stored');
        return reply.code(201).send({ id: await plausibleNextId(db, 'job_applications') });
      }
      const id = await insertJobApplication(
        db,
        {
          name: body.name,
          email: body.email,
          phone: body.phone,
          city: body.city,
          position: body.position,
          resume_text: body.resume_text ?? '',
        },
        metaOf(request),
      );
      return reply.code(201).send({ id });
    },
  );
};
