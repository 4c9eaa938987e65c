import fs from 'node:fs';
import path from 'node:path';
import { appFolder, type AppName } from './apps';
import { refusal, type GateContext } from './compat';
import { compactHistory, pruneReleases, removeLeftovers } from './prune';
import { createRelease } from './publish';
import { buildVersion, filesTime, gitRevision, readBuildStamp } from './release-id';
import { withLock } from './lock';
import { writeState } from './state';
import { appReleasesDir, loadAppReleases, type ReleaseInfo } from './store';

/**
 * What `npm run release` does: publish, list, roll back, promote. Every command that changes
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
async function makeCurrent(context: ReleaseContext, app: AppName, release: ReleaseInfo, history: string[]): Promise<void> {
  const reason = await refusal(context, { app, release: release.id, dir: release.dir });
  if (reason) throw new RefusedError(reason);
  await writeState(appReleasesDir(context.releasesDir, app), { history });
}

async function prune(context: ReleaseContext, app: AppName, keep: number): Promise<Output> {
  const removed = await pruneReleases(context.releasesDir, app, keep);
  return removed.length ? [`Removed ${removed.length} old ${app} release(s): ${removed.map((release) => release.id).join(', ')}`] : [];
}

export async function publish(context: ReleaseContext, app: AppName, dist: string, keep = context.keep): Promise<Output> {
  const appDir = appReleasesDir(context.releasesDir, app);
  // The copy is made under the lock too: removeLeftovers may then treat every temp folder as a
  // crashed command's.
  return withLock(context.releasesDir, `publish ${app}`, async () => {
    await removeLeftovers(appDir);
    const stamp = readBuildStamp(dist);
    const { release, created } = await createRelease(context.releasesDir, {
      app,
      dist,
      // What the build says it is (a CI artifact is not the checkout), else the checkout.
      version: buildVersion(dist) ?? checkoutVersion(context, app),
      revision: stamp?.revision ?? gitRevision(context.repoRoot),
      builtAt: stamp?.builtAt ?? filesTime(dist),
      publishedAt: (context.now ?? (() => new Date()))(),
    });
    const output = [created ? `Published ${app} release ${release.id} from ${dist}` : `${app} release ${release.id} already holds this build`];
    const state = await loadAppReleases(context.releasesDir, app);
    if (state.current?.id === release.id) return [...output, `${release.id} is already the current ${app} release`];
    try {
      await makeCurrent(context, app, release, [...state.history, release.id]);
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
    const release = state.releases.find((candidate) => candidate.id === id);
    if (!release) {
      const kept = state.releases.map((candidate) => candidate.id).join(', ') || 'none';
      throw new RefusedError(`There is no ${app} release ${id}. Kept releases: ${kept}.`);
    }
    if (state.current?.id === id) return [`${id} is already the current ${app} release`];
    await makeCurrent(context, app, release, [...state.history, release.id]);
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
    await makeCurrent(context, app, state.previous, history.slice(0, -1));
    return [`Rolled back ${app}: release ${state.previous.id} is now current (was ${state.current.id})`];
  });
}

export async function list(context: ReleaseContext, app: AppName): Promise<Output> {
  const { releases, current, previous } = await loadAppReleases(context.releasesDir, app);
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
        release === current ? 'current' : release === previous ? 'previous (--rollback)' : '',
      ),
    ),
    ...(current ? [] : [`None is current: ${app} is served from ${appFolder(app)}/dist.`]),
  ];
}
