import { Type, type Static } from '@sinclair/typebox';
import { ApiErrorSchema } from './errors';

/** Leads stored but not yet handed to every notification channel. */
export const OutboxBacklogSchema = Type.Object({
  /** Deliveries waiting (new, or retried after a failure). */
  pending: Type.Integer({ minimum: 0 }),
  /** Deliveries given up after 24 hours; `npm run submissions -- outbox` lists them. */
  failed: Type.Integer({ minimum: 0 }),
  /** When the oldest waiting lead arrived (ISO 8601), or null. */
  oldest_pending_at: Type.Union([Type.String(), Type.Null()]),
});

/** 200: submissions can be stored. A notification channel being down does not change that. */
export const HealthOkSchema = Type.Object({ status: Type.Literal('ok'), outbox: OutboxBacklogSchema });

/** 503: the database does not answer or does not take writes. */
export const HealthUnavailableSchema = Type.Object({ status: Type.Literal('unavailable'), error: ApiErrorSchema });

export type OutboxBacklog = Static<typeof OutboxBacklogSchema>;
export type HealthOk = Static<typeof HealthOkSchema>;
export type HealthUnavailable = Static<typeof HealthUnavailableSchema>;
