import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ObjectExistsError, type ObjectStore } from '../../platform/object-store/object-store';
import { forEachLimited } from './for-each-limited';
import { isErrno, syncFolder, writeNewFileSynced } from '../../platform/object-store/local-files';
import { checkKeySegment, checkObjectKey, compareKeys, keyProblem } from '../../platform/object-store/object-key';

/**
 * The object listing a stored release's files. It is written last, so a release whose manifest
 * is in the store has every file stored and checked: its presence is what "stored" means.
 */
export const RELEASE_MANIFEST = 'release-manifest.json';

export interface ReleaseFileEntry {
  /** Path inside the release, `/`-separated (`remoteEntry.js`, `server/main.js`). */
  path: string;
  size: number;
  /** Hex SHA-256 of the file's bytes. */
  sha256: string;
}

export interface ReleaseManifest {
  app: string;
  id: string;
  /** Sorted by path. */
  files: ReleaseFileEntry[];
}

export interface StoredRelease {
  /** contentDigest of the files. */
  digest: string;
  fileCount: number;
  totalBytes: number;
}

/** How many objects are sent to or fetched from the store at once. */
const TRANSFER_CONCURRENCY = 8;

/**
 * Names of the cache's folders being downloaded or deleted start with this: release ids never do
 * (see checkRelease), so such a folder is never taken for a release.
 */
const PARTIAL_PREFIX = '.partial-';

/** A partial folder this old belongs to a process that died: keepOnly removes it. */
const ABANDONED_PARTIAL_MS = 60 * 60 * 1000;

export class ReleaseNotInStoreError extends Error {
  constructor(
    readonly app: string,
    readonly id: string,
    readonly location: string,
  ) {
    super(`${app} release ${id} is not in the store ${location}`);
  }
}

function sha256(body: Buffer): string {
  return createHash('sha256').update(body).digest('hex');
}

/** `<app>/<id>/`: the folder of keys a release's files live under. */
export function releasePrefix(app: string, id: string): string {
  checkRelease(app, id);
  return `${app}/${id}/`;
}

/** App name and release id are single key segments; neither starts with `.` (kept for the cache's own names). */
function checkRelease(app: string, id: string): void {
  checkKeySegment(app, 'an app name');
  checkKeySegment(id, 'a release id');
  if (app.startsWith('.') || id.startsWith('.')) throw new Error(`app names and release ids do not start with ".": ${app} release ${id}`);
}

/**
 * SHA-256 over every `path\0content\0`, sorted by path: the same files give the same digest,
 * whatever order they come in.
 */
export function contentDigest(files: ReadonlyMap<string, Buffer>): string {
  const hash = createHash('sha256');
  for (const filePath of [...files.keys()].sort(compareKeys)) {
    hash.update(filePath, 'utf8').update('\0').update(files.get(filePath) as Buffer).update('\0');
  }
  return hash.digest('hex');
}

/** Throws unless every path is a key, none is the manifest, and none is also another's folder. */
function checkReleasePaths(paths: readonly string[]): void {
  if (paths.length === 0) throw new Error('a release has at least one file');
  const folders = new Set<string>();
  for (const filePath of paths) {
    checkObjectKey(filePath);
    if (filePath === RELEASE_MANIFEST) throw new Error(`${RELEASE_MANIFEST} is the store's own file: a release cannot contain one`);
    const segments = filePath.split('/');
    for (let end = 1; end < segments.length; end++) folders.add(segments.slice(0, end).join('/'));
  }
  const clash = paths.find((filePath) => folders.has(filePath));
  if (clash !== undefined) throw new Error(`${clash} is both a file and a folder of the release`);
}

/** Throws unless `body` is the file the manifest entry describes. */
function checkAgainstEntry(body: Buffer, entry: ReleaseFileEntry, what: string): void {
  if (body.length !== entry.size) throw new Error(`${what} has ${body.length} bytes, ${entry.size} expected`);
  const digest = sha256(body);
  if (digest !== entry.sha256) throw new Error(`${what} has SHA-256 ${digest}, ${entry.sha256} expected`);
}

