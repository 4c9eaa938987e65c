import fs from 'node:fs';
import path from 'node:path';
import { PREVIEW_TOKEN_HOURS } from '@agency/shared';
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

/** Lines to print. */
export type Output = string[];

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

function event(context: ReleaseContext, release: string, action: DeliveryAction, reason: string): DeliveryEvent {
  return { at: nowOf(context).toISOString(), release, action, reason };
}

/** Copies a build into a release of its own (or finds the one that holds it): the lock is held. */
async function createFromDist(context: ReleaseContext, app: AppName, dist: string) {
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
  const line = created ? `Published ${app} release ${release.id} from ${dist}` : `${app} release ${release.id} already holds this build`;
  return { release, created, line };
}

function findKept(state: AppReleases, app: AppName, id: string): ReleaseInfo {
  const release = state.releases.find((candidate) => candidate.id === id);
  if (release) return release;
  const kept = state.releases.map((candidate) => candidate.id).join(', ') || 'none';
  throw new RefusedError(`There is no ${app} release ${id}. Kept releases: ${kept}.`);
}

async function prune(context: ReleaseContext, app: AppName, keep: number): Promise<Output> {
  const removed = await pruneReleases(context.releasesDir, app, keep, nowOf(context).getTime());
  return removed.length ? [`Removed ${removed.length} old ${app} release(s): ${removed.map((release) => release.id).join(', ')}`] : [];
}

export async function publish(context: ReleaseContext, app: AppName, dist: string, keep = context.keep): Promise<Output> {
  // The copy is made under the lock too: removeLeftovers may then treat every temp folder as a
  // crashed command's.
  return withLock(context.releasesDir, `publish ${app}`, async () => {
    const { release, created, line } = await createFromDist(context, app, dist);
    const output = [line];
    const state = await loadAppReleases(context.releasesDir, app);
    if (state.current?.id === release.id) return [...output, `${release.id} is already the current ${app} release`];
    try {
      await makeCurrent(context, app, release, state.state, [...state.history, release.id]);
    } catch (error) {
      if (error instanceof RefusedError && created) {
        error.message += ` Release ${release.id} is kept: make it current later with --promote ${release.id}.`;
      }
      throw error;
    }
    return [...output, `${app} release ${release.id} is now current`, ...(await prune(context, app, keep))];
  });
}

export async function promote(context: ReleaseContext, app: AppName, id: string): Promise<Output> {
  return withLock(context.releasesDir, `promote ${app} ${id}`, async () => {
    const state = await loadAppReleases(context.releasesDir, app);
    const release = findKept(state, app, id);
    if (state.current?.id === id) return [`${id} is already the current ${app} release`];
    const promoted = state.candidate?.id === id ? withEvent(state.state, event(context, id, 'promoted', 'promoted by hand')) : state.state;
    await makeCurrent(context, app, release, promoted, [...state.history, release.id]);
    return [`${app} release ${id} is now current (was ${state.current?.id ?? 'dist'})`];
  });
}

export async function rollback(context: ReleaseContext, app: AppName): Promise<Output> {
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
    return [`Rolled back ${app}: release ${state.previous.id} is now current (was ${state.current.id})`];
  });
}

/**
 * Publishes a build without making it current (`--stage`): nobody gets it but a browser that opens
 * a preview link for it. `previewUrl` makes that link.
 */
