import {
  completeContactMessage,
  completeJobApplication,
  ContactMessageBodySchema,
  CreatedResponseSchema,
  ERROR_RESPONSES,
  flattenLineBreaks,
  HONEYPOT_FIELD,
  IDEMPOTENCY_KEY_HEADER,
  JobApplicationBodySchema,
  ONE_LINE_FIELDS,
  SubmissionHeadersSchema,
} from '@agency/shared/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/connection';
import { plausibleNextId, type SubmissionMeta } from './submissions-repository';
import type { ChannelName } from '../../config/leads';
import { storeSubmission, type StoreOutcome } from './store-submission';
import { ApiError, MESSAGES } from '../../http/api-error';
import { readAttribution } from './attribution-input';
import { normalizeTextInput } from './text-input';
import { requireJson } from '../../http/require-json';

export interface SubmissionRoutesOptions {
  db: Database;
  rateLimitMax: number;
  rateLimitWindow: number;
  /** Channels each stored submission is queued for (in the same transaction). */
  leadChannels: readonly ChannelName[];
  /** Called once a submission and its outbox rows are committed. */
  onLeadStored(): void;
}


/**
 * Normalises every top-level string of the body before validation (see normalizeTextInput): one
 * Unicode form, trimmed, and empty when nothing in it is visible, so a name of zero-width
 * characters counts as not filled. NUL and lone surrogates are refused: PostgreSQL cannot store
 * NUL, a lone surrogate is not text, and no form sends either. One-line fields (a name, a city)
 * are kept on one line: a line break in one becomes a space, never a refusal that loses the lead.
 */
const ONE_LINE: ReadonlySet<string> = new Set(ONE_LINE_FIELDS);

async function normalizeStrings(request: FastifyRequest): Promise<void> {
  const body = request.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  const record = body as Record<string, unknown>;
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) {
    if (typeof value !== 'string') continue;
    const input = normalizeTextInput(ONE_LINE.has(key) ? flattenLineBreaks(value) : value);
    if (input.ok) record[key] = input.text;
    else fields[key] = MESSAGES.nulCharacter;
  }
  if (Object.keys(fields).length > 0) throw new ApiError(400, 'VALIDATION_ERROR', MESSAGES.validation, fields);
}

/**
 * What is stored beside a submission: the sender's browser and page, and the visit's attribution.
 * An invalid attribution is dropped and logged: it never costs the visitor the lead.
 */
function metaOf(request: FastifyRequest, attributionValue: unknown): SubmissionMeta {
  const clip = (value: string | string[] | undefined) =>
    typeof value === 'string' && value !== '' ? value.slice(0, 1000) : null;
  const { attribution, dropped } = readAttribution(attributionValue);
  if (dropped !== undefined) request.log.warn({ reason: dropped }, 'attribution dropped: the lead is stored without it');
  return { user_agent: clip(request.headers['user-agent']), referrer: clip(request.headers.referer), attribution };
}

/** People leave the trap empty (or send none); bots fill it. */
function isBot(honeypot: string | undefined): boolean {
  return (honeypot ?? '') !== '';
}

/** The answer to a submission, by what became of it (see storeSubmission). */
async function answer(reply: FastifyReply, stored: StoreOutcome, onLeadStored: () => void) {
  reply.header('cache-control', 'no-store');
  if (stored.outcome === 'key-reused') {
    throw new ApiError(422, 'IDEMPOTENCY_KEY_REUSED', MESSAGES.idempotencyKeyReused);
  }
  if (stored.outcome === 'stored') onLeadStored();
  // A repeat gets the first answer; the header tells a client (and its logs) it was a repeat.
  else reply.header('idempotent-replayed', 'true');
  return reply.code(201).send({ id: stored.id });
}

export const submissionRoutes: FastifyPluginAsyncTypebox<SubmissionRoutesOptions> = async (app, options) => {
  const { db } = options;
  const common = {
    onRequest: requireJson,
    preValidation: normalizeStrings,
    config: { rateLimit: { max: options.rateLimitMax, timeWindow: options.rateLimitWindow } },
  };
  const response = { 201: CreatedResponseSchema, ...ERROR_RESPONSES };
  const headers = SubmissionHeadersSchema;

  app.post('/api/contact', { ...common, schema: { headers, body: ContactMessageBodySchema, response } }, async (request, reply) => {
    const { [HONEYPOT_FIELD]: honeypot, attribution, ...message } = request.body;
    if (isBot(honeypot)) {
      request.log.info('honeypot filled: contact message answered but not stored');
      return reply.code(201).header('cache-control', 'no-store').send({ id: await plausibleNextId(db, 'contact_messages') });
    }
    const submission = completeContactMessage(message);
    const key = request.headers[IDEMPOTENCY_KEY_HEADER];
    const stored = await storeSubmission(db, { kind: 'contact', submission }, metaOf(request, attribution), options.leadChannels, key);
    return answer(reply, stored, options.onLeadStored);
  });

  app.post('/api/jobs/apply', { ...common, schema: { headers, body: JobApplicationBodySchema, response } }, async (request, reply) => {
    const { [HONEYPOT_FIELD]: honeypot, attribution, ...application } = request.body;
    if (isBot(honeypot)) {
      request.log.info('honeypot filled: job application answered but not stored');
      return reply.code(201).header('cache-control', 'no-store').send({ id: await plausibleNextId(db, 'job_applications') });
    }
    const submission = completeJobApplication(application);
    const key = request.headers[IDEMPOTENCY_KEY_HEADER];
    const stored = await storeSubmission(db, { kind: 'applications', submission }, metaOf(request, attribution), options.leadChannels, key);
    return answer(reply, stored, options.onLeadStored);
  });
};
