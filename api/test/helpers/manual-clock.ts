import type { Clock } from '../../src/platform/lib/clock';

/** A clock the test moves: the follow-up of leads (arrival, first response, overdue checks) reads it. */
export class ManualClock implements Clock {
  private at: number;

  constructor(start: string) {
    this.at = Date.parse(start);
  }

  now(): Date {
    return new Date(this.at);
  }

  set(instant: string): void {
    this.at = Date.parse(instant);
  }

  advance(ms: number): void {
    this.at += ms;
  }
}
