/**
 * Overrides for one browser: a release manager points one remote of the live site at a kept
 * release, or at a build served from their own machine, for their own browser only (set from the
 * console, kept in a signed cookie, ended by the banner's exit link or with their session).
 */
import { REMOTE_NAMES, type RemoteName } from '../contracts/app-names';
import { remoteMountPath } from '../federation/remotes';

/** The cookie an override lives in (the shell's nginx template names it too): httpOnly, SameSite=Strict, only ever in the overriding browser. */
export const REMOTE_OVERRIDE_COOKIE = 'agency_override';

/** How long an override lasts at most (it ends sooner with the session that set it). */
export const REMOTE_OVERRIDE_HOURS = 12;

/** Where the banner's exit link leads: clears the override cookie, then back to the page. */
export const REMOTE_OVERRIDE_EXIT_PATH = '/override/exit';

/** Whether an override may replace `name`: a remote of the public pages (not the console, mounted under a path of its own). */
export function isOverridableRemote(name: string): name is RemoteName {
  return (REMOTE_NAMES as readonly string[]).includes(name) && remoteMountPath(name as RemoteName) === undefined;
}

/** The origin of a build served from the member's own machine on `port`. */
export function localBuildOrigin(port: number): string {
  return `http://localhost:${port}`;
}

/** The release a remotes map names for a build from the member's own machine (release health never counts it). */
export function localBuildRelease(port: number): string {
  return `localhost-${port}`;
}

/** Whether a remotes map's release is a build from someone's own machine. */
export function isLocalBuildRelease(release: string): boolean {
  return /^localhost-\d+$/.test(release);
}

/** The banner on every page of an overriding browser. */
export const REMOTE_OVERRIDE_BANNER = {
  label: 'Підміна модуля',
  release: (app: string, release: string) => `Модуль ${app} підмінено для цього браузера: реліз ${release}`,
  local: (app: string, origin: string) => `Модуль ${app} підмінено для цього браузера: збірка з ${origin}`,
  exit: 'вийти',
} as const;
