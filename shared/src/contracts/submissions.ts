import { Type, type Static } from '@sinclair/typebox';
import { HONEYPOT_FIELD } from './honeypot';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN } from './idempotency-key';
import { FIELD_LIMITS } from './limits';
import { EMAIL_PATTERN, PHONE_PATTERN } from './patterns';
import { OptionalText, RequiredText, StringEnum } from './schema-builders';
import { SERVICE_TYPE_VALUES, type ServiceType } from './service-types';
import { spamProperties } from './spam';
import { VACANCY_TITLES } from './vacancies';

/**
 * What visitors submit. Objects are closed (`additionalProperties: false`): with Ajv's
 * removeAdditional, unknown fields are dropped before the handler sees the body, so they are
 * never stored.
 */

export type { ServiceType };

const EmailAddress = Type.String({ minLength: 1, maxLength: FIELD_LIMITS.email, pattern: EMAIL_PATTERN });
const PhoneNumber = Type.String({ minLength: 1, maxLength: FIELD_LIMITS.phone, pattern: PHONE_PATTERN });

/** The spam trap: people leave it empty, bots fill it. Sent beside a submission, never stored. */
const honeypotProperty = { [HONEYPOT_FIELD]: Type.Optional(OptionalText(FIELD_LIMITS.honeypot)) };

/** `company` and `service_type` may be left out: the forms send them (maybe empty), older clients did not. */
export const ContactMessageSchema = Type.Object(
  {
    name: RequiredText(FIELD_LIMITS.name),
    email: EmailAddress,
    phone: PhoneNumber,
    company: Type.Optional(OptionalText(FIELD_LIMITS.company)),
    service_type: Type.Optional(StringEnum<ServiceType | ''>(['', ...SERVICE_TYPE_VALUES])),
    message: RequiredText(FIELD_LIMITS.message),
  },
  { additionalProperties: false },
);

/** `resume_text` may be left out. */
export const JobApplicationSchema = Type.Object(
  {
    name: RequiredText(FIELD_LIMITS.name),
    email: EmailAddress,
    phone: PhoneNumber,
    city: RequiredText(FIELD_LIMITS.city),
    position: StringEnum(VACANCY_TITLES),
    resume_text: Type.Optional(OptionalText(FIELD_LIMITS.resume_text)),
  },
  { additionalProperties: false },
);

/**
 * Where the lead came from, sent beside it. Any value passes the body's check: the API checks it
 * apart, against AttributionSchema, and drops an invalid one rather than refuse the lead.
 */
const attributionProperty = { attribution: Type.Optional(Type.Unknown()) };

/** Request bodies: a submission, the spam trap, the spam defence's token and proof, and the attribution. */
export const ContactMessageBodySchema = Type.Object(
  { ...ContactMessageSchema.properties, ...honeypotProperty, ...spamProperties, ...attributionProperty },
  { additionalProperties: false },
);
export const JobApplicationBodySchema = Type.Object(
  { ...JobApplicationSchema.properties, ...honeypotProperty, ...spamProperties, ...attributionProperty },
  { additionalProperties: false },
);

/** The submission routes' headers: the idempotency key is optional (older clients send none). */
export const SubmissionHeadersSchema = Type.Object({
  [IDEMPOTENCY_KEY_HEADER]: Type.Optional(Type.String({ pattern: IDEMPOTENCY_KEY_PATTERN })),
});

/** 201 of both submissions (also of one the honeypot caught, with an id that looks real). */
export const CreatedResponseSchema = Type.Object({ id: Type.Integer() });

/** A contact message as the API accepts it. */
export type ContactMessageInput = Static<typeof ContactMessageSchema>;
/** A complete contact message: what the forms send, and what the API stores. */
export type ContactMessage = Required<ContactMessageInput>;
/** A job application as the API accepts it. */
export type JobApplicationInput = Static<typeof JobApplicationSchema>;
/** A complete job application: what the form sends, and what the API stores. */
export type JobApplication = Required<JobApplicationInput>;
export type ContactMessageBody = Static<typeof ContactMessageBodySchema>;
export type JobApplicationBody = Static<typeof JobApplicationBodySchema>;
export type CreatedResponse = Static<typeof CreatedResponseSchema>;

/**
 * Fields a person types on one line. Each is shown as one labelled line of a lead's notification
 * («Імʼя: …»), so a line break in one would start a line that looks like another field: the API
 * stores them with every line break made a space (see flattenLineBreaks).
 */
export const ONE_LINE_FIELDS = ['name', 'company', 'city', 'position'] as const satisfies readonly (keyof ContactMessage | keyof JobApplication)[];

/**
 * A run of line breaks: CR, LF, vertical tab, form feed, NEL and the Unicode line and paragraph
 * separators. A character class and nothing else, so splitting on it takes linear time whatever
 * the text (it runs before a field's length is checked).
 */
// eslint-disable-next-line no-control-regex -- vertical tab and form feed are line breaks too
const LINE_BREAKS = /[\r\n\u000B\u000C\u0085\u2028\u2029]+/;

/** The text on one line: every run of line breaks, with the spaces around it, becomes one space. */
export function flattenLineBreaks(text: string): string {
  const lines = text.split(LINE_BREAKS);
  if (lines.length === 1) return text;
  const last = lines.length - 1;
  return lines.map((line, index) => (index === 0 ? line.trimEnd() : index === last ? line.trimStart() : line.trim())).join(' ');
}

/** What the API stores for an optional field a client left out. */
export const CONTACT_MESSAGE_DEFAULTS = { company: '', service_type: '' } as const satisfies Partial<ContactMessage>;
export const JOB_APPLICATION_DEFAULTS = { resume_text: '' } as const satisfies Partial<JobApplication>;

export function completeContactMessage(input: ContactMessageInput): ContactMessage {
  return { ...CONTACT_MESSAGE_DEFAULTS, ...input };
}

export function completeJobApplication(input: JobApplicationInput): JobApplication {
  return { ...JOB_APPLICATION_DEFAULTS, ...input };
}
