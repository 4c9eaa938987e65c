import fs from 'node:fs/promises';
import path from 'node:path';
import type { AppName } from './apps';
import { readState, type Candidate, type DeliveryEvent, type ReleaseState } from './state';

/** Written into every release folder; the folder itself never changes after it is published. */
export const RELEASE_FILE = 'release.json';

/** Contents of `release.json`. */
export interface ReleaseMetadata {
  id: string;
  app: AppName;
  /** The app's package.json version. */
  version: string;
  /** Git short revision, with `-dirty` when the working tree had changes. */
  revision: string;
  /** ISO time the build was made. */
  builtAt: string;
  /** ISO time the release was published. */
  publishedAt: string;
}

export interface ReleaseInfo extends ReleaseMetadata {
  /** Absolute path of the release folder. */
  dir: string;
}

/** What is published for one app: its kept releases and which one is current. */
export interface AppReleases {
  /** Kept releases, newest published first. */
  releases: ReleaseInfo[];
  /** Ids made current, oldest first (state.json). */
  history: string[];
  current: ReleaseInfo | undefined;
  /** The release a rollback returns to. */
  previous: ReleaseInfo | undefined;
  /** The canary's candidate, when one runs and its release is kept. */
  candidate: (Candidate & { release: ReleaseInfo }) | undefined;
  /** Decisions made about the app's releases, oldest first. */
  events: DeliveryEvent[];
  /** The state file as read: what a change starts from. */
  state: ReleaseState;
}

/** `<releasesDir>/<app>/`: the app's releases, state.json and lock file. */
export function appReleasesDir(releasesDir: string, app: AppName): string {
  return path.join(releasesDir, app);
}

/**
 * Whether a folder name can be a release id. Temp, trash and lock entries start with a dot, and
 * ids never contain path separators, so an id taken from a URL can be joined to a path safely.
 */
export function isReleaseId(name: string): boolean {
  return /^[0-9A-Za-z][0-9A-Za-z.+_-]*$/.test(name);
}

async function readMetadata(dir: string): Promise<ReleaseMetadata | undefined> {
  try {
    return JSON.parse(await fs.readFile(path.join(dir, RELEASE_FILE), 'utf8')) as ReleaseMetadata;
  } catch {
    // No release.json: not a (complete) release.
    return undefined;
  }
}

/**
 * The app's releases, newest published first. `known` caches metadata by id across calls:
 * a release folder never changes, so only new folders are read.
 */
export async function listReleases(
  releasesDir: string,
  app: AppName,
  known?: Map<string, ReleaseInfo>,
): Promise<ReleaseInfo[]> {
  const dir = appReleasesDir(releasesDir, app);
  let entries: string[];
  try {
    entries = await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const releases: ReleaseInfo[] = [];
  for (const id of entries.filter(isReleaseId)) {
    let info = known?.get(id);
    if (!info) {
      const releaseDir = path.join(dir, id);
      const metadata = await readMetadata(releaseDir);
      if (!metadata || metadata.id !== id) continue;
      info = { ...metadata, dir: releaseDir };
      known?.set(id, info);
    }
    releases.push(info);
  }
  return releases.sort((a, b) => b.publishedAt.localeCompare(a.publishedAt) || b.id.localeCompare(a.id));
}

/** The last history entry that still exists is current; the one before it is the previous one. */
export function resolveCurrent(state: ReleaseState, releases: readonly ReleaseInfo[]): Pick<AppReleases, 'current' | 'previous'> {
  const byId = new Map(releases.map((release) => [release.id, release]));
  const existing = state.history.filter((id) => byId.has(id));
  return { current: byId.get(existing.at(-1) ?? ''), previous: byId.get(existing.at(-2) ?? '') };
}

export async function loadAppReleases(
  releasesDir: string,
  app: AppName,
  known?: Map<string, ReleaseInfo>,
): Promise<AppReleases> {
  // State first: a release is renamed into place before state.json names it, so every id read
  // here already has its folder when the listing runs.
  const state = await readState(appReleasesDir(releasesDir, app));
  const releases = await listReleases(releasesDir, app, known);
  const { current, previous } = resolveCurrent(state, releases);
  const candidateRelease = releases.find((release) => release.id === state.candidate?.id && release !== current);
  const candidate = state.candidate && candidateRelease ? { ...state.candidate, release: candidateRelease } : undefined;
  return { releases, history: state.history, current, previous, candidate, events: state.events, state };
}
