import { AxiosError, AxiosHeaders, type AxiosResponse } from 'axios';
import { isRetryableSubmissionError, newIdempotencyKey, sendWithRetries, SUBMISSION_RETRY_WINDOW_MS } from './submission-retry';

/** An axios error as a request that got `status` (or, without one, no answer at all) rejects with. */
function failure(status?: number, headers: Record<string, string> = {}): AxiosError {
  const config = { headers: new AxiosHeaders() };
  const response =
    status === undefined ? undefined : ({ status, statusText: '', data: {}, headers, config } as AxiosResponse);
  return new AxiosError(status ? `Request failed with status code ${status}` : 'Network Error', status ? 'ERR_BAD_RESPONSE' : 'ERR_NETWORK', config, {}, response);
}

/** A clock that only moves when the code under test sleeps, and the waits it asked for. */
function fakeClock() {
  let time = 0;
  const waits: number[] = [];
  return {
    waits,
    now: () => time,
    sleep: async (ms: number) => {
      waits.push(ms);
      time += ms;
    },
    random: () => 1,
  };
}

describe('isRetryableSubmissionError', () => {
  it.each([
    ['no answer (network error, timeout)', failure(), true],
    ['502 from the proxy', failure(502), true],
    ['503 (restarting, database down)', failure(503), true],
    ['504 from the proxy', failure(504), true],
    ['400: the values are wrong', failure(400), false],
    ['422: the key was used for other values', failure(422), false],
    ['429: too many submissions', failure(429), false],
    ['500: a bug, the same request would fail again', failure(500), false],
    ['not an HTTP failure at all', new TypeError('x is undefined'), false],
  ])('%s: %s', (_name, error, retryable) => {
    expect(isRetryableSubmissionError(error)).toBe(retryable);
  });
});

describe('sendWithRetries', () => {
  it('tries again after answers that mean "not now" and resolves with the first success', async () => {
    const clock = fakeClock();
    const attempt = jest.fn().mockRejectedValueOnce(failure(503)).mockRejectedValueOnce(failure()).mockResolvedValueOnce({ id: 7 });
    const onRetry = jest.fn();
    await expect(sendWithRetries(attempt, { ...clock, onRetry })).resolves.toEqual({ id: 7 });
    expect(attempt).toHaveBeenCalledTimes(3);
    expect(onRetry.mock.calls).toEqual([[1], [2]]);
    expect(clock.waits).toEqual([500, 1000]);
  });

  it('does not try again after a refusal: the error comes at once', async () => {
    const clock = fakeClock();
    const attempt = jest.fn().mockRejectedValue(failure(400));
    await expect(sendWithRetries(attempt, clock)).rejects.toMatchObject({ response: { status: 400 } });
    expect(attempt).toHaveBeenCalledTimes(1);
    expect(clock.waits).toEqual([]);
  });

  it('gives up with the last error when the next try would start after the window', async () => {
    const clock = fakeClock();
    const attempt = jest.fn().mockRejectedValue(failure(502));
    await expect(sendWithRetries(attempt, clock)).rejects.toMatchObject({ response: { status: 502 } });
    // 0.5 + 1 + 2 + 4 + 4 + 4 + 4 = 19.5 s of waits; one more 4 s wait would pass 20 s.
    expect(clock.waits).toEqual([500, 1000, 2000, 4000, 4000, 4000, 4000]);
    expect(attempt).toHaveBeenCalledTimes(8);
    expect(clock.now()).toBeLessThanOrEqual(SUBMISSION_RETRY_WINDOW_MS);
  });

  it('waits what Retry-After asks when that is longer than its own wait, up to 5 s', async () => {
    const clock = fakeClock();
    const attempt = jest
      .fn()
      .mockRejectedValueOnce(failure(503, { 'retry-after': '2' }))
      .mockRejectedValueOnce(failure(503, { 'retry-after': '120' }))
      .mockResolvedValueOnce('stored');
    await expect(sendWithRetries(attempt, clock)).resolves.toBe('stored');
    expect(clock.waits).toEqual([2000, 5000]);
  });

  it('spreads the waits of clients that failed together (jitter of up to a quarter)', async () => {
    const clock = { ...fakeClock(), random: () => 0 };
    const attempt = jest.fn().mockRejectedValueOnce(failure(503)).mockResolvedValueOnce('stored');
    await sendWithRetries(attempt, clock);
    expect(clock.waits).toEqual([375]);
  });
});

describe('newIdempotencyKey', () => {
  it('gives 128 random bits in hex, a new one each time', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => newIdempotencyKey()));
    expect(keys.size).toBe(1000);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
  });
});
