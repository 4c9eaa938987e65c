// Visitors for the API's benchmarks: contact messages sent through HTTP one after another, each a
// person's as their browser sends it (person-bodies.mjs), and the summary of how long each waited.
import { BROWSER_FETCH_HEADERS, personMinter } from './person-bodies.mjs';

const percentile = (sorted, p) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
export const round = (ms) => Math.round(ms * 10) / 10;

/** How many were sent and the p50, p99 and longest of `durations` (ms). */
export function summary(durations) {
  const sorted = [...durations].sort((a, b) => a - b);
  return { sent: sorted.length, p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted.at(-1) ?? 0) };
}

/**
 * `visitors` visitors sending contact messages to `base` (whose database is `databaseUrl`) one
 * after another until `until` resolves; each submission's start (performance.now()) and time, ms.
 * A submission not answered 201 fails the run.
 */
export async function sendUntil(base, databaseUrl, until, { visitors = 2, message = 'Бенчмарк' } = {}) {
  let going = true;
  until.then(() => (going = false));
  const sent = [];
  const minter = await personMinter(databaseUrl);
  const fields = { name: 'Відвідувач', company: '', service_type: '', message, website: '' };
  let people = 0;
  async function visitor() {
    while (going) {
      const body = await minter.body(people++, fields);
      const started = performance.now();
      const response = await fetch(`${base}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json', ...BROWSER_FETCH_HEADERS }, body });
      await response.arrayBuffer();
      if (response.status !== 201) throw new Error(`POST /api/contact answered ${response.status}`);
      sent.push({ started, ms: performance.now() - started });
    }
  }
  await Promise.all(Array.from({ length: visitors }, visitor));
  return sent;
}
