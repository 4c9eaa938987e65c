import { Type } from '@sinclair/typebox';
import { integer, numeric, oneOf, readEnv, type Env } from './env';

/**
 * Rows each telemetry table holds at most; past it the oldest are deleted (down to nine tenths of
 * it). docs/operations.md gives what they take on disk.
 */
export const TELEMETRY_BUDGET = {
  telemetry_minutes: 500_000,
  telemetry_error_minutes: 100_000,
  telemetry_errors: 2_000,
  telemetry_clients: 100_000,
  visit_sessions: 500_000,
} as const;

export type TelemetryTable = keyof typeof TELEMETRY_BUDGET;
export type TelemetryBudget = Record<TelemetryTable, number>;

/** What visitors' browsers report about each release (see docs/operations.md, "Release health"). */
export interface TelemetryConfig {
  /** TELEMETRY=off: no beacons are sent and `POST /api/telemetry` does not exist. */
  enabled: boolean;
  /** TELEMETRY_SAMPLE: the share of page loads that report, 0 to 1 (default 1). */
  sample: number;
  /** TELEMETRY_RETENTION_DAYS: how long reports are kept (default 14). */
  retentionDays: number;
  /** TELEMETRY_RATE_LIMIT: beacons one IP address may send per minute (default 120). */
  rateLimitPerMinute: number;
  /** Rows each telemetry table may hold; TELEMETRY_BUDGET unless a test sets a smaller one. */
  budget?: TelemetryBudget;
}

export const TelemetryEnv = Type.Object({
  TELEMETRY: oneOf(['on', 'off'], 'on', 'on or off'),
  TELEMETRY_SAMPLE: numeric(Type.Number({ minimum: 0, maximum: 1 }), 1, 'a number from 0 to 1'),
  TELEMETRY_RETENTION_DAYS: integer(14, 1),
  TELEMETRY_RATE_LIMIT: integer(120, 1),
});

export function loadTelemetryConfig(env: Env): TelemetryConfig {
  const vars = readEnv(TelemetryEnv, env);
  return {
    enabled: vars.TELEMETRY === 'on',
    sample: vars.TELEMETRY_SAMPLE,
    retentionDays: vars.TELEMETRY_RETENTION_DAYS,
    rateLimitPerMinute: vars.TELEMETRY_RATE_LIMIT,
  };
}
