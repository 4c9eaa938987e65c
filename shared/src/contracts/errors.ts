import { Type, type Static } from '@sinclair/typebox';

/** What every error answer of the API carries; messages are Ukrainian, for people. */
export const ApiErrorSchema = Type.Object({
  code: Type.String(),
  message: Type.String(),
  /** Per-field messages of a validation error, keyed by field name. */
  fields: Type.Optional(Type.Record(Type.String(), Type.String())),
});

export const ApiErrorBodySchema = Type.Object({ error: ApiErrorSchema });

export type ApiErrorBody = Static<typeof ApiErrorBodySchema>;

/** Response schemas of the error answers, for every API route. */
export const ERROR_RESPONSES = { '4xx': ApiErrorBodySchema, '5xx': ApiErrorBodySchema } as const;

/** An answer without a body (204), or an error. */
export const NO_CONTENT_RESPONSES = { 204: { type: 'null' }, ...ERROR_RESPONSES } as const;
