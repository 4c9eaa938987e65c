import fs from 'node:fs';
import path from 'node:path';
import { appFolder, type AppName } from './apps';
import { refusal, type GateContext } from './compat';
import { compactHistory, pruneReleases, removeLeftovers } from './prune';
import { createRelease } from './publish';
import { buildVersion, filesTime, gitRevision, readBuildStamp } from './release-id';
import { withLock } from './lock';
import { withEvent, writeState, type Candidate, type DeliveryAction, type DeliveryEvent, type ReleaseState } from './state';
import { appReleasesDir, loadAppReleases, type AppReleases, type ReleaseInfo } from './store';

/**
 * What `npm run release` does: publish, stage, canary, list, roll back, promote, abort. Every command that changes
 * something holds the lock of the whole releases folder (`RELEASES_DIR/.lock`: the gate of one app
 * reads the others' current releases) and runs the compatibility gate before a release becomes current.
 *
 * Each command returns what it did as data: the server runs some of them too, so the sentences a
 * person reads in a terminal are made by the command line (cli/release-text).
 */
export interface ReleaseContext extends GateContext {
  /** Releases to keep per app. */
  keep: number;
  /** The checkout: app package.json versions and the git revision. */
  repoRoot: string;
  now?: () => Date;
}

/** The change was not made (incompatible, unknown id, nothing to roll back to): exit non-zero. */
export class RefusedError extends Error {}

/** A build taken into a release: a new one, or the kept release that already held the same files. */
export interface PublishedBuild {
  release: ReleaseInfo;
  /** False when a kept release already held this build. */
  created: boolean;
  /** The build folder it was taken from. */
  dist: string;
}

/** `publish`: the build's release is current now. */
export interface PublishResult {
  kind: 'publish';
  app: AppName;
  build: PublishedBuild;
  /** It was current before: nothing was made current or pruned. */
  alreadyCurrent: boolean;
  /** Old releases deleted to keep the newest ones. */
  pruned: ReleaseInfo[];
}

/** `stage`: the build's release is published for preview links only. */
export interface StageResult {
  kind: 'stage';
  app: AppName;
  build: PublishedBuild;
  /** It is the current release: every visitor gets it already, nothing was recorded. */
  alreadyCurrent: boolean;
  /** The link that shows it to one browser. */
  previewUrl: string;
  pruned: ReleaseInfo[];
}

/** `canary`: a release is the candidate a share of visitors gets. */
export interface CanaryResult {
  kind: 'canary';
  app: AppName;
  /** The build published as the candidate; undefined when a kept release was named. */
  build?: PublishedBuild;
  candidate: Candidate;
  /** What the other visitors get; undefined: the app's dist folder. */
  current: ReleaseInfo | undefined;
  pruned: ReleaseInfo[];
}

/** `promote` and `promoteCandidate`: a kept release is current now. */
export interface PromoteResult {
  kind: 'promote';
  app: AppName;
  release: ReleaseInfo;
  /** It was current before: nothing changed. */
  alreadyCurrent: boolean;
  /** The release current before; undefined: the app was served from its dist folder. */
  from: ReleaseInfo | undefined;
}

/** `rollback`: the previous release is current again. */
export interface RollbackResult {
  kind: 'rollback';
  app: AppName;
  from: ReleaseInfo;
  to: ReleaseInfo;
}

/** `abort`: the candidate was dropped. */
export interface AbortResult {
  kind: 'abort';
  app: AppName;
  dropped: Candidate & { release: ReleaseInfo };
  /** What every visitor gets now; undefined: the app's dist folder. */
  current: ReleaseInfo | undefined;
}

/** A kept release and what it is to visitors (no role: just kept). */
export type ListedRelease =
  | { release: ReleaseInfo; role?: 'current' | 'previous' | 'staged' }
  | { release: ReleaseInfo; role: 'candidate'; share: number };

/** `list`: the kept releases, newest first. */
export interface ListResult {
  kind: 'list';
  app: AppName;
  /** The app's releases folder. */
  dir: string;
  releases: ListedRelease[];
  /** Undefined: the app is served from its dist folder. */
  current: ReleaseInfo | undefined;
}

