import fs from 'node:fs/promises';
import path from 'node:path';
import { EXTERNAL_RELEASE, REMOTE_NAMES, UNRELEASED, type RemotesDocument } from '@agency/shared';
import { distDir, entryFile, RELEASES_REFRESH_MS, SHELL, type AppName } from '../../delivery';
import { BUILD_FILES } from './build-files';

export interface PageGenerationOptions {
  /** Where the shell and each remote are served from now (their current releases). */
  remotesDocument: () => Promise<RemotesDocument>;
  /** The content revision the API's content is served at (undefined while unknown). */
  contentRevision: () => Promise<number | undefined>;
  /** The site's public origin: in every page's canonical link and previews. */
  origin: string;
  staticRoot: string;
  remoteBuildsDir?: string;
  now?: () => number;
}

/** Everything a page is rendered from, but its address: pages of one generation are kept together. */
export interface PageGeneration {
  remotes: RemotesDocument;
  key: string;
}

interface Stamp {
  value: Promise<string>;
  /** When the folder was last looked at (or a look started). */
  lookedAt: number;
}

/**
 * What a page is made from, besides its address, as one key:
 * - the release of the shell and of every remote (the remotes document the page carries);
 * - for an app served from a build folder rather than a release (no release yet, or a remote's
 *   build another server left in REMOTE_BUILDS_DIR), that build: its folder's real path (a deploy
 *   switches a symlink) and when its server bundle and entry were written (a rebuild in place);
 * - the content revision, which every publish or content sync moves;
 * - the site's origin, and the year (the footer's copyright line).
 * Releases and content are re-read about once a second, and build folders are looked at as often
 * (in the background, so no request waits on the file system for it): a release, rollback, rebuild
 * or content change makes a new key within about a second, in every process, as each reads the
 * same files and database.
 */
export function createPageGeneration({
  remotesDocument,
  contentRevision,
  origin,
  staticRoot,
  remoteBuildsDir,
  now = Date.now,
}: PageGenerationOptions): () => Promise<PageGeneration> {
  const stamps = new Map<string, Stamp>();

  function lookAt(app: AppName, dir: string): Promise<string> {
    const written = (file: string) =>
      fs.stat(path.join(dir, file)).then(
        (stats) => stats.mtimeMs,
        () => 'none',
      );
    return Promise.all([fs.realpath(dir).catch(() => dir), written(BUILD_FILES.SERVER_BUNDLE_FILE), written(entryFile(app))]).then(
      (parts) => parts.join(':'),
    );
  }

  /** The build in `dir` as last seen; looked at again, in the background, once a second has passed. */
  function buildStamp(app: AppName, dir: string): Promise<string> {
    const kept = stamps.get(dir);
    if (!kept) {
      const value = lookAt(app, dir);
      stamps.set(dir, { value, lookedAt: now() });
      return value;
    }
    if (now() - kept.lookedAt >= RELEASES_REFRESH_MS) {
      kept.lookedAt = now();
      const next = lookAt(app, dir);
      void next.then(() => (kept.value = next));
    }
    return kept.value;
  }

  /** The build folder an app is served from, when it is not a release (whose id says it all). */
  function buildFolder(app: AppName, release: string): string | undefined {
    if (release === UNRELEASED) return distDir(staticRoot, app);
    if (release === EXTERNAL_RELEASE && remoteBuildsDir) return distDir(remoteBuildsDir, app);
    return undefined;
  }

  return async () => {
    const [remotes, revision] = await Promise.all([remotesDocument(), contentRevision()]);
    const apps: [AppName, string][] = [[SHELL, remotes.shell.release], ...REMOTE_NAMES.map((name): [AppName, string] => [name, remotes.remotes[name].release])];
    const builds = await Promise.all(
      apps.map(([app, release]) => {
        const folder = buildFolder(app, release);
        return folder ? buildStamp(app, folder) : release;
      }),
    );
    const key = JSON.stringify([origin, new Date(now()).getFullYear(), revision ?? null, remotes, builds]);
    return { remotes, key };
  };
}
