import fs from 'node:fs';
import type { ReleaseExpectation } from '@agency/shared';
import path from 'node:path';
import { appFolder, type AppName } from './apps';
import { checkCompatibility, type GateContext } from './compat';
import { compactHistory, pruneReleases } from './prune';
import { createRelease } from './publish';
import { commitReleaseChange, stateChangedError, unexpectedState, type ReleaseChange } from './release-change';
import { buildVersion, gitRevision } from './release-id';
import { loadAppReleases, type AppReleases, type ReleaseRecord } from './release-repository';
import { RefusedError } from './refused-error';
import type { Candidate, DeliveryAction, DeliveryEvent } from './state';

/**
 * What `npm run release` and the release API do: publish, stage, canary, list, roll back, promote,
 * abort. Every change is one transaction that checks the state it was decided on, and the state its
 * caller names (`expect`), read once per command (see release-change); the compatibility gate runs
 * before a release becomes current or a candidate.
 *
 * Each command returns what it did as data: the release API sends it as JSON, and the command
 * line turns it into the sentences a person reads (cli/release-text), the same on the server and
 * on a team's machine.
 */
export interface ReleaseContext extends GateContext {
  /** Releases to keep per app. */
  keep: number;
  /** The checkout: app package.json versions and the git revision of builds that do not say theirs. */
  repoRoot: string;
  /** Who runs the commands (see DeliveryEvent.actor). */
  actor: string;
  /**
   * The state the caller acts on (the release API, the console and the command line name it):
   * a command on any other state is refused with what changed, so a repeated or concurrent
   * command never acts twice. Undefined: the state the command reads (release health's own).
   */
  expect?: ReleaseExpectation;
  now?: () => Date;
}

export { RefusedError } from './refused-error';

/** A build to publish: its files and what its stamp says, and where it came from (a folder, an upload). */
export interface ReleaseBuild {
  files: ReadonlyMap<string, Buffer>;
  stamp?: { builtAt?: Date; revision?: string };
  /** Shown to people: the dist folder, or `an upload by <token>`. */
  source: string;
}

/** A build taken into a release: a new one, or the kept release that already held the same files. */
export interface PublishedBuild {
  release: ReleaseRecord;
  /** False when a kept release already held this build. */
  created: boolean;
  source: string;
}

/** `publish`: the build's release is current now. */
export interface PublishResult {
  kind: 'publish';
  app: AppName;
  build: PublishedBuild;
  /** It was current before: nothing was made current or pruned. */
  alreadyCurrent: boolean;
  /** Old releases deleted to keep the newest ones. */
  pruned: ReleaseRecord[];
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
  pruned: ReleaseRecord[];
}

/** `canary`: a release is the candidate a share of visitors gets. */
export interface CanaryResult {
  kind: 'canary';
  app: AppName;
  /** The build published as the candidate; undefined when a kept release was named. */
  build?: PublishedBuild;
  candidate: Candidate;
  /** What the other visitors get; undefined: the app's dist folder. */
  current: ReleaseRecord | undefined;
  pruned: ReleaseRecord[];
}

/** `promote` and `promoteCandidate`: a kept release is current now. */
export interface PromoteResult {
  kind: 'promote';
  app: AppName;
  release: ReleaseRecord;
  /** It was current before: nothing changed. */
  alreadyCurrent: boolean;
  /** The release current before; undefined: the app was served from its dist folder. */
  from: ReleaseRecord | undefined;
}

/**
 * `rollback`: with a canary running, its candidate is rolled back (`candidate`: every visitor gets
 * `to`, the current release, again); otherwise the previous release is current again.
 */
export interface RollbackResult {
  kind: 'rollback';
  app: AppName;
  from: ReleaseRecord;
  to: ReleaseRecord | undefined;
  candidate: boolean;
}

/** `abort`: the candidate was dropped. */
export interface AbortResult {
  kind: 'abort';
  app: AppName;
  dropped: Candidate & { release: ReleaseRecord };
  /** What every visitor gets now; undefined: the app's dist folder. */
  current: ReleaseRecord | undefined;
}

/** A kept release and what it is to visitors (no role: just kept). */
export type ListedRelease =
  | { release: ReleaseRecord; role?: 'current' | 'previous' | 'staged' }
  | { release: ReleaseRecord; role: 'candidate'; share: number };

/** `list`: the kept releases, newest first. */
export interface ListResult {
  kind: 'list';
  app: AppName;
  /** Where the releases' files are (the artifact store). */
  store: string;
  releases: ListedRelease[];
  /** Undefined: the app is served from its dist folder. */
  current: ReleaseRecord | undefined;
  /** The app's revision: what a change decided on this list names as its expectation. */
  revision: number;
}

