import axios from 'axios';
import { IDEMPOTENCY_KEY_HEADER, newIdempotencyKey, sendWithRetries, SUBMISSION_ATTEMPT_TIMEOUT_MS } from '@agency/shared';
import { BROWSER_FETCH_HEADERS, spamFieldsWith, type SiteSpamSecrets } from './spam-guard';

/**
 * Visitors who send contact messages without pause, each as the site's form does (one key per
 * submission, retried through failures by the form's own sendWithRetries), while a fault is
 * made behind the site. What every try got and what every submission ended as are recorded.
 */

export interface LeadStreamOptions {
  siteUrl: string;
  /** The site's spam secrets: each submission carries a person's form token and proof (spam-guard.ts). */
  spamSecrets: SiteSpamSecrets;
  /** Starts every message, so the stream's leads can be counted in the database. */
  tag: string;
  visitors?: number;
  durationMs?: number;
  /** When the fault is made, from the start of the stream. */
  faultAtMs?: number;
  fault?: () => Promise<void>;
  /** A visitor's pause after each submission ends (none by default: as fast as the site answers). */
  pauseMs?: number;
}

export interface LeadStreamResult {
  /** The message of every submission started. */
  sent: string[];
  /** The messages the form reported stored (its final answer was 201). */
  acknowledged: string[];
  /** When each acknowledged message's 201 arrived (ms since the epoch), by message. */
  acknowledgedAt: Map<string, number>;
  /** Submissions that ended without being stored, with what their last try got. */
  failed: string[];
  /** The messages of submissions being sent when the fault was made. */
  inFlightAtFault: string[];
  /** What each try got: `201`, `503`, `no answer (ECONNABORTED)`… and how many times. */
  answers: Record<string, number>;
  /** Every try's duration, ms. */
  tryDurations: number[];
  retried: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function answerOf(error: unknown): string {
  if (axios.isAxiosError(error)) return error.response ? String(error.response.status) : `no answer (${error.code ?? error.message})`;
  return `error (${String(error)})`;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function runLeadStream({ siteUrl, spamSecrets, tag, visitors = 4, durationMs = 8_000, faultAtMs = 1_500, fault, pauseMs = 0 }: LeadStreamOptions): Promise<LeadStreamResult> {
  const result: LeadStreamResult = { sent: [], acknowledged: [], acknowledgedAt: new Map(), failed: [], inFlightAtFault: [], answers: {}, tryDurations: [], retried: 0 };
  const inFlight = new Set<string>();
  const count = (answer: string) => (result.answers[answer] = (result.answers[answer] ?? 0) + 1);
  let streaming = true;

  async function visitor(index: number): Promise<void> {
    for (let n = 0; streaming; n += 1) {
      const message = `${tag} ${index}-${n}`;
      const key = newIdempotencyKey();
      result.sent.push(message);
      inFlight.add(message);
      // Each submission a person of their own (the site counts a sender's leads), with what their browser sends beside it.
      const person = { name: 'Відвідувач', email: `visitor${index}.${n}@example.com`, phone: `+380 67 ${String(index).padStart(3, '0')} ${String(n).padStart(4, '0')}`, company: '', service_type: '', message, website: '' };
      const body = { ...person, ...(await spamFieldsWith(spamSecrets, 'contact')) };
      try {
        await sendWithRetries(
          async () => {
            const started = performance.now();
            try {
              const response = await axios.post(`${siteUrl}/api/contact`, body, {
                headers: { ...BROWSER_FETCH_HEADERS, [IDEMPOTENCY_KEY_HEADER]: key },
                timeout: SUBMISSION_ATTEMPT_TIMEOUT_MS,
              });
              count(String(response.status));
              return response;
            } catch (error) {
              count(answerOf(error));
              throw error;
            } finally {
              result.tryDurations.push(performance.now() - started);
            }
          },
          { onRetry: () => (result.retried += 1) },
        );
        result.acknowledged.push(message);
        result.acknowledgedAt.set(message, Date.now());
      } catch (error) {
        result.failed.push(`${message}: ${answerOf(error)}`);
      } finally {
        inFlight.delete(message);
      }
      if (pauseMs > 0 && streaming) await pause(pauseMs);
    }
  }

  const running = Array.from({ length: visitors }, (_, index) => visitor(index));
  try {
    if (fault) {
      await pause(faultAtMs);
      result.inFlightAtFault.push(...inFlight);
      await fault();
      await pause(Math.max(0, durationMs - faultAtMs));
    } else await pause(durationMs);
  } finally {
    // A fault that could not be made ends the stream too: visitors left sending would outlive the test.
    streaming = false;
    await Promise.all(running);
  }
  return result;
}

/** One line for the suite's report: what the visitors got. */
export function describeStream(label: string, result: LeadStreamResult, storedOnce: number, storedTwice: number): string {
  const answers = Object.entries(result.answers)
    .map(([answer, times]) => `${times} × ${answer}`)
    .join(', ');
  const longest = Math.round(Math.max(0, ...result.tryDurations));
  return (
    `${label}: ${result.sent.length} sent, tries ${answers}; ${result.retried} retries; p99 try ${Math.round(percentile(result.tryDurations, 99))} ms, ` +
    `longest ${longest} ms; ${result.failed.length} not stored in the end; stored once ${storedOnce}, twice or more ${storedTwice}`
  );
}