/** The manifest as JSON, with a check that it is one for this release. */
function parseManifest(bytes: Buffer, app: string, id: string, location: string): ReleaseManifest {
  const invalid = (reason: string) => new Error(`the manifest of ${app} release ${id} in ${location} is invalid: ${reason}`);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw invalid((error as Error).message);
  }
  const manifest = value as Partial<ReleaseManifest> | null;
  if (manifest?.app !== app || manifest.id !== id) throw invalid(`it names ${String(manifest?.app)} release ${String(manifest?.id)}`);
  if (!Array.isArray(manifest.files)) throw invalid('it has no file list');
  for (const entry of manifest.files as Partial<ReleaseFileEntry>[]) {
    // The paths become local file names in the cache: one that could leave its folder is refused.
    const problem = typeof entry?.path !== 'string' ? 'not a string' : entry.path === RELEASE_MANIFEST ? 'reserved' : keyProblem(entry.path);
    if (problem !== undefined) throw invalid(`the path ${JSON.stringify(entry?.path)} is not usable (${problem})`);
    if (!Number.isSafeInteger(entry.size) || (entry.size as number) < 0) throw invalid(`${entry.path} has no size`);
    if (typeof entry.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(entry.sha256)) throw invalid(`${entry.path} has no SHA-256`);
  }
  return { app, id, files: manifest.files };
}

