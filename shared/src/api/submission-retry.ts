import { randomId } from '../util/random-id';

/**
 * How a form sends a submission through a crash or a restart behind the site: under one
 * idempotency key, tried again on answers that mean "not now" until about 20 s have passed. The
 * API stores a key once, so however many tries reach it, one lead is stored.
 */

/** How long a submission keeps being tried, from the first try. */
export const SUBMISSION_RETRY_WINDOW_MS = 20_000;
/** One try's limit: a request that got no answer by then is tried again. */
export const SUBMISSION_ATTEMPT_TIMEOUT_MS = 8_000;
/** The wait before the second try; each later wait doubles, up to the cap. */
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 4_000;
/** A Retry-After longer than this is not waited for in full: the window is what counts. */
const MAX_RETRY_AFTER_MS = 5_000;

/** Answers that say the request was not carried out and the same request may succeed soon. */
const RETRYABLE_STATUSES = new Set([502, 503, 504]);

/** The part of an axios error this reads (duck-typed, so axios stays a lazy chunk). */
interface HttpFailure {
  isAxiosError?: boolean;
  response?: { status: number; headers?: Record<string, unknown> };
}

function asHttpFailure(error: unknown): HttpFailure | undefined {
  return typeof error === 'object' && error !== null && (error as HttpFailure).isAxiosError === true ? (error as HttpFailure) : undefined;
}

/**
 * True for a failure the same submission may get past: no answer at all (a network error, a
 * timeout) or a gateway's or a busy server's 502, 503 or 504. A refusal (4xx) or a 500 is not.
 */
export function isRetryableSubmissionError(error: unknown): boolean {
  const failure = asHttpFailure(error);
  if (!failure) return false;
  return failure.response === undefined || RETRYABLE_STATUSES.has(failure.response.status);
}

/** The wait an answer asks for (Retry-After in seconds), in ms; undefined when it names none. */
function retryAfterMs(error: unknown): number | undefined {
  const value = asHttpFailure(error)?.response?.headers?.['retry-after'];
  const seconds = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
  return seconds === undefined ? undefined : Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
}

/** 32 hex digits of a cryptographic random number: a submission's idempotency key. */
export function newIdempotencyKey(): string {
  return randomId();
}

export interface RetryOptions {
  /** Called before each try after the first (1 for the second try). */
  onRetry?: (retry: number) => void;
  windowMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** 0..1; spreads the waits of many clients that failed together (jitter). */
  random?: () => number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it resolves, fails with an error that is not retryable, or the next try
 * would start after the window: then the last error is thrown. Waits grow 0.5, 1, 2, 4, 4… s
 * (each 75–100 % of that, so clients that failed together do not return together), or what the
 * answer's Retry-After asks, whichever is longer.
 */
export async function sendWithRetries<T>(attempt: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const { onRetry, windowMs = SUBMISSION_RETRY_WINDOW_MS, sleep = defaultSleep, now = Date.now, random = Math.random } = options;
  const start = now();
  for (let retry = 0; ; retry += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!isRetryableSubmissionError(error)) throw error;
      const backoff = Math.min(FIRST_DELAY_MS * 2 ** retry, MAX_DELAY_MS) * (0.75 + 0.25 * random());
      const delay = Math.max(backoff, retryAfterMs(error) ?? 0);
      if (now() + delay - start > windowMs) throw error;
      await sleep(delay);
      onRetry?.(retry + 1);
    }
  }
}