export type ReleaseResult = PublishResult | StageResult | CanaryResult | PromoteResult | RollbackResult | AbortResult | ListResult;

/** An automatic decision about a candidate, as recorded in the app's events. */
export type CandidateDecision = DeliveryEvent & { action: 'promoted' | 'rolled_back' };

/** The checkout's version of the app (its package.json), for builds that do not name theirs. */
function checkoutVersion(context: ReleaseContext, app: AppName): string {
  try {
    const file = path.join(context.repoRoot, appFolder(app), 'package.json');
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

const nowOf = (context: ReleaseContext) => (context.now ?? (() => new Date()))();

type NewEvent = ReleaseChange['events'][number];

function event(release: string, action: DeliveryAction, reason: string): NewEvent {
  return { release, action, reason };
}

/** Commits a change decided on `state` as the context's actor, on the state the caller expects. */
function commit(context: ReleaseContext, app: AppName, state: AppReleases, change: Omit<ReleaseChange, 'app' | 'startedAt' | 'actor' | 'at' | 'expect'>): Promise<number> {
  return commitReleaseChange(context.db, { app, startedAt: state.state.revision, actor: context.actor, at: nowOf(context), expect: context.expect, ...change });
}

/**
 * The app's releases, read once for the whole command, refused (ConcurrentChangeError) when they
 * are not what the caller expects: a command that changes nothing (already current) is refused too,
 * so a caller learns its view is stale. The commit checks the same again under the lock.
 */
async function loadExpected(context: ReleaseContext, app: AppName): Promise<AppReleases> {
  const state = await loadAppReleases(context.db, app);
  const observed = { revision: state.state.revision, current: state.current?.id, candidate: state.candidate?.id };
  const refusal = await unexpectedState(context.db, app, context.expect, observed);
  if (refusal) throw stateChangedError(refusal);
  return state;
}

/** The gate, then `history` (whose last entry is `release`) is written: from now on it is current. */
async function makeCurrent(context: ReleaseContext, app: AppName, release: ReleaseRecord, state: AppReleases, history: string[], events: NewEvent[]): Promise<void> {
  const verdict = await checkCompatibility(context, { app, release: release.id });
  if (verdict.refusal) throw new RefusedError(verdict.refusal);
  // A release made current is no longer anyone's candidate.
  const candidate = state.state.candidate?.id === release.id ? null : undefined;
  await commit(context, app, state, { history, candidate, events, reliesOn: verdict.reliesOn });
}

/** Stores a build as a release of its own (or finds the kept one that holds it). */
async function createFromBuild(context: ReleaseContext, app: AppName, build: ReleaseBuild): Promise<PublishedBuild> {
  const { release, created } = await createRelease(context.db, context.store, {
    app,
    files: build.files,
    // What the build says it is (a CI artifact is not the checkout), else the checkout.
    version: buildVersion(build.files) ?? checkoutVersion(context, app),
    revision: build.stamp?.revision ?? gitRevision(context.repoRoot),
    builtAt: build.stamp?.builtAt ?? nowOf(context),
    publishedAt: nowOf(context),
    publishedBy: context.actor,
  });
  return { release, created, source: build.source };
}

function findKept(state: AppReleases, app: AppName, id: string): ReleaseRecord {
  const release = state.releases.find((candidate) => candidate.id === id);
  if (release) return release;
  const kept = state.releases.map((candidate) => candidate.id).join(', ') || 'none';
  throw new RefusedError(`There is no ${app} release ${id}. Kept releases: ${kept}.`);
}

const prune = (context: ReleaseContext, app: AppName, keep: number): Promise<ReleaseRecord[]> =>
  pruneReleases(context.db, context.store, app, keep, context.actor, nowOf(context).getTime());

/**
 * The change that follows storing a build: when it is refused (the gate, or the state moved on
 * after the build was stored), the refusal says the new release is kept, and how to use it.
 */
async function keptIfRefused<T>(published: PublishedBuild | undefined, use: string, change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof RefusedError && published?.created) error.message += ` Release ${published.release.id} is kept${use}.`;
    throw error;
  }
}

export async function publish(context: ReleaseContext, app: AppName, build: ReleaseBuild, keep = context.keep): Promise<PublishResult> {
  // A stale expectation stores nothing.
  await loadExpected(context, app);
  const published = await createFromBuild(context, app, build);
  const { release } = published;
  const alreadyCurrent = await keptIfRefused(published, `: make it current later with --promote ${release.id}`, async () => {
    const state = await loadExpected(context, app);
    if (state.current?.id === release.id) return true;
    await makeCurrent(context, app, release, state, [...state.history, release.id], [event(release.id, 'published', `published from ${build.source} and made current`)]);
    return false;
  });
  return { kind: 'publish', app, build: published, alreadyCurrent, pruned: alreadyCurrent ? [] : await prune(context, app, keep) };
}

