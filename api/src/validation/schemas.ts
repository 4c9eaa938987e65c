import { HONEYPOT_FIELD, SERVICE_TYPE_VALUES, VACANCY_TITLES } from '@agency/shared';

/**
 * JSON schemas of every route. Bodies are validated with coercion off (a number is not a
 * name), `additionalProperties: false` + Ajv's removeAdditional: unknown fields are dropped
 * silently before the handler sees the body, so they are never stored. String fields are
 * trimmed by a preValidation hook first, so `minLength: 1` means "non-empty after trimming".
 */

export const LIMITS = {
  name: 100,
  email: 254,
  phone: 30,
  city: 100,
  company: 200,
  message: 5000,
  resume_text: 5000,
  honeypot: 1000,
} as const;

/** Local part, then a domain with at least one dot; ASCII only. */
export const EMAIL_PATTERN =
  "^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$";

/** Digits with + ( ) - and spaces; 7 to 20 digits in total. */
export const PHONE_PATTERN = '^(?:[ ()+-]*[0-9]){7,20}[ ()+-]*$';

const requiredText = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength }) as const;
const optionalText = (maxLength: number) => ({ type: 'string', maxLength }) as const;

const honeypot = { [HONEYPOT_FIELD]: optionalText(LIMITS.honeypot) };

export const contactBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'email', 'phone', 'message'],
  properties: {
    name: requiredText(LIMITS.name),
    email: { ...requiredText(LIMITS.email), pattern: EMAIL_PATTERN },
    phone: { ...requiredText(LIMITS.phone), pattern: PHONE_PATTERN },
    company: optionalText(LIMITS.company),
    service_type: { type: 'string', enum: ['', ...SERVICE_TYPE_VALUES] },
    message: requiredText(LIMITS.message),
    ...honeypot,
  },
} as const;

export const applicationBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'email', 'phone', 'city', 'position'],
  properties: {
    name: requiredText(LIMITS.name),
    email: { ...requiredText(LIMITS.email), pattern: EMAIL_PATTERN },
    phone: { ...requiredText(LIMITS.phone), pattern: PHONE_PATTERN },
    city: requiredText(LIMITS.city),
    position: { type: 'string', enum: [...VACANCY_TITLES] },
    resume_text: optionalText(LIMITS.resume_text),
    ...honeypot,
  },
} as const;

export const createdResponseSchema = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer' } },
} as const;

export const serviceSchema = {
  type: 'object',
  required: ['id', 'title', 'description', 'icon_url', 'features', 'price_from'],
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    description: { type: 'string' },
    icon_url: { type: 'string' },
    features: { type: 'array', items: { type: 'string' } },
    price_from: { type: ['number', 'null'] },
  },
} as const;

const blogSummaryProperties = {
  id: { type: 'integer' },
  title: { type: 'string' },
  excerpt: { type: 'string' },
  category: { type: 'string' },
  image_url: { type: 'string' },
  created_at: { type: 'string' },
  author: { type: 'string' },
} as const;

export const blogSummarySchema = {
  type: 'object',
  required: Object.keys(blogSummaryProperties),
  properties: blogSummaryProperties,
} as const;

export const blogPostSchema = {
  type: 'object',
  required: [...Object.keys(blogSummaryProperties), 'content'],
  properties: { ...blogSummaryProperties, content: { type: 'string' } },
} as const;

export const BLOG_LIMIT_MAX = 50;

export const blogListQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    // Query values are strings (coercion is off): 1..50 without leading zeros.
    limit: { type: 'string', pattern: '^(?:[1-9]|[1-4][0-9]|50)$' },
  },
} as const;

export const blogPostParamsSchema = {
  type: 'object',
  required: ['id'],
  // Malformed ids are answered 404 by the handler, like unknown ones.
  properties: { id: { type: 'string' } },
} as const;

export const errorResponseSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        fields: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
  },
} as const;
