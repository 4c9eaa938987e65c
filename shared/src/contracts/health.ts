import { Type, type Static } from '@sinclair/typebox';
import { ApiErrorSchema } from './errors';

export const HealthOkSchema = Type.Object({ status: Type.Literal('ok') });

/** 503: the database does not answer. */
export const HealthUnavailableSchema = Type.Object({ status: Type.Literal('unavailable'), error: ApiErrorSchema });

export type HealthOk = Static<typeof HealthOkSchema>;
export type HealthUnavailable = Static<typeof HealthUnavailableSchema>;
