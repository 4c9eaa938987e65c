import path from 'node:path';
import { APP_NAMES as SITE_APP_NAMES, FEDERATION_REGISTRY, HOST_NAME, REMOTE_NAMES, type RemoteName } from '@agency/shared';

/**
 * The apps a release can be published for: the shell (the host) and every remote. Names and
 * folders come from the federation registry, so adding a remote there makes it releasable.
 */
export type AppName = string;

/** The host's id (`shell`): JSON imports widen it to `string`, hence `AppName` is a checked string. */
export const SHELL: AppName = HOST_NAME;

export const APP_NAMES: readonly AppName[] = SITE_APP_NAMES;

export function isAppName(value: string): value is AppName {
  return (APP_NAMES as readonly string[]).includes(value);
}

export function isRemote(app: AppName): app is RemoteName {
  return (REMOTE_NAMES as readonly string[]).includes(app);
}

/** The app's workspace folder (`shell`, `mfe-blog`, …). */
export function appFolder(app: AppName): string {
  return isRemote(app) ? FEDERATION_REGISTRY.remotes[app].folder : FEDERATION_REGISTRY.host.folder;
}

/** The app's build output under a root (the repo root, or STATIC_ROOT for what the server serves). */
export function distDir(root: string, app: AppName): string {
  return path.join(root, appFolder(app), 'dist');
}

/**
 * The file a build of the app must contain to be publishable: the page the shell answers with,
 * or the manifest the shell loads a remote from.
 */
export function entryFile(app: AppName): string {
  return isRemote(app) ? 'mf-manifest.json' : 'index.html';
}
