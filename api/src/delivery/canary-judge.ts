import type { ReleaseHealth } from '../telemetry/release-health';
import type { Candidate } from '../releases/state';

/**
 * When a candidate counts as worse than the current release (each rate per page view, over the
 * same window): more than `ratio` times the current release's rate AND at least `points` higher.
 * Both, so that a current release with no errors at all does not roll back a candidate for one
 * error in a thousand views, and a noisy current release does not hide a candidate twice as bad.
 */
export const WORSE_THAN_CURRENT = { ratio: 2, points: 0.02 } as const;

/**
 * A vitals regression: the candidate's p75 LCP or INP more than `ratio` times the current
 * release's, each side with at least `minSamples` values. It holds an automatic promotion (and is
 * reported) but does not roll back by itself: vitals vary with visitors' devices and networks.
 */
export const VITALS_REGRESSION = { ratio: 1.2, minSamples: 20 } as const;

/** What release health says about a candidate now. */
export type Verdict =
  | { action: 'roll_back'; reason: string }
  | { action: 'promote'; reason: string }
  /** Promotion is due but a vitals regression holds it. */
  | { action: 'hold'; reason: string }
  | { action: 'wait'; reason: string };

type Health = Pick<ReleaseHealth, 'page_views' | 'errors' | 'load_failures' | 'render_failures' | 'vitals' | 'vitals_samples'>;

const percent = (rate: number) => `${Math.round(rate * 1000) / 10} %`;

function rate(count: number, views: number): number {
  return views > 0 ? count / views : 0;
}

/** Why the candidate's `count` per page view is worse than the current release's, if it is. */
function worse(what: string, candidate: Health, current: Health, count: (health: Health) => number): string | undefined {
  const mine = rate(count(candidate), candidate.page_views);
  const theirs = rate(count(current), current.page_views);
  if (mine > theirs * WORSE_THAN_CURRENT.ratio && mine - theirs >= WORSE_THAN_CURRENT.points) {
    return `${what} ${percent(mine)} per page view over ${candidate.page_views} page views, against ${percent(theirs)} of the current release over ${current.page_views}`;
  }
  return undefined;
}

/** Why the candidate's vitals hold its promotion, if they do. */
function vitalsRegression(candidate: Health, current: Health): string | undefined {
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
 * often); errors and load failures only once it has `minViews` page views.
 */
export function judgeCandidate(candidate: Pick<Candidate, 'minViews' | 'promoteAfter'>, health: { candidate: Health; current: Health }): Verdict {
  const mine = health.candidate;
  const theirs = health.current;
  if (mine.render_failures > 0 && mine.render_failures > theirs.render_failures) {
    return { action: 'roll_back', reason: `its server render failed ${mine.render_failures} time(s), the current release's ${theirs.render_failures}` };
  }
  if (mine.page_views < candidate.minViews) {
    return { action: 'wait', reason: `${mine.page_views} of ${candidate.minViews} page views before it is judged` };
  }
  const failing = worse('errors', mine, theirs, (entry) => entry.errors) ?? worse('load failures', mine, theirs, (entry) => entry.load_failures);
  if (failing) return { action: 'roll_back', reason: failing };
  if (candidate.promoteAfter === null) return { action: 'wait', reason: `healthy over ${mine.page_views} page views; a person promotes it` };
  if (mine.page_views < candidate.promoteAfter) {
    return { action: 'wait', reason: `healthy over ${mine.page_views} of ${candidate.promoteAfter} page views before promotion` };
  }
  const slower = vitalsRegression(mine, theirs);
  if (slower) return { action: 'hold', reason: `promotion held: ${slower}` };
  return { action: 'promote', reason: `healthy over ${mine.page_views} page views (errors and load failures no worse than the current release's)` };
}