function manifestBytes(manifest: ReleaseManifest): Buffer {
  return Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * Stores a release's files under `<app>/<id>/`, reads every one back to check its size and
 * SHA-256, and only then writes the manifest. A failure at any step leaves no manifest: the
 * release is not stored, and its files are inert until deleted. A file stored already (by an
 * interrupted earlier attempt) is accepted when its bytes are the same, so storing is retried
 * safely; objects are still never replaced.
 */
export async function storeReleaseFiles(store: ObjectStore, app: string, id: string, files: ReadonlyMap<string, Buffer>): Promise<StoredRelease> {
  const prefix = releasePrefix(app, id);
  const paths = [...files.keys()].sort(compareKeys);
  checkReleasePaths(paths);
  const entries: ReleaseFileEntry[] = paths.map((filePath) => {
    const body = files.get(filePath) as Buffer;
    return { path: filePath, size: body.length, sha256: sha256(body) };
  });

  await forEachLimited(entries, TRANSFER_CONCURRENCY, async ({ path: filePath }) => {
    try {
      await store.put(prefix + filePath, files.get(filePath) as Buffer);
    } catch (error) {
      // The check below compares what is stored with what should be.
      if (!(error instanceof ObjectExistsError)) throw error;
    }
  });

  await forEachLimited(entries, TRANSFER_CONCURRENCY, async (entry) => {
    const what = `${prefix}${entry.path} in ${store.location}`;
    const stored = await store.get(prefix + entry.path);
    if (stored === undefined) throw new Error(`${what} is missing after it was stored`);
    checkAgainstEntry(stored, entry, what);
  });

  const manifest = manifestBytes({ app, id, files: entries });
  try {
    await store.put(prefix + RELEASE_MANIFEST, manifest);
  } catch (error) {
    if (!(error instanceof ObjectExistsError)) throw error;
    const stored = await store.get(prefix + RELEASE_MANIFEST);
    if (stored === undefined || !stored.equals(manifest)) throw new Error(`${app} release ${id} is stored already in ${store.location}, with other files`);
  }
  return { digest: contentDigest(files), fileCount: entries.length, totalBytes: entries.reduce((sum, entry) => sum + entry.size, 0) };
}

/** The manifest's bytes and content, or undefined when the release is not (completely) stored. */
async function fetchManifest(store: ObjectStore, app: string, id: string): Promise<{ bytes: Buffer; manifest: ReleaseManifest } | undefined> {
  const bytes = await store.get(releasePrefix(app, id) + RELEASE_MANIFEST);
  return bytes === undefined ? undefined : { bytes, manifest: parseManifest(bytes, app, id, store.location) };
}

/** The release's manifest, or undefined when the store does not hold the release (completely). */
export async function readReleaseManifest(store: ObjectStore, app: string, id: string): Promise<ReleaseManifest | undefined> {
  return (await fetchManifest(store, app, id))?.manifest;
}

async function isFolder(folder: string): Promise<boolean> {
  try {
    return (await fs.stat(folder)).isDirectory();
  } catch (error) {
    if (isErrno(error, 'ENOENT', 'ENOTDIR')) return false;
    throw error;
  }
}

export interface ReleaseCacheOptions {
  store: ObjectStore;
  /** Folder of this machine the releases of a remote store are downloaded to. */
  dir: string;
}

/**
 * Releases as folders of this machine, to serve files from. A local store's release folder is
 * used in place; a remote store's release is downloaded once into `<dir>/<app>/<id>/`, checked
 * file by file against its manifest, and kept there (also across restarts) until keepOnly
 * evicts it.
 */
export class ReleaseCache {
  readonly store: ObjectStore;
  readonly dir: string;
  /** Downloads in progress, by `<app>/<id>`: a second caller waits for the first one's. */
  private readonly downloads = new Map<string, Promise<string>>();
  /** Their partial folders, which keepOnly leaves alone. */
  private readonly downloadFolders = new Set<string>();

  constructor({ store, dir }: ReleaseCacheOptions) {
    this.store = store;
    this.dir = path.resolve(dir);
  }

  /** The folder holding the release's files (and its manifest), downloaded first if need be. */
  async localDir(app: string, id: string): Promise<string> {
    const prefix = releasePrefix(app, id);
    if (this.store.localFolder) {
      if ((await this.store.size(prefix + RELEASE_MANIFEST)) === undefined) throw new ReleaseNotInStoreError(app, id, this.store.location);
      return this.store.localFolder(prefix);
    }
    const folder = path.join(this.dir, app, id);
    // A folder there was renamed into place complete and checked.
    if (await isFolder(folder)) return folder;
    const release = `${app}/${id}`;
    let download = this.downloads.get(release);
    if (download === undefined) {
      download = this.download(app, id, folder).finally(() => this.downloads.delete(release));
      this.downloads.set(release, download);
    }
    return download;
  }

  /**
   * Writes every file into a temporary folder next to the final one, checks each against the
   * manifest, and renames the folder into place: the final folder exists complete or not at all.
   */
  private async download(app: string, id: string, folder: string): Promise<string> {
    const fetched = await fetchManifest(this.store, app, id);
    if (fetched === undefined) throw new ReleaseNotInStoreError(app, id, this.store.location);
    const prefix = releasePrefix(app, id);
    const appFolder = path.dirname(folder);
    await fs.mkdir(appFolder, { recursive: true });
    const partial = await fs.mkdtemp(path.join(appFolder, `${PARTIAL_PREFIX}${id}-`));
    this.downloadFolders.add(partial);
    try {
      await forEachLimited(fetched.manifest.files, TRANSFER_CONCURRENCY, async (entry) => {
        const what = `${prefix}${entry.path} in ${this.store.location}`;
        const body = await this.store.get(prefix + entry.path);
        if (body === undefined) throw new Error(`${what} is listed in the release's manifest but missing`);
        checkAgainstEntry(body, entry, what);
        const file = path.join(partial, ...entry.path.split('/'));
        await fs.mkdir(path.dirname(file), { recursive: true });
        await writeNewFileSynced(file, body);
      });
      await writeNewFileSynced(path.join(partial, RELEASE_MANIFEST), fetched.bytes);
      try {
        await fs.rename(partial, folder);
      } catch (error) {
        // Another process sharing the cache folder has put the same release there first.
        if (!isErrno(error, 'ENOTEMPTY', 'EEXIST') || !(await isFolder(folder))) throw error;
      }
      await syncFolder(appFolder);
      return folder;
    } finally {
      await fs.rm(partial, { recursive: true, force: true });
      this.downloadFolders.delete(partial);
    }
  }

  /**
   * Deletes every cached release but the `kept` ones (`<app>/<id>`), so the cache holds no more
   * than the releases the site keeps, and the leftovers of work a dead process left unfinished.
   */
  async keepOnly(kept: ReadonlySet<string>): Promise<void> {
    for (const app of await this.subfolders(this.dir)) {
      const appFolder = path.join(this.dir, app);
      for (const name of await this.subfolders(appFolder)) {
        const folder = path.join(appFolder, name);
        if (name.startsWith(PARTIAL_PREFIX)) {
          if (!this.downloadFolders.has(folder) && (await this.isAbandoned(folder))) await fs.rm(folder, { recursive: true, force: true });
        } else if (!kept.has(`${app}/${name}`)) {
          // Renamed away first, so the release folder vanishes at once rather than file by file.
          const evicted = path.join(appFolder, `${PARTIAL_PREFIX}${name}-${randomBytes(4).toString('hex')}`);
          try {
            await fs.rename(folder, evicted);
          } catch (error) {
            // Evicted by another process sharing the cache folder meanwhile.
            if (isErrno(error, 'ENOENT')) continue;
            throw error;
          }
          await fs.rm(evicted, { recursive: true, force: true });
        }
      }
    }
  }

  private async subfolders(folder: string): Promise<string[]> {
    try {
      const entries = await fs.readdir(folder, { withFileTypes: true });
      return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    } catch (error) {
      if (isErrno(error, 'ENOENT', 'ENOTDIR')) return [];
      throw error;
    }
  }

  /** A partial folder untouched for long: another process may be working in it otherwise. */
  private async isAbandoned(folder: string): Promise<boolean> {
    try {
      return Date.now() - (await fs.stat(folder)).mtimeMs > ABANDONED_PARTIAL_MS;
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return false;
      throw error;
    }
  }
}
