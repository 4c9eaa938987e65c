import type { ReleaseHealth, Verdict } from '@agency/shared';
import type { Candidate } from '../releases/state';

/**
 * Distinct clients (by address) a decision needs evidence from: errors reported by at least this
 * many to roll a candidate back, pages sent to at least this many to promote it, LCP or INP from
 * at least this many on each side to hold a promotion. One client, however many requests it
 * sends, decides nothing.
 */
export const MIN_CLIENTS = 5;

/**
 * When a candidate counts as worse than the current release: the share of its clients that
 * reported errors (or load failures) is more than `ratio` times the current release's share AND
 * at least `points` higher, over the same window. Both, so that a current release no client saw
 * fail does not roll back a candidate for one in a thousand, and a noisy current release does not
 * hide a candidate twice as bad. A share of clients, not of page views: each client counts once
 * however many pages or reports it sends.
 */
export const WORSE_THAN_CURRENT = { ratio: 2, points: 0.02 } as const;

/**
 * A vitals regression: the candidate's p75 LCP or INP more than `ratio` times the current
 * release's, each side with at least `minSamples` values from MIN_CLIENTS clients. It holds an
 * automatic promotion (and is reported) but does not roll back by itself: vitals vary with
 * visitors' devices and networks.
 */
export const VITALS_REGRESSION = { ratio: 1.2, minSamples: 20 } as const;

export type { Verdict } from '@agency/shared';

type Health = Pick<ReleaseHealth, 'judged_page_views' | 'clients' | 'render_failures' | 'vitals' | 'vitals_samples'>;

const percent = (rate: number) => `${Math.round(rate * 1000) / 10} %`;

/** Of the clients a release was seen by (sent its pages, or reporting on it), how many reported `evidence`. */
function clientShare(health: Health, evidence: 'error' | 'load_failure') {
  const reporting = health.clients[evidence];
  const of = Math.max(health.clients.served, reporting);
  return { reporting, of, share: of > 0 ? reporting / of : 0 };
}

/** Why the candidate's share of clients reporting `evidence` is worse than the current release's, if it is. */
function worse(what: string, evidence: 'error' | 'load_failure', candidate: Health, current: Health): string | undefined {
  const mine = clientShare(candidate, evidence);
  const theirs = clientShare(current, evidence);
  if (mine.reporting < MIN_CLIENTS) return undefined;
  if (mine.share > theirs.share * WORSE_THAN_CURRENT.ratio && mine.share - theirs.share >= WORSE_THAN_CURRENT.points) {
    return (
      `${what} from ${mine.reporting} of ${mine.of} clients (${percent(mine.share)}) over ${candidate.judged_page_views} page views, ` +
      `against ${percent(theirs.share)} of the current release's ${theirs.of} clients`
    );
  }
  return undefined;
}

/** Why the candidate's vitals hold its promotion, if they do. */
function vitalsRegression(candidate: Health, current: Health): string | undefined {
  if (candidate.clients.vitals < MIN_CLIENTS || current.clients.vitals < MIN_CLIENTS) return undefined;
  const checks = [
    ['LCP', candidate.vitals.lcp_p75_ms, current.vitals.lcp_p75_ms, candidate.vitals_samples.lcp, current.vitals_samples.lcp],
    ['INP', candidate.vitals.inp_p75_ms, current.vitals.inp_p75_ms, candidate.vitals_samples.inp, current.vitals_samples.inp],
  ] as const;
  for (const [name, mine, theirs, mySamples, theirSamples] of checks) {
    if (mine === null || theirs === null || mySamples < VITALS_REGRESSION.minSamples || theirSamples < VITALS_REGRESSION.minSamples) continue;
    if (mine > theirs * VITALS_REGRESSION.ratio) {
      return `p75 ${name} ${mine} ms against ${theirs} ms of the current release (more than ${Math.round((VITALS_REGRESSION.ratio - 1) * 100)} % worse)`;
    }
  }
  return undefined;
}

/**
 * The verdict on a canary's candidate from its health and the current release's over the same
 * window. A failed server render rolls it back at once (unless the current release fails as
 * often): the server's own evidence. The rest waits for `minViews` pages the server sent with the
 * candidate on them (a few per client at most: PAGES_COUNTED_PER_CLIENT); what browsers report
 * only counts from the clients the server assigned the release to, and decides only when enough
 * distinct clients agree (MIN_CLIENTS).
 */
export function judgeCandidate(candidate: Pick<Candidate, 'minViews' | 'promoteAfter'>, health: { candidate: Health; current: Health }): Verdict {
  const mine = health.candidate;
  const theirs = health.current;
  const views = mine.judged_page_views;
  if (mine.render_failures > 0 && mine.render_failures > theirs.render_failures) {
    return { action: 'roll_back', reason: `its server render failed ${mine.render_failures} time(s), the current release's ${theirs.render_failures}` };
  }
  if (views < candidate.minViews) {
    return { action: 'wait', reason: `${views} of ${candidate.minViews} page views before it is judged` };
  }
  const failing = worse('errors', 'error', mine, theirs) ?? worse('load failures', 'load_failure', mine, theirs);
  if (failing) return { action: 'roll_back', reason: failing };
  if (candidate.promoteAfter === null) return { action: 'wait', reason: `healthy over ${views} page views; a person promotes it` };
  if (views < candidate.promoteAfter) {
    return { action: 'wait', reason: `healthy over ${views} of ${candidate.promoteAfter} page views before promotion` };
  }
  if (mine.clients.served < MIN_CLIENTS) {
    return { action: 'wait', reason: `healthy over ${views} page views, sent to ${mine.clients.served} of the ${MIN_CLIENTS} clients promotion needs` };
  }
  const slower = vitalsRegression(mine, theirs);
  if (slower) return { action: 'hold', reason: `promotion held: ${slower}` };
  return {
    action: 'promote',
    reason: `healthy over ${views} page views sent to ${mine.clients.served} clients (errors and load failures no worse than the current release's)`,
  };
}
