import { UNRELEASED } from '@agency/shared';
import type { Db } from '../../platform/db/connection';
import type { AppName } from '../releases/apps';
import type { AppReleases } from '../releases/release-repository';
import { readReleaseHealth, type ReleaseHealth } from '../health/release-health';
import { toMinute } from '../../platform/lib/minutes';
import { judgeCandidate, type Verdict } from './canary-judge';

export interface CandidateHealth {
  candidate: ReleaseHealth;
  current: ReleaseHealth;
  verdict: Verdict;
}

/**
 * The candidate's health and the current release's over the same window (since it became the
 * candidate), and what they say. Undefined when the app runs no canary.
 */
export async function candidateHealth(db: Db, app: AppName, state: Pick<AppReleases, 'candidate' | 'current'>): Promise<CandidateHealth | undefined> {
  const { candidate } = state;
  if (!candidate) return undefined;
  const currentId = state.current?.id ?? UNRELEASED;
  const [mine, theirs] = await readReleaseHealth(
    db,
    app,
    [
      { id: candidate.id, current: false },
      { id: currentId, current: true },
    ],
    toMinute(Date.parse(candidate.since)),
    // Where errors were thrown is for people; the judge reads counts.
    async () => null,
  );
  return { candidate: mine!, current: theirs!, verdict: judgeCandidate(candidate, { candidate: mine!, current: theirs! }) };
}
