import { UNRELEASED, type ReleaseExpectation, type StaffRelease, type StaffReleaseApp, type StaffReleaseChanged, type StaffReleaseDetail } from '@agency/shared';
import { toMinute } from '../../platform/lib/minutes';
import { formatReleaseResult } from '../cli/release-text';
import { answerRefusal } from '../release-api/refused-answer';
import { APP_NAMES, isRemote, type AppName } from '../releases/apps';
import {
  abort,
  canary,
  DEFAULT_MIN_VIEWS,
  listedReleases,
  promote,
  promoteCandidate,
  rollback,
  stageKept,
  type ReleaseContext,
  type ReleaseResult,
} from '../releases/commands';
import { loadAppReleases, loadReleases, type AppReleases, type ReleaseInfo, type ReleaseRecord } from '../releases/release-repository';
import { readReleaseSeries } from '../status/release-series';
import { readReleaseStatus } from '../status/release-status';

/** A release command as the console sends it: the same commands, gate and rules as the release API. */
export type ReleaseDeskCommand =
  | { command: 'stage'; release: string }
  | { command: 'canary'; release: string; share: number; minViews?: number; promoteAfter?: number | null }
  | { command: 'promote'; release?: string }
  | { command: 'rollback' }
  | { command: 'abort' };

/**
 * What the staff console's «Релізи» reads of releases and does to them. The console imports
 * nothing of delivery: it gets this through `app.delivery`, in the contracts' shapes.
 */
export interface ReleaseDesk {
  /** Every app's releases now (read from the database: one snapshot of them all). */
  apps(): Promise<StaffReleaseApp[]>;
  /** One app's releases now, and their health since `since`: `--status`, over time, and a canary's evidence. */
  health(app: AppName, since: Date): Promise<Omit<StaffReleaseDetail, 'mayAct'>>;
  /**
   * Runs a release command as `actor` on the state `expect` names. A refusal (the state moved on,
   * the gate, nothing to roll back to) is an ApiError 409, CONCURRENT_CHANGE or REFUSED, with the
   * command's own message, as the release API answers it.
   */
  act(actor: string, app: AppName, command: ReleaseDeskCommand, expect: ReleaseExpectation): Promise<StaffReleaseChanged>;
}

export interface ReleaseDeskOptions {
  /** The release commands' context, without the actor and the expectation: each call names both. */
  context: Omit<ReleaseContext, 'actor' | 'expect'>;
  /** What makes preview links for staged releases (the signing secret is read first). */
  previewLinks(): Promise<(pin: { app: AppName; release: string }) => string>;
  /** An app's releases with their files on this machine, read now (source maps locate errors). */
  releasesOf(app: AppName): Promise<AppReleases<ReleaseInfo>>;
}

function releaseView(release: ReleaseRecord): StaffRelease {
  const { id, version, revision, builtAt, publishedAt, publishedBy } = release;
  return { id, version, revision, builtAt, publishedAt, publishedBy };
}

/** An app's releases as «Релізи» shows them, each in one place: current, previous, candidate, staged, or else kept. */
export function appView(app: AppName, loaded: AppReleases): StaffReleaseApp {
  const listed = listedReleases(loaded);
  const { current, previous, candidate } = loaded;
  return {
    app,
    remote: isRemote(app),
    revision: loaded.state.revision,
    current: current ? releaseView(current) : null,
    previous: previous ? releaseView(previous) : null,
    candidate: candidate
      ? { id: candidate.id, share: candidate.share, minViews: candidate.minViews, promoteAfter: candidate.promoteAfter, since: candidate.since, release: releaseView(candidate.release) }
      : null,
    staged: listed.filter((entry) => entry.role === 'staged').map((entry) => releaseView(entry.release)),
    kept: listed.filter((entry) => entry.role === undefined).map((entry) => releaseView(entry.release)),
  };
}

export function createReleaseDesk({ context, previewLinks, releasesOf }: ReleaseDeskOptions): ReleaseDesk {
  const { db } = context;

  async function run(context: ReleaseContext, app: AppName, command: ReleaseDeskCommand): Promise<ReleaseResult> {
    switch (command.command) {
      case 'stage': {
        const link = await previewLinks();
        return stageKept(context, app, command.release, (release) => link({ app, release }));
      }
      case 'canary': {
        // Changing a running candidate's share keeps its rules unless new ones are sent.
        const { candidate } = await loadAppReleases(db, app);
        const running = candidate?.id === command.release ? candidate : undefined;
        return canary(context, app, {
          id: command.release,
          share: command.share,
          minViews: command.minViews ?? running?.minViews ?? DEFAULT_MIN_VIEWS,
          promoteAfter: command.promoteAfter === undefined ? (running?.promoteAfter ?? null) : command.promoteAfter,
        });
      }
      case 'promote':
        return command.release ? promote(context, app, command.release) : promoteCandidate(context, app);
      case 'rollback':
        return rollback(context, app);
      case 'abort':
        return abort(context, app);
    }
  }

  return {
    async apps() {
      const { apps } = await loadReleases(db, APP_NAMES);
      return APP_NAMES.map((app) => appView(app, apps.get(app)!));
    },

    async health(app, since) {
      const { status, state, evidence } = await readReleaseStatus({ db, staticRoot: context.staticRoot, releasesOf }, app, since);
      const always = new Set([state.current?.id ?? UNRELEASED, ...(state.candidate ? [state.candidate.id] : [])]);
      const series = await readReleaseSeries(
        db,
        app,
        status.releases.map((entry) => entry.id),
        always,
        toMinute(Date.parse(status.since)),
        toMinute(Date.now()),
      );
      return { state: appView(app, state), status, series, evidence: evidence ? { candidate: evidence.candidate, current: evidence.current } : null };
    },

    async act(actor, app, command, expect) {
      let result: ReleaseResult;
      try {
        result = await run({ ...context, actor, expect }, app, command);
      } catch (error) {
        return answerRefusal(error);
      }
      return {
        state: appView(app, await loadAppReleases(db, app)),
        done: formatReleaseResult(result).join('. '),
        ...(result.kind === 'stage' && { previewUrl: result.previewUrl }),
      };
    },
  };
}
