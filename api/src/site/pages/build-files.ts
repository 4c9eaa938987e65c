import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/** Names of the build's files (shared/webpack/server-files.js, which the build writes them with). */
export const BUILD_FILES = createRequire(__filename)('@agency/shared/webpack/server-files.js') as {
  SERVER_DIR: string;
  SERVER_BUNDLE_FILE: string;
  PAGE_ASSETS_FILE: string;
  MANIFEST_FILE: string;
  SERVER_ASSET_BASE: string;
};

const requireModule = createRequire(__filename);

interface Cached<T> {
  mtimeMs: number;
  value: T;
}
/** Parsed JSON and text of build files. */
const fileCache = new Map<string, Cached<unknown>>();
const bundleCache = new Map<string, Cached<unknown>>();

async function mtime(file: string): Promise<number | undefined> {
  return fs.stat(file).then(
    (stats) => (stats.isFile() ? stats.mtimeMs : undefined),
    () => undefined,
  );
}

/**
 * A file of a build, parsed once per version: a release never changes, and a dist folder rebuilt in
 * place shows a new modification time. Undefined when the file is missing.
 */
async function cachedByMtime<T>(cache: Map<string, Cached<unknown>>, file: string, load: () => Promise<T> | T): Promise<T | undefined> {
  const mtimeMs = await mtime(file);
  if (mtimeMs === undefined) return undefined;
  const cached = cache.get(file);
  if (cached?.mtimeMs === mtimeMs) return cached.value as T;
  const value = await load();
  cache.set(file, { mtimeMs, value });
  return value;
}

export function readBuildJson<T>(dir: string, name: string): Promise<T | undefined> {
  const file = path.join(dir, name);
  return cachedByMtime(fileCache, file, async () => JSON.parse(await fs.readFile(file, 'utf8')) as T);
}

export function readBuildText(dir: string, name: string): Promise<string | undefined> {
  const file = path.join(dir, name);
  return cachedByMtime(fileCache, file, () => fs.readFile(file, 'utf8'));
}

/**
 * An app's server bundle (its own React inside), loaded from the folder the app is served from.
 * Loaded by its real path: Node caches what a path resolved to, so a folder that is a symlink
 * switched to another build (the builds volume of the container topology) would keep giving the
 * old module.
 */
export async function loadServerBundle<T>(dir: string): Promise<T | undefined> {
  const file = await fs.realpath(path.join(dir, BUILD_FILES.SERVER_BUNDLE_FILE)).catch(() => undefined);
  if (!file) return undefined;
  return cachedByMtime(bundleCache, file, () => {
    // A dist folder rebuilt in place: drop the old module so the new file is evaluated.
    delete requireModule.cache[file];
    return requireModule(file) as T;
  });
}
