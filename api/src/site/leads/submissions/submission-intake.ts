import {
  completeContactMessage,
  completeJobApplication,
  flattenLineBreaks,
  HONEYPOT_FIELD,
  ONE_LINE_FIELDS,
  type ContactMessageBody,
  type JobApplicationBody,
} from '@agency/shared/contracts';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../../platform/db/connection';
import type { ChannelName } from '../../../platform/config/leads';
import { ApiError, MESSAGES } from '../../../platform/http/api-error';
import { readAttribution } from './attribution-input';
import type { SubmittedLead } from '../lead/lead-payload';
import { storeSubmission, type StoreOutcome } from './store-submission';
import { plausibleNextId, type SubmissionMeta } from './submissions-repository';
import { normalizeTextInput } from './text-input';

/** What every route that takes a submission (JSON from the forms' scripts, or a form's own post) needs. */
export interface SubmissionIntakeOptions {
  db: Database;
  rateLimitMax: number;
  rateLimitWindow: number;
  /** Channels each stored submission is queued for (in the same transaction). */
  leadChannels: readonly ChannelName[];
  /** Called once a submission and its outbox rows are committed. */
  onLeadStored(): void;
}

const ONE_LINE: ReadonlySet<string> = new Set(ONE_LINE_FIELDS);

/**
 * Normalises every top-level string of the body before validation (see normalizeTextInput): one
 * Unicode form, trimmed, and empty when nothing in it is visible, so a name of zero-width
 * characters counts as not filled. NUL and lone surrogates are refused: PostgreSQL cannot store
 * NUL, a lone surrogate is not text, and no form sends either. One-line fields (a name, a city)
 * are kept on one line: a line break in one becomes a space, never a refusal that loses the lead.
 */
export async function normalizeStrings(request: FastifyRequest): Promise<void> {
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

/** What became of a submission: stored (or a repeat of one), or a bot's, answered as if stored. */
export type IntakeOutcome = StoreOutcome | { outcome: 'bot'; id: number };

/** A validated submission of either form, as its route received it. */
export type SubmissionBody = { kind: 'contact'; body: ContactMessageBody } | { kind: 'applications'; body: JobApplicationBody };

/** The lead a submission makes: its fields, without the spam trap and the attribution. */
function leadOf(submission: SubmissionBody): SubmittedLead {
  if (submission.kind === 'contact') {
    const { [HONEYPOT_FIELD]: _trap, attribution: _attribution, ...message } = submission.body;
    return { kind: 'contact', submission: completeContactMessage(message) };
  }
  const { [HONEYPOT_FIELD]: _trap, attribution: _attribution, ...application } = submission.body;
  return { kind: 'applications', submission: completeJobApplication(application) };
}

const BOT_TABLES = { contact: 'contact_messages', applications: 'job_applications' } as const;
const KIND_NAMES = { contact: 'contact message', applications: 'job application' } as const;

/**
 * Stores a validated submission with its outbox rows, once per idempotency key. People leave the
 * spam trap empty (or send none); a bot's submission is not stored but answered with a plausible id.
 */
export async function takeSubmission(
  request: FastifyRequest,
  submission: SubmissionBody,
  options: SubmissionIntakeOptions,
  idempotencyKey: string | undefined,
): Promise<IntakeOutcome> {
  if ((submission.body[HONEYPOT_FIELD] ?? '') !== '') {
    request.log.info(`honeypot filled: ${KIND_NAMES[submission.kind]} answered but not stored`);
    return { outcome: 'bot', id: await plausibleNextId(options.db, BOT_TABLES[submission.kind]) };
  }
  const stored = await storeSubmission(options.db, leadOf(submission), metaOf(request, submission.body.attribution), options.leadChannels, idempotencyKey);
  if (stored.outcome === 'stored') options.onLeadStored();
  return stored;
}
