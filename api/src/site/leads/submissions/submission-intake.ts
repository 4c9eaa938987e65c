import {
  completeContactMessage,
  completeJobApplication,
  flattenLineBreaks,
  HONEYPOT_FIELD,
  ONE_LINE_FIELDS,
  type ContactMessageBody,
  type JobApplicationBody,
} from '@agency/shared/contracts';
import { FORM_TOKEN_FIELD, PROOF_OF_WORK_FIELD, type FormName, type LeadKind } from '@agency/shared';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../../platform/db/connection';
import type { ChannelName } from '../../../platform/config/leads';
import { ApiError, MESSAGES } from '../../../platform/http/api-error';
import { readAttribution } from './attribution-input';
import type { SubmittedLead } from '../lead/lead-payload';
import type { LeadFollowUp } from '../follow-up/lead-follow-up';
import type { SpamDefence } from '../spam/spam-defence';
import type { SpamMetrics } from '../spam/spam-metrics';
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
  /** Called once a submission and its outbox rows are committed (not for one held as spam). */
  onLeadStored(request: FastifyRequest, lead: { kind: LeadKind; submissionId: number }): void;
  spam: SpamDefence;
  spamMetrics: SpamMetrics;
  followUp: LeadFollowUp;
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

/** The lead a submission makes: its fields, without the spam trap, the spam defence's fields and the attribution. */
function leadOf(submission: SubmissionBody): SubmittedLead {
  if (submission.kind === 'contact') {
    const { [HONEYPOT_FIELD]: _trap, [FORM_TOKEN_FIELD]: _token, [PROOF_OF_WORK_FIELD]: _proof, attribution: _attribution, ...message } = submission.body;
    return { kind: 'contact', submission: completeContactMessage(message) };
  }
  const { [HONEYPOT_FIELD]: _trap, [FORM_TOKEN_FIELD]: _token, [PROOF_OF_WORK_FIELD]: _proof, attribution: _attribution, ...application } = submission.body;
  return { kind: 'applications', submission: completeJobApplication(application) };
}

/** What a person typed into a lead that an offer would be written into. */
function offerText(entry: SubmittedLead): string {
  const { submission } = entry;
  const fields = entry.kind === 'contact' ? [submission.name, entry.submission.company, entry.submission.message] : [submission.name, entry.submission.city, entry.submission.resume_text];
  return fields.join('\n');
}

const BOT_TABLES = { contact: 'contact_messages', applications: 'job_applications' } as const;
const FORMS: Record<SubmissionBody['kind'], FormName> = { contact: 'contact', applications: 'job-application' };

/** How a submission came: JSON (from a browser, if its Sec-Fetch-Site header says so), or a form posted with scripts off. */
export type SubmissionRoute = 'json' | 'form-post';

/**
 * Stores a validated submission with its outbox rows, once per idempotency key, judged by the spam
 * defence first. What is certainly a bot's (the spam trap filled, JSON without a form token from a
 * program) is not stored but answered with a plausible id; a held one is stored as «Спам» and not
 * sent to the agency; either way the answer is the one a person gets.
 */
export async function takeSubmission(
  request: FastifyRequest,
  submission: SubmissionBody,
  options: SubmissionIntakeOptions,
  idempotencyKey: string | undefined,
  route: SubmissionRoute,
): Promise<IntakeOutcome> {
  const form = FORMS[submission.kind];
  const entry = leadOf(submission);
  const { body } = submission;
  const judgement = await options.spam.judge({
    form,
    channel: route === 'form-post' ? 'no-script' : request.headers['sec-fetch-site'] ? 'script' : 'direct',
    honeypotFilled: (body[HONEYPOT_FIELD] ?? '') !== '',
    token: body[FORM_TOKEN_FIELD],
    proof: body[PROOF_OF_WORK_FIELD],
    text: offerText(entry),
    message: entry.kind === 'contact' ? entry.submission.message : entry.submission.resume_text,
    email: entry.submission.email,
    phone: entry.submission.phone,
    ip: request.ip,
  });
  if (judgement.action === 'drop') {
    request.log.info({ form, reason: judgement.reason }, 'a certain bot: answered but not stored');
    options.spamMetrics.dropped(form, judgement.reason);
    return { outcome: 'bot', id: await plausibleNextId(options.db, BOT_TABLES[submission.kind]) };
  }
  const screening = { reasons: judgement.reasons, keys: judgement.keys, nonces: judgement.nonces, threshold: judgement.settings.threshold, trusted: judgement.trusted };
  const stored = await storeSubmission(options.db, entry, metaOf(request, body.attribution), { channels: options.leadChannels, key: idempotencyKey, screening, followUp: options.followUp });
  if (stored.outcome === 'stored' && stored.held) {
    request.log.info({ form, id: stored.id }, 'held as spam: stored, not sent');
    options.spamMetrics.held(form);
  } else if (stored.outcome === 'stored') {
    options.onLeadStored(request, { kind: submission.kind, submissionId: stored.id });
  }
  return stored;
}
