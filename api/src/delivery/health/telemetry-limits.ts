/**
 * How much telemetry takes in, whatever clients send. Browsers' reports are a signal, not proof:
 * each of these bounds what one client, or a flood of made-up reports, can add. What the tables may
 * hold is TELEMETRY_BUDGET (config/telemetry.ts).
 */

/** What one client (client-identity.ts) may add, per API process. */
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
