import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { REMOTE_NAMES, UNRELEASED, type RemoteName } from '@agency/shared';
import semver from 'semver';
import { distDir, SHELL, type AppName } from './apps';
import { loadAppReleases } from './store';

/** One entry of `shared` in an mf-manifest.json. */
interface SharedEntry {
  name: string;
  version?: string;
  requiredVersion?: string | false;
}

/** A build of an app the gate compares: a release, or the dist folder when the app has none. */
export interface AppBuild {
  app: AppName;
  /** The release id, or `dist`. */
  release: string;
  dir: string;
}

export interface GateContext {
  releasesDir: string;
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

/** The `shared` list of a build's manifest, or undefined when the build has no manifest. */
async function readShared(dir: string): Promise<SharedEntry[] | undefined> {
  try {
    const manifest = JSON.parse(await fs.readFile(path.join(dir, 'mf-manifest.json'), 'utf8')) as { shared?: SharedEntry[] };
    return Array.isArray(manifest.shared) ? manifest.shared : [];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`Cannot read ${path.join(dir, 'mf-manifest.json')}: ${(error as Error).message}`);
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
async function liveBuilds(context: GateContext, app: AppName): Promise<LiveBuild[]> {
  const { current, candidate } = await loadAppReleases(context.releasesDir, app);
  const builds: LiveBuild[] = [
    current ? { app, release: current.id, dir: current.dir, role: 'current' } : { app, release: UNRELEASED, dir: distDir(context.staticRoot, app), role: 'current' },
  ];
  if (candidate) builds.push({ app, release: candidate.id, dir: candidate.release.dir, role: 'candidate' });
  return builds;
}

/** The build of an app that is live now: its current release, else its dist folder. */
export async function currentBuild(context: GateContext, app: AppName): Promise<AppBuild> {
  const [current] = await liveBuilds(context, app);
  return current!;
}

/**
 * Why `candidate` must not become current (or the canary's candidate), or undefined when it may.
 * A remote must accept the singletons every shell visitors may get provides (the current one and a
 * canary's candidate); a shell must provide singletons every such build of each remote accepts
 * (remotes on other origins excepted: their builds are not known here).
 */
export async function refusal(context: GateContext, candidate: AppBuild): Promise<string | undefined> {
  const live = await currentBuild(context, candidate.app);
  const stays = `The current ${candidate.app} release stays ${live.release}.`;
  const candidateShared = (await readShared(candidate.dir)) ?? [];
  if (candidate.app !== SHELL) {
    for (const shell of await liveBuilds(context, SHELL)) {
      const found = conflict(candidateShared, (await readShared(shell.dir)) ?? []);
      if (!found) continue;
      return (
        `Refused: ${candidate.app} release ${candidate.release} needs ${found.pkg} ${found.required}, ` +
        `but the ${shell.role} shell (release ${shell.release}) provides ${found.pkg} ${found.provided}. ${stays}`
      );
    }
    return undefined;
  }
  for (const name of REMOTE_NAMES) {
    if (context.remoteUrls[name]) continue;
    for (const remote of await liveBuilds(context, name)) {
      const found = conflict((await readShared(remote.dir)) ?? [], candidateShared);
      if (!found) continue;
      return (
        `Refused: shell release ${candidate.release} provides ${found.pkg} ${found.provided}, ` +
        `but the ${remote.role} ${name} (release ${remote.release}) needs ${found.pkg} ${found.required}. ${stays}`
      );
    }
  }
  return undefined;
}
