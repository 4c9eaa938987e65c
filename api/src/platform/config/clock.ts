import { Type } from '@sinclair/typebox';
import { invalid, numeric, readEnv, variable, type Env } from './env';

/** A test clock for the browser suites (see platform/lib/clock.ts); never honoured outside tests. */
export interface ClockConfig {
  /** TEST_CLOCK_START: the instant the API's follow-up clock starts at… */
  testClock?: { start: Date; rate: number };
}

export const ClockEnv = Type.Object({
  TEST_CLOCK_START: variable((value) => {
    if (value.trim() === '') return undefined;
    const start = new Date(value.trim());
    if (Number.isNaN(start.getTime())) invalid(`must be an ISO 8601 instant, got "${value}"`);
    return start;
  }),
  /** …and TEST_CLOCK_RATE: how many times faster than real time it runs (default 1). */
  TEST_CLOCK_RATE: numeric(Type.Number({ minimum: 1, maximum: 10_000 }), 1, 'a number from 1 to 10000'),
});

export function loadClockConfig(env: Env): ClockConfig {
  const vars = readEnv(ClockEnv, env);
  if (!vars.TEST_CLOCK_START) return {};
  if (env.NODE_ENV !== 'test') throw new Error('TEST_CLOCK_START is for the test suites only (NODE_ENV=test)');
  return { testClock: { start: vars.TEST_CLOCK_START, rate: vars.TEST_CLOCK_RATE } };
}
