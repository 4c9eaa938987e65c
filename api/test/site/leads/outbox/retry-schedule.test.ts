import { FIRST_RETRY_MS, MAX_RETRY_MS, nextAttemptAt, retryDelayMs } from '../../../../src/site/leads/outbox/retry-schedule';

const low = () => 0;
const high = () => 0.999_999;

describe('retryDelayMs', () => {
  it('retries the first failure within 5 s', () => {
    expect(retryDelayMs(1, high)).toBeLessThanOrEqual(5_000);
    expect(retryDelayMs(1, low)).toBeGreaterThanOrEqual(FIRST_RETRY_MS * 0.8);
  });

  it('doubles the wait after each failure, up to the cap', () => {
    const middle = () => 0.5;
    expect([1, 2, 3, 4].map((attempts) => retryDelayMs(attempts, middle))).toEqual([2_000, 4_000, 8_000, 16_000]);
    expect(retryDelayMs(30, high)).toBeLessThanOrEqual(MAX_RETRY_MS * 1.2);
    expect(retryDelayMs(30, low)).toBeGreaterThanOrEqual(MAX_RETRY_MS * 0.8);
  });
});

describe('nextAttemptAt', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  const tomorrow = new Date('2026-11-23T12:00:00Z');

  it('schedules by the backoff, or by the receiver’s Retry-After when that is longer', () => {
    expect(nextAttemptAt(now, 1, tomorrow, undefined, () => 0.5)).toEqual(new Date(now.getTime() + 2_000));
    expect(nextAttemptAt(now, 1, tomorrow, 60_000, () => 0.5)).toEqual(new Date(now.getTime() + 60_000));
    expect(nextAttemptAt(now, 4, tomorrow, 1_000, () => 0.5)).toEqual(new Date(now.getTime() + 16_000));
  });

  it('makes the last attempt at the deadline and gives up after it', () => {
    const soon = new Date(now.getTime() + 500);
    expect(nextAttemptAt(now, 5, soon)).toEqual(soon);
    expect(nextAttemptAt(soon, 6, soon)).toBeUndefined();
  });
});