export type ReleaseResult = PublishResult | StageResult | CanaryResult | PromoteResult | RollbackResult | AbortResult | ListResult;

/** An automatic decision about a candidate, as recorded in the app's events. */
export type CandidateDecision = DeliveryEvent & { action: 'promoted' | 'rolled_back' };

/** The checkout's version of the app (its package.json), for builds that do not name theirs. */
function checkoutVersion(context: ReleaseContext, app: AppName): string {
  const file = path.join(context.repoRoot, appFolder(app), 'package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: string }).version ?? '0.0.0';
}

/** Gate, then write `history`, whose last entry is `release`: from now on it is current. */
async function makeCurrent(context: ReleaseContext, app: AppName, release: ReleaseInfo, state: ReleaseState, history: string[]): Promise<void> {
  const reason = await refusal(context, { app, release: release.id, dir: release.dir });
  if (reason) throw new RefusedError(reason);
  // A release made current is no longer anyone's candidate.
  const candidate = state.candidate?.id === release.id ? undefined : state.candidate;
  await writeState(appReleasesDir(context.releasesDir, app), { ...state, history, candidate });
}

const nowOf = (context: ReleaseContext) => (context.now ?? (() => new Date()))();

function event<A extends DeliveryAction>(context: ReleaseContext, release: string, action: A, reason: string): DeliveryEvent & { action: A } {
  return { at: nowOf(context).toISOString(), release, action, reason };
}

/** Copies a build into a release of its own (or finds the one that holds it): the lock is held. */
async function createFromDist(context: ReleaseContext, app: AppName, dist: string): Promise<PublishedBuild> {
  await removeLeftovers(appReleasesDir(context.releasesDir, app));
  const stamp = readBuildStamp(dist);
  const { release, created } = await createRelease(context.releasesDir, {
    app,
    dist,
    // What the build says it is (a CI artifact is not the checkout), else the checkout.
    version: buildVersion(dist) ?? checkoutVersion(context, app),
    revision: stamp?.revision ?? gitRevision(context.repoRoot),
    builtAt: stamp?.builtAt ?? filesTime(dist),
    publishedAt: nowOf(context),
  });
  return { release, created, dist };
}

function findKept(state: AppReleases, app: AppName, id: string): ReleaseInfo {
  const release = state.releases.find((candidate) => candidate.id === id);
  if (release) return release;
  const kept = state.releases.map((candidate) => candidate.id).join(', ') || 'none';
  throw new RefusedError(`There is no ${app} release ${id}. Kept releases: ${kept}.`);
}

const prune = (context: ReleaseContext, app: AppName, keep: number): Promise<ReleaseInfo[]> =>
  pruneReleases(context.releasesDir, app, keep, nowOf(context).getTime());

export async function publish(context: ReleaseContext, app: AppName, dist: string, keep = context.keep): Promise<PublishResult> {
  // The copy is made under the lock too: removeLeftovers may then treat every temp folder as a
  // crashed command's.
  return withLock(context.releasesDir, `publish ${app}`, async () => {
    const build = await createFromDist(context, app, dist);
    const { release } = build;
    const state = await loadAppReleases(context.releasesDir, app);
    if (state.current?.id === release.id) return { kind: 'publish', app, build, alreadyCurrent: true, pruned: [] };
    try {
      await makeCurrent(context, app, release, state.state, [...state.history, release.id]);
    } catch (error) {
      if (error instanceof RefusedError && build.created) {
        error.message += ` Release ${release.id} is kept: make it current later with --promote ${release.id}.`;
      }
      throw error;
    }
    return { kind: 'publish', app, build, alreadyCurrent: false, pruned: await prune(context, app, keep) };
  });
}

export async function promote(context: ReleaseContext, app: AppName, id: string): Promise<PromoteResult> {
  return withLock(context.releasesDir, `promote ${app} ${id}`, async () => {
    const state = await loadAppReleases(context.releasesDir, app);
    const release = findKept(state, app, id);
    if (state.current?.id === id) return { kind: 'promote', app, release, alreadyCurrent: true, from: state.current };
    const promoted = state.candidate?.id === id ? withEvent(state.state, event(context, id, 'promoted', 'promoted by hand')) : state.state;
    await makeCurrent(context, app, release, promoted, [...state.history, release.id]);
    return { kind: 'promote', app, release, alreadyCurrent: false, from: state.current };
  });
}

export async function rollback(context: ReleaseContext, app: AppName): Promise<RollbackResult> {
  return withLock(context.releasesDir, `rollback ${app}`, async () => {
    const state = await loadAppReleases(context.releasesDir, app);
    if (!state.current || !state.previous) {
      throw new RefusedError(
        state.current
          ? `${app} has no previous release to roll back to; the current release stays ${state.current.id}.`
          : `${app} has no current release; it is served from ${appFolder(app)}/dist.`,
      );
    }
    const history = compactHistory(state.history, new Set(state.releases.map((release) => release.id)));
    await makeCurrent(context, app, state.previous, state.state, history.slice(0, -1));
    return { kind: 'rollback', app, from: state.current, to: state.previous };
  });
}

/**
 * Publishes a build without making it current (`--stage`): nobody gets it but a browser that opens
 * a preview link for it. `previewUrl` makes that link.
 */
export async function stage(context: ReleaseContext, app: AppName, dist: string, previewUrl: (release: string) => string, keep = context.keep): Promise<StageResult> {
  return withLock(context.releasesDir, `stage ${app}`, async () => {
    const build = await createFromDist(context, app, dist);
    const { release } = build;
    const state = await loadAppReleases(context.releasesDir, app);
    const alreadyCurrent = state.current?.id === release.id;
    if (!alreadyCurrent) {
      await writeState(appReleasesDir(context.releasesDir, app), withEvent(state.state, event(context, release.id, 'staged', 'published for preview only')));
    }
    return { kind: 'stage', app, build, alreadyCurrent, previewUrl: previewUrl(release.id), pruned: await prune(context, app, keep) };
  });
}

/** How a canary's candidate is exposed and judged (`--canary <percent>` and its options). */
export interface CanaryOptions {
  /** A build to publish as the candidate; else `id`, a kept release. */
  dist?: string;
  id?: string;
  share: number;
  minViews: number;
  promoteAfter: number | null;
  keep?: number;
}

/**
 * A canary's rules in words: the reason stored with its `canary` event in state.json (part of the
 * releases' record, not only of what is printed), hence made here. The command line's confirmation
 * reuses it, so both say the same.
 */
export function describeCanary(candidate: Pick<Candidate, 'share' | 'minViews' | 'promoteAfter'>): string {
  const promotion = candidate.promoteAfter === null ? 'promoted by hand' : `promoted after ${candidate.promoteAfter} healthy page views`;
  return `${candidate.share} % of visitors, judged after ${candidate.minViews} page views, ${promotion}`;
}

/**
 * Makes a release the candidate a share of visitors gets (published from `dist`, or a kept
 * release). Setting the same candidate again changes its share and rules; another candidate
 * while one runs is refused. The compatibility gate applies as to a current release.
 */
export async function canary(context: ReleaseContext, app: AppName, options: CanaryOptions): Promise<CanaryResult> {
  return withLock(context.releasesDir, `canary ${app}`, async () => {
    const build = options.dist ? await createFromDist(context, app, options.dist) : undefined;
    const release = build?.release ?? findKept(await loadAppReleases(context.releasesDir, app), app, options.id ?? '');
    const state = await loadAppReleases(context.releasesDir, app);
    if (state.current?.id === release.id) throw new RefusedError(`${release.id} is the current ${app} release: every visitor gets it already.`);
    if (state.candidate && state.candidate.id !== release.id) {
      throw new RefusedError(`${app} release ${state.candidate.id} is the candidate now: promote it (--promote) or drop it (--abort) first.`);
    }
    const reason = await refusal(context, { app, release: release.id, dir: release.dir });
    if (reason) throw new RefusedError(build?.created ? `${reason} Release ${release.id} is kept.` : reason);
    const rules = { share: options.share, minViews: options.minViews, promoteAfter: options.promoteAfter };
    const candidate: Candidate = { id: release.id, ...rules, since: state.candidate?.since ?? nowOf(context).toISOString() };
    await writeState(appReleasesDir(context.releasesDir, app), withEvent({ ...state.state, candidate }, event(context, release.id, 'canary', describeCanary(rules))));
    return { kind: 'canary', app, build, candidate, current: state.current, pruned: await prune(context, app, options.keep ?? context.keep) };
  });
}

/** `--promote` with no id: the candidate becomes current for every visitor. */
export async function promoteCandidate(context: ReleaseContext, app: AppName): Promise<PromoteResult> {
  const { candidate } = await loadAppReleases(context.releasesDir, app);
  if (!candidate) throw new RefusedError(`${app} has no candidate to promote: name a release (--promote <id>) or start a canary (--canary <percent>).`);
  return promote(context, app, candidate.id);
}

/** `--abort`: the candidate is dropped; every visitor gets the current release again. */
export async function abort(context: ReleaseContext, app: AppName): Promise<AbortResult> {
  return withLock(context.releasesDir, `abort ${app}`, async () => {
    const state = await loadAppReleases(context.releasesDir, app);
    if (!state.candidate) throw new RefusedError(`${app} has no candidate to drop.`);
    const dropped = { ...state.state, candidate: undefined };
    await writeState(appReleasesDir(context.releasesDir, app), withEvent(dropped, event(context, state.candidate.id, 'aborted', 'dropped by hand')));
    return { kind: 'abort', app, dropped: state.candidate, current: state.current };
  });
}

/**
 * A decision release health made about the candidate `id`: promote it or roll it back. Nothing
 * changes (undefined) when `id` is no longer the candidate: a person or another process decided
 * first. A promotion the compatibility gate refuses rolls the candidate back instead, so the
 * decision returned may differ from the one asked for.
 */
export async function decideCandidate(
  context: ReleaseContext,
  app: AppName,
  id: string,
  action: CandidateDecision['action'],
  reason: string,
): Promise<CandidateDecision | undefined> {
  return withLock(context.releasesDir, `${action === 'promoted' ? 'promote' : 'roll back'} ${app} candidate`, async () => {
    const state = await loadAppReleases(context.releasesDir, app);
    if (state.candidate?.id !== id) return undefined;
    const dir = appReleasesDir(context.releasesDir, app);
    if (action === 'promoted') {
      const decided = event(context, id, 'promoted', reason);
      try {
        await makeCurrent(context, app, state.candidate.release, withEvent(state.state, decided), [...state.history, id]);
        return decided;
      } catch (error) {
        if (!(error instanceof RefusedError)) throw error;
        reason = error.message;
        action = 'rolled_back';
      }
    }
    const decided = event(context, id, action, reason);
    await writeState(dir, withEvent({ ...state.state, candidate: undefined }, decided));
    return decided;
  });
}

export async function list(context: ReleaseContext, app: AppName): Promise<ListResult> {
  const { releases, current, previous, candidate, events, state } = await loadAppReleases(context.releasesDir, app);
  const staged = new Set(events.filter((entry) => entry.action === 'staged').map((entry) => entry.release));
  // One role per release, the first that applies: a candidate is never current (loadAppReleases).
  const listed = releases.map((release): ListedRelease => {
    if (release === current) return { release, role: 'current' };
    if (release === candidate?.release) return { release, role: 'candidate', share: candidate.share };
    if (release === previous) return { release, role: 'previous' };
    // Once made current it is an ordinary release, whatever it started as.
    if (staged.has(release.id) && !state.history.includes(release.id)) return { release, role: 'staged' };
    return { release };
  });
  return { kind: 'list', app, dir: appReleasesDir(context.releasesDir, app), releases: listed, current };
}
