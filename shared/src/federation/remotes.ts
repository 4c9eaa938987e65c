/**
 * The remotes of the site, read from `registry.json` (the one place that names them), and the
 * document the server answers `/remotes.json` with: where the shell finds each remote at run time.
 * The apps' names are in ../contracts/app-names.ts, as the telemetry contract needs them too.
 */
import { HOST_NAME, REMOTE_NAMES, type RemoteName } from '../contracts/app-names';
import registry from './registry.json';

export const FEDERATION_REGISTRY = registry;

/** Module Federation `name` of each remote's build. */
export function remoteFederationName(name: RemoteName): string {
  return registry.remotes[name].federationName;
}

/** Environment variable that overrides where a remote's manifest is loaded from. */
export function remoteUrlVariable(name: RemoteName): string {
  return registry.remotes[name].urlVariable;
}

/**
 * Where a remote is loaded, when only under one path (the staff console's `/staff`): the pages
 * elsewhere do not name it at all. Undefined for remotes any page may load.
 */
export function remoteMountPath(name: RemoteName): string | undefined {
  const remote = registry.remotes[name];
  return 'mountedAt' in remote ? remote.mountedAt : undefined;
}

/** Whether a page at `pathname` may load `name`. */
export function remoteOnPath(name: RemoteName, pathname: string): boolean {
  const mount = remoteMountPath(name);
  return mount === undefined || pathname === mount || pathname.startsWith(`${mount}/`);
}

/**
 * The remotes document a page at `pathname` carries: without the remotes it never loads, so a
 * public page's markup does not even name the staff console. `/remotes.json` names them all.
 */
export function remotesForPage(document: RemotesDocument, pathname: string): RemotesDocument {
  const remotes = Object.fromEntries(Object.entries(document.remotes).filter(([name]) => remoteOnPath(name as RemoteName, pathname)));
  return { ...document, remotes: remotes as RemotesDocument['remotes'] };
}

/** Path under which the all-in-one server serves the remotes' files. */
export const REMOTES_PATH = '/remotes/';

/** Path under which the all-in-one server serves one remote's files. */
export function remoteBasePath(name: RemoteName): string {
  return `${REMOTES_PATH}${name}/`;
}

/** Release id of an app served straight from its build folder (`<app>/dist`), with no release published. */
export const UNRELEASED = 'dist';
/** Release id of a remote loaded from a URL set in its environment variable, which this server does not manage. */
export const EXTERNAL_RELEASE = 'external';

export interface RemoteLocation {
  /** URL of the remote's `mf-manifest.json`. */
  entry: string;
  /** Release id the entry belongs to (`dist` or `external` when not a published release). */
  release: string;
}

/** Body of `/remotes.json`. */
export interface RemotesDocument {
  shell: { release: string };
  remotes: Record<RemoteName, RemoteLocation>;
}

/** The release of every app a remotes document names, by app (`{ shell: "…", blog: "…" }`). */
export function releaseSet(document: RemotesDocument): Record<string, string> {
  const releases: Record<string, string> = { [HOST_NAME]: document.shell.release };
  for (const [name, location] of Object.entries(document.remotes)) releases[name] = location.release;
  return releases;
}

/** Manifest URLs set through each remote's environment variable (blank values ignored). */
export function remoteUrlOverrides(env: Record<string, string | undefined>): Partial<Record<RemoteName, string>> {
  const overrides: Partial<Record<RemoteName, string>> = {};
  for (const name of REMOTE_NAMES) {
    const value = env[remoteUrlVariable(name)]?.trim();
    if (value) overrides[name] = value;
  }
  return overrides;
}

/** Which release of each app a visitor's page runs: what support reads from the page. */
export interface RunningReleases {
  shell: string;
  /** The release each remote is loaded from now (the newest one after a refresh). */
  remotes: Partial<Record<RemoteName, RemoteLocation>>;
}

declare global {
  interface Window {
    /** Set by the shell as it registers the remotes. */
    __AGENCY_RELEASES__?: RunningReleases;
  }
}
