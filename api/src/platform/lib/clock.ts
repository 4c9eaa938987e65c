/**
 * The time the leads' follow-up works by (arrival, first response, overdue checks). The system
 * clock, except in tests: API tests move a clock by hand, and the browser suites start the API on
 * a chosen working day, running faster, so a response target passes in seconds.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that starts at `start` when made and runs `rate` times as fast as the real one. */
export function acceleratedClock(start: Date, rate: number, realNow: () => number = Date.now): Clock {
  const origin = realNow();
  return { now: () => new Date(start.getTime() + (realNow() - origin) * rate) };
}