export async function stage(context: ReleaseContext, app: AppName, dist: string, previewUrl: (release: string) => string, keep = context.keep): Promise<Output> {
  return withLock(context.releasesDir, `stage ${app}`, async () => {
    const { release, line } = await createFromDist(context, app, dist);
    const state = await loadAppReleases(context.releasesDir, app);
    if (state.current?.id !== release.id) {
      await writeState(appReleasesDir(context.releasesDir, app), withEvent(state.state, event(context, release.id, 'staged', 'published for preview only')));
    }
    return [
      line,
      state.current?.id === release.id ? `${release.id} is the current ${app} release: every visitor gets it already` : `${app} release ${release.id} is staged: no visitor gets it`,
      `Preview it in one browser (valid ${PREVIEW_TOKEN_HOURS} h): ${previewUrl(release.id)}`,
      ...(await prune(context, app, keep)),
    ];
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

export function describeCanary(candidate: Pick<Candidate, 'share' | 'minViews' | 'promoteAfter'>): string {
  const promotion = candidate.promoteAfter === null ? 'promoted by hand' : `promoted after ${candidate.promoteAfter} healthy page views`;
  return `${candidate.share} % of visitors, judged after ${candidate.minViews} page views, ${promotion}`;
}

/**
 * Makes a release the candidate a share of visitors gets (published from `dist`, or a kept
 * release). Setting the same candidate again changes its share and rules; another candidate
 * while one runs is refused. The compatibility gate applies as to a current release.
 */
export async function canary(context: ReleaseContext, app: AppName, options: CanaryOptions): Promise<Output> {
  return withLock(context.releasesDir, `canary ${app}`, async () => {
    const output: Output = [];
    let release: ReleaseInfo;
    let created = false;
    if (options.dist) {
      const made = await createFromDist(context, app, options.dist);
      ({ release, created } = made);
      output.push(made.line);
    } else release = findKept(await loadAppReleases(context.releasesDir, app), app, options.id ?? '');
    const state = await loadAppReleases(context.releasesDir, app);
    if (state.current?.id === release.id) throw new RefusedError(`${release.id} is the current ${app} release: every visitor gets it already.`);
    if (state.candidate && state.candidate.id !== release.id) {
      throw new RefusedError(`${app} release ${state.candidate.id} is the candidate now: promote it (--promote) or drop it (--abort) first.`);
    }
    const reason = await refusal(context, { app, release: release.id, dir: release.dir });
    if (reason) throw new RefusedError(created ? `${reason} Release ${release.id} is kept.` : reason);
    const rules = { share: options.share, minViews: options.minViews, promoteAfter: options.promoteAfter };
    const candidate: Candidate = { id: release.id, ...rules, since: state.candidate?.since ?? nowOf(context).toISOString() };
    await writeState(appReleasesDir(context.releasesDir, app), withEvent({ ...state.state, candidate }, event(context, release.id, 'canary', describeCanary(rules))));
    output.push(`${app} release ${release.id} is the candidate for ${describeCanary(rules)}; the others get ${state.current?.id ?? 'dist'}`);
    return [...output, ...(await prune(context, app, options.keep ?? context.keep))];
  });
}

/** `--promote` with no id: the candidate becomes current for every visitor. */
export async function promoteCandidate(context: ReleaseContext, app: AppName): Promise<Output> {
  const { candidate } = await loadAppReleases(context.releasesDir, app);
  if (!candidate) throw new RefusedError(`${app} has no candidate to promote: name a release (--promote <id>) or start a canary (--canary <percent>).`);
  return promote(context, app, candidate.id);
}

/** `--abort`: the candidate is dropped; every visitor gets the current release again. */
export async function abort(context: ReleaseContext, app: AppName): Promise<Output> {
  return withLock(context.releasesDir, `abort ${app}`, async () => {
    const state = await loadAppReleases(context.releasesDir, app);
    if (!state.candidate) throw new RefusedError(`${app} has no candidate to drop.`);
    const dropped = { ...state.state, candidate: undefined };
    await writeState(appReleasesDir(context.releasesDir, app), withEvent(dropped, event(context, state.candidate.id, 'aborted', 'dropped by hand')));
    return [`Dropped ${app} candidate ${state.candidate.id}: every visitor gets ${state.current?.id ?? 'dist'}`];
  });
}

/**
 * A decision release health made about the candidate `id`: promote it or roll it back. Nothing
 * changes (undefined) when `id` is no longer the candidate: a person or another process decided
 * first. A promotion the compatibility gate refuses rolls the candidate back instead.
 */
export async function decideCandidate(
  context: ReleaseContext,
  app: AppName,
  id: string,
  action: 'promoted' | 'rolled_back',
  reason: string,
): Promise<DeliveryEvent | undefined> {
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

export async function list(context: ReleaseContext, app: AppName): Promise<Output> {
  const { releases, current, previous, candidate, events, state } = await loadAppReleases(context.releasesDir, app);
  const staged = new Set(events.filter((entry) => entry.action === 'staged').map((entry) => entry.release));
  if (releases.length === 0) return [`No ${app} releases in ${appReleasesDir(context.releasesDir, app)}: ${app} is served from ${appFolder(app)}/dist.`];
  const width = Math.max(...releases.map((release) => release.id.length), 'RELEASE'.length);
  const row = (mark: string, id: string, builtAt: string, revision: string, publishedAt: string, note: string) =>
    `${mark} ${id.padEnd(width)}  ${builtAt.padEnd(24)}  ${revision.padEnd(14)}  ${publishedAt.padEnd(24)}  ${note}`.trimEnd();
  return [
    `${app} releases, newest first (* = current):`,
    row(' ', 'RELEASE', 'BUILT', 'REVISION', 'PUBLISHED', ''),
    ...releases.map((release) =>
      row(
        release === current ? '*' : ' ',
        release.id,
        release.builtAt,
        release.revision,
        release.publishedAt,
        release === current
          ? 'current'
          : release === candidate?.release
            ? `candidate, ${candidate.share} % of visitors`
            : release === previous
              ? 'previous (--rollback)'
              : staged.has(release.id) && !state.history.includes(release.id)
                ? 'staged (preview only)'
                : '',
      ),
    ),
    ...(current ? [] : [`None is current: ${app} is served from ${appFolder(app)}/dist.`]),
  ];
}