export async function promote(context: ReleaseContext, app: AppName, id: string): Promise<PromoteResult> {
  return promoteOn(context, app, await loadExpected(context, app), id);
}

/** Makes `id` current, decided on `state`: the one read of the command. */
async function promoteOn(context: ReleaseContext, app: AppName, state: AppReleases, id: string): Promise<PromoteResult> {
  const release = findKept(state, app, id);
  if (state.current?.id === id) return { kind: 'promote', app, release, alreadyCurrent: true, from: state.current };
  await makeCurrent(context, app, release, state, [...state.history, release.id], [event(id, 'promoted', 'promoted by hand')]);
  return { kind: 'promote', app, release, alreadyCurrent: false, from: state.current };
}

export async function rollback(context: ReleaseContext, app: AppName): Promise<RollbackResult> {
  const state = await loadExpected(context, app);
  if (state.candidate) {
    const from = state.candidate.release;
    await commit(context, app, state, { candidate: null, events: [event(from.id, 'rolled_back', 'rolled back by hand')] });
    return { kind: 'rollback', app, from, to: state.current, candidate: true };
  }
  if (!state.current || !state.previous) {
    throw new RefusedError(
      state.current
        ? `${app} has no previous release to roll back to; the current release stays ${state.current.id}.`
        : `${app} has no current release; it is served from ${appFolder(app)}/dist.`,
    );
  }
  const history = compactHistory(state.history, new Set(state.releases.map((release) => release.id)));
  await makeCurrent(context, app, state.previous, state, history.slice(0, -1), [event(state.current.id, 'rolled_back', `rolled back by hand to ${state.previous.id}`)]);
  return { kind: 'rollback', app, from: state.current, to: state.previous, candidate: false };
}

/**
 * Publishes a build without making it current (`--stage`): nobody gets it but a browser that opens
 * a preview link for it. `previewUrl` makes that link.
 */
export async function stage(context: ReleaseContext, app: AppName, build: ReleaseBuild, previewUrl: (release: string) => string, keep = context.keep): Promise<StageResult> {
  await loadExpected(context, app);
  const published = await createFromBuild(context, app, build);
  const { release } = published;
  const alreadyCurrent = await keptIfRefused(published, '', async () => {
    const state = await loadExpected(context, app);
    if (state.current?.id === release.id) return true;
    await commit(context, app, state, { events: [event(release.id, 'staged', 'published for preview only')] });
    return false;
  });
  return { kind: 'stage', app, build: published, alreadyCurrent, previewUrl: previewUrl(release.id), pruned: await prune(context, app, keep) };
}

/**
 * Stages a kept release that is not current (the console's «stage»): recorded as staged, so its
 * preview link works and pruning keeps it while links may be open.
 */
export async function stageKept(context: ReleaseContext, app: AppName, id: string, previewUrl: (release: string) => string): Promise<StageResult> {
  const state = await loadExpected(context, app);
  const release = findKept(state, app, id);
  const alreadyCurrent = state.current?.id === release.id;
  if (!alreadyCurrent) await commit(context, app, state, { events: [event(release.id, 'staged', 'staged for preview')] });
  return { kind: 'stage', app, build: { release, created: false, source: `kept release ${release.id}` }, alreadyCurrent, previewUrl: previewUrl(release.id), pruned: [] };
}

/** Candidate page views before a canary's candidate is judged, unless the command says otherwise. */
export const DEFAULT_MIN_VIEWS = 100;

/** How a canary's candidate is exposed and judged (`--canary <percent>` and its options). */
export interface CanaryOptions {
  /** A build to publish as the candidate; else `id`, a kept release. */
  build?: ReleaseBuild;
  id?: string;
  share: number;
  minViews: number;
  promoteAfter: number | null;
  keep?: number;
}

/**
 * A canary's rules in words: the reason stored with its `canary` event (part of the releases'
 * record, not only of what is printed), hence made here. The command line's confirmation reuses
 * it, so both say the same.
 */
export function describeCanary(candidate: Pick<Candidate, 'share' | 'minViews' | 'promoteAfter'>): string {
  const promotion = candidate.promoteAfter === null ? 'promoted by hand' : `promoted after ${candidate.promoteAfter} healthy page views`;
  return `${candidate.share} % of visitors, judged after ${candidate.minViews} page views, ${promotion}`;
}

