/**
 * How much telemetry may hold and take in, whatever clients send. Browsers' reports are a signal,
 * not proof: each of these bounds what one client, or a flood of made-up reports, can add.
 */

/** What one client (telemetry/client-identity.ts) may add, per API process. */
export const CLIENT_LIMITS = {
  /** Page views, vitals and errors counted per app release and minute (a page load sends about 7). */
  eventsPerMinute: 60,
  /** How often one reported error counts at most (a browser sends a repeated error once, with its count). */
  errorCount: 10,
  /** Pages the server counts as sent to it per app release and minute. */
  servedPagesPerMinute: 30,
  /** Values of each Web Vital counted per app release and hour (a page load sends one of each). */
  vitalsPerHour: 10,
  /** Distinct browser sessions (visits) counted per hour. */
  sessionsPerHour: 60,
} as const;

/**
 * Pages sent to one client that count toward a canary's `--min-views` and `--promote-after`: so
 * one client's requests, however many, stand for a few visitors' page views at most.
 */
export const PAGES_COUNTED_PER_CLIENT = 5;

/** Distinct errors (fingerprints) first stored per app release and hour; more are counted, not stored. */
export const ERROR_SAMPLES_PER_HOUR = 50;

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
