import { UNRELEASED, type ReleaseStatus } from '@agency/shared';
import type { Db } from '../../platform/db/connection';
import type { AppName } from '../releases/apps';
import { candidateHealth, type CandidateHealth } from '../canary/candidate-health';
import type { AppReleases, ReleaseInfo } from '../releases/release-repository';
import { readReleaseHealth } from '../health/release-health';
import { createSourceLocator } from '../health/source-locations';
import { parseDuration } from '../../platform/lib/duration';
import { toMinute } from '../../platform/lib/minutes';

/** The window `--status` reports by default. */
export const DEFAULT_STATUS_WINDOW_MS = 60 * 60 * 1000;

/**
 * `--since`: a duration back from now (`30m`, `1h`, `2d`) or a moment (`2026-11-24T09:00Z`);
 * undefined for anything else.
 */
export function parseSince(value: string, now = Date.now()): Date | undefined {
  const durationMs = parseDuration(value, { wholeUnits: true });
  if (durationMs !== undefined) return new Date(now - durationMs);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value.trim())) return undefined;
  const moment = new Date(value.trim());
  return Number.isNaN(moment.getTime()) || moment.getTime() > now ? undefined : moment;
}

export type { ReleaseStatus, ReleaseStatusEntry } from '@agency/shared';

export interface ReleaseStatusContext {
  db: Db;
  staticRoot: string;
  /** An app's releases with their files on this machine (source maps locate errors). */
  releasesOf(app: AppName): Promise<AppReleases<ReleaseInfo>>;
}

/**
 * What visitors' browsers saw of the app's current release and of every earlier one still kept
 * (the ones a rollback or promote can return to), newest first. An app with no release reports
 * its build folder (`dist`).
 */
export async function releaseStatus(context: ReleaseStatusContext, app: AppName, since: Date): Promise<ReleaseStatus> {
  return (await readReleaseStatus(context, app, since)).status;
}

/**
 * The report, the releases it was read from (one snapshot), and while a canary runs the evidence
 * its verdict is taken from: the candidate's health and the current release's since it started.
 */
export async function readReleaseStatus(
  { db, staticRoot, releasesOf }: ReleaseStatusContext,
  app: AppName,
  since: Date,
): Promise<{ status: ReleaseStatus; state: AppReleases<ReleaseInfo>; evidence: CandidateHealth | undefined }> {
  const state = await releasesOf(app);
  const { releases, current, candidate, events } = state;
  const reported = releases.length > 0 ? releases.map((release) => ({ id: release.id, current: release === current })) : [];
  if (!current) reported.unshift({ id: UNRELEASED, current: true });
  // Errors are located in the releases just read: one snapshot for the whole report, and no read
  // of the same state again for each error (a caller may read it fresh from the database).
  const locator = createSourceLocator({ staticRoot, releasesOf: (name) => (name === app ? Promise.resolve(state) : releasesOf(name)) });
  try {
    const sinceMinute = toMinute(since.getTime());
    const [health, canary] = await Promise.all([readReleaseHealth(db, app, reported, sinceMinute, locator), candidateHealth(db, app, state)]);
    const status: ReleaseStatus = {
      app,
      since: new Date(sinceMinute * 60_000).toISOString(),
      releases: health.map((entry) =>
        entry.id === candidate?.id ? { ...entry, candidate: true, share: candidate.share } : { ...entry, candidate: false },
      ),
      canary:
        candidate && canary
          ? {
              release: candidate.id,
              share: candidate.share,
              min_views: candidate.minViews,
              promote_after: candidate.promoteAfter,
              since: candidate.since,
              verdict: canary.verdict,
            }
          : null,
      events,
    };
    return { status, state, evidence: canary };
  } finally {
    locator.close();
  }
}