/**
 * Makes a release the candidate a share of visitors gets (published from a build, or a kept
 * release). Setting the same candidate again changes its share and rules; another candidate
 * while one runs is refused. The compatibility gate applies as to a current release.
 */
export async function canary(context: ReleaseContext, app: AppName, options: CanaryOptions): Promise<CanaryResult> {
  if (options.build) await loadExpected(context, app);
  const published = options.build ? await createFromBuild(context, app, options.build) : undefined;
  const { state, candidate } = await keptIfRefused(published, '', async () => {
    const state = await loadExpected(context, app);
    const release = published?.release ?? findKept(state, app, options.id ?? '');
    if (state.current?.id === release.id) throw new RefusedError(`${release.id} is the current ${app} release: every visitor gets it already.`);
    if (state.candidate && state.candidate.id !== release.id) {
      throw new RefusedError(`${app} release ${state.candidate.id} is the candidate now: promote it (--promote) or drop it (--abort) first.`);
    }
    const verdict = await checkCompatibility(context, { app, release: release.id });
    if (verdict.refusal) throw new RefusedError(verdict.refusal);
    const rules = { share: options.share, minViews: options.minViews, promoteAfter: options.promoteAfter };
    const candidate: Candidate = { id: release.id, ...rules, since: state.candidate?.since ?? nowOf(context).toISOString() };
    await commit(context, app, state, { candidate, events: [event(release.id, 'canary', describeCanary(rules))], reliesOn: verdict.reliesOn });
    return { state, candidate };
  });
  return { kind: 'canary', app, build: published, candidate, current: state.current, pruned: await prune(context, app, options.keep ?? context.keep) };
}

/** `--promote` with no id: the candidate becomes current for every visitor. */
export async function promoteCandidate(context: ReleaseContext, app: AppName): Promise<PromoteResult> {
  // One read decides which release and is the state the commit checks: a candidate dropped after
  // it is read is never made current.
  const state = await loadExpected(context, app);
  if (!state.candidate) throw new RefusedError(`${app} has no candidate to promote: name a release (--promote <id>) or start a canary (--canary <percent>).`);
  return promoteOn(context, app, state, state.candidate.id);
}

/** `--abort`: the candidate is dropped; every visitor gets the current release again. */
export async function abort(context: ReleaseContext, app: AppName): Promise<AbortResult> {
  const state = await loadExpected(context, app);
  if (!state.candidate) throw new RefusedError(`${app} has no candidate to drop.`);
  await commit(context, app, state, { candidate: null, events: [event(state.candidate.id, 'aborted', 'dropped by hand')] });
  return { kind: 'abort', app, dropped: state.candidate, current: state.current };
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
  const state = await loadAppReleases(context.db, app);
  if (state.candidate?.id !== id) return undefined;
  // One time for the decision returned (and sent to the ops webhook) and the event recorded.
  const at = nowOf(context);
  const decidedAt: ReleaseContext = { ...context, now: () => at };
  const decided = (what: CandidateDecision['action'], why: string): CandidateDecision => ({ at: at.toISOString(), release: id, action: what, reason: why, actor: context.actor });
  if (action === 'promoted') {
    const promoted = decided('promoted', reason);
    try {
      await makeCurrent(decidedAt, app, state.candidate.release, state, [...state.history, id], [promoted]);
      return promoted;
    } catch (error) {
      if (!(error instanceof RefusedError) || error.constructor !== RefusedError) throw error;
      reason = error.message;
    }
  }
  const rolledBack = decided('rolled_back', reason);
  await commit(decidedAt, app, state, { candidate: null, events: [rolledBack] });
  return rolledBack;
}

/** What each kept release of an app is to visitors (`list`, and the console's «Релізи»), newest first. */
export function listedReleases({ releases, current, previous, candidate, events, state }: AppReleases): ListedRelease[] {
  const staged = new Set(events.filter((entry) => entry.action === 'staged').map((entry) => entry.release));
  // One role per release, the first that applies: a candidate is never current (loadAppReleases).
  return releases.map((release): ListedRelease => {
    if (release === current) return { release, role: 'current' };
    if (release === candidate?.release) return { release, role: 'candidate', share: candidate.share };
    if (release === previous) return { release, role: 'previous' };
    // Once made current it is an ordinary release, whatever it started as.
    if (staged.has(release.id) && !state.history.includes(release.id)) return { release, role: 'staged' };
    return { release };
  });
}

export async function list(context: ReleaseContext, app: AppName): Promise<ListResult> {
  const loaded = await loadAppReleases(context.db, app);
  return { kind: 'list', app, store: context.store.location, releases: listedReleases(loaded), current: loaded.current, revision: loaded.state.revision };
}
