import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { REMOTE_NAMES, UNRELEASED, type RemoteName } from '@agency/shared';
import semver from 'semver';
import type { Db } from '../../platform/db/connection';
import type { ObjectStore } from '../../platform/object-store/object-store';
import { distDir, SHELL, type AppName } from './apps';
import type { ReleaseChange } from './release-change';
import { loadAppReleases } from './release-repository';

/** One entry of `shared` in an mf-manifest.json. */
interface SharedEntry {
  name: string;
  version?: string;
  requiredVersion?: string | false;
}

/** A build of an app the gate compares: a stored release, or the dist folder when the app has none. */
export interface AppBuild {
  app: AppName;
  /** The release id, or UNRELEASED for the dist folder. */
  release: string;
}

export interface GateContext {
  db: Db;
  store: ObjectStore;
  /** Where unreleased apps' dist folders are (what the server serves). */
  staticRoot: string;
  /** Remotes loaded from elsewhere: this server does not know their builds. */
  remoteUrls: Partial<Record<RemoteName, string>>;
}

let singletonPackages: Set<string> | undefined;

/**
 * Package names of the shared singletons, from the list the webpack builds use (its subpath keys
 * such as `react/` name the same package).
 */
function singletons(): Set<string> {
  if (!singletonPackages) {
    const load = createRequire(__filename);
    const { SINGLETONS } = load('@agency/shared/webpack/shared-dependencies.js') as { SINGLETONS: string[] };
    singletonPackages = new Set(SINGLETONS.map((key) => key.replace(/\/$/, '')));
  }
  return singletonPackages;
}

/** `react-dom/client` → `react-dom`, `@scope/pkg/sub` → `@scope/pkg`. */
export function packageName(name: string): string {
  const parts = name.split('/');
  return (name.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

const MANIFEST = 'mf-manifest.json';

/** The manifest's text: from the store for a release, from the dist folder otherwise; undefined without one. */
async function readManifest(context: GateContext, build: AppBuild): Promise<string | undefined> {
  if (build.release !== UNRELEASED) return (await context.store.get(`${build.app}/${build.release}/${MANIFEST}`))?.toString('utf8');
  try {
    return await fs.readFile(path.join(distDir(context.staticRoot, build.app), MANIFEST), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The `shared` list of a build's manifest, or undefined when the build has no manifest. */
async function readShared(context: GateContext, build: AppBuild): Promise<SharedEntry[] | undefined> {
  const text = await readManifest(context, build);
  if (text === undefined) return undefined;
  try {
    const manifest = JSON.parse(text) as { shared?: SharedEntry[] };
    return Array.isArray(manifest.shared) ? manifest.shared : [];
  } catch (error) {
    throw new Error(`Cannot read the ${MANIFEST} of ${build.app} release ${build.release}: ${(error as Error).message}`);
  }
}

/** Singleton package → the version a shell provides (the package's own entry wins over a subpath's). */
function provided(entries: readonly SharedEntry[]): Map<string, string> {
  const versions = new Map<string, string>();
  for (const entry of entries) {
    const pkg = packageName(entry.name);
    if (!singletons().has(pkg) || !entry.version) continue;
    if (!versions.has(pkg) || entry.name === pkg) versions.set(pkg, entry.version);
  }
  return versions;
}

interface Conflict {
  pkg: string;
  required: string;
  provided: string;
}

/** The first singleton a remote requires in a range the shell's version does not satisfy. */
function conflict(remote: readonly SharedEntry[], shell: readonly SharedEntry[]): Conflict | undefined {
  const versions = provided(shell);
  for (const entry of remote) {
    const pkg = packageName(entry.name);
    const required = entry.requiredVersion;
    const version = versions.get(pkg);
    // No range (`false`), or a package the shell does not provide: no constraint.
    if (!singletons().has(pkg) || typeof required !== 'string' || !required || version === undefined) continue;
    if (!semver.satisfies(version, required)) return { pkg, required, provided: version };
  }
  return undefined;
}

/** An app's build a visitor may get now: the current one, or the canary's candidate. */
interface LiveBuild extends AppBuild {
  role: 'current' | 'candidate';
}

/**
 * The builds of an app that visitors may get now: its current release (else its dist folder),
 * and its canary's candidate when one runs.
 */
async function liveBuilds(context: GateContext, app: AppName, read: Reliance[]): Promise<LiveBuild[]> {
  const { current, candidate } = await loadAppReleases(context.db, app);
  read.push({ app, current: current?.id, candidate: candidate?.id });
  const builds: LiveBuild[] = [{ app, release: current?.id ?? UNRELEASED, role: 'current' }];
  if (candidate) builds.push({ app, release: candidate.id, role: 'candidate' });
  return builds;
}

/** What of other apps the gate read: a change it allowed stands only while that still holds. */
type Reliance = NonNullable<ReleaseChange['reliesOn']>[number];

/** The gate's verdict: why not (undefined: allowed), and what it read of other apps to decide. */
export interface GateVerdict {
  refusal: string | undefined;
  reliesOn: Reliance[];
}

/**
 * Why `candidate` must not become current (or the canary's candidate), or undefined when it may.
 * A remote must accept the singletons every shell visitors may get provides (the current one and a
 * canary's candidate); a shell must provide singletons every such build of each remote accepts
 * (remotes on other origins excepted: their builds are not known here).
 */
export async function checkCompatibility(context: GateContext, candidate: AppBuild): Promise<GateVerdict> {
  const { current } = await loadAppReleases(context.db, candidate.app);
  const stays = `The current ${candidate.app} release stays ${current?.id ?? UNRELEASED}.`;
  const candidateShared = (await readShared(context, candidate)) ?? [];
  const reliesOn: Reliance[] = [];
  if (candidate.app !== SHELL) {
    for (const shell of await liveBuilds(context, SHELL, reliesOn)) {
      const found = conflict(candidateShared, (await readShared(context, shell)) ?? []);
      if (!found) continue;
      return {
        reliesOn,
        refusal:
          `Refused: ${candidate.app} release ${candidate.release} needs ${found.pkg} ${found.required}, ` +
          `but the ${shell.role} shell (release ${shell.release}) provides ${found.pkg} ${found.provided}. ${stays}`,
      };
    }
    return { reliesOn, refusal: undefined };
  }
  for (const name of REMOTE_NAMES) {
    if (context.remoteUrls[name]) continue;
    for (const remote of await liveBuilds(context, name, reliesOn)) {
      const found = conflict((await readShared(context, remote)) ?? [], candidateShared);
      if (!found) continue;
      return {
        reliesOn,
        refusal:
          `Refused: shell release ${candidate.release} provides ${found.pkg} ${found.provided}, ` +
          `but the ${remote.role} ${name} (release ${remote.release}) needs ${found.pkg} ${found.required}. ${stays}`,
      };
    }
  }
  return { reliesOn, refusal: undefined };
}
