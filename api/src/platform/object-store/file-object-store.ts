import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ObjectExistsError, type ObjectStore } from './object-store';
import { isErrno, syncFolder, writeNewFileSynced } from './local-files';
import { checkObjectKey, checkPrefix, compareKeys, InvalidObjectKeyError } from './object-key';

/** Name of a file being written by `put`: never a key, and never listed. */
const PARTIAL_FILE = /^\.put-[0-9a-f]{16}\.partial$/;

function partialFileName(): string {
  return `.put-${randomBytes(8).toString('hex')}.partial`;
}

/** Artifacts as files under a folder of this machine: `<dir>/<key>`. */
export class FileObjectStore implements ObjectStore {
  readonly dir: string;
  readonly location: string;

  constructor(dir: string) {
    if (!path.isAbsolute(dir)) throw new Error(`the artifact folder must be an absolute path, not ${dir}`);
    this.dir = path.resolve(dir);
    this.location = `file:${this.dir}`;
  }

  private fileOf(key: string): string {
    checkObjectKey(key);
    if (PARTIAL_FILE.test(path.posix.basename(key))) throw new InvalidObjectKeyError(key, 'the name is reserved for files being written');
    return path.join(this.dir, ...key.split('/'));
  }

  private folderOf(prefix: string): string {
    checkPrefix(prefix);
    return path.join(this.dir, ...prefix.slice(0, -1).split('/'));
  }

  /**
   * Writes the bytes to a temporary file next to the final one, syncs it, then links it under
   * the final name: link() fails when that name exists, so an object is never replaced, and
   * readers never see a partly written file.
   */
  async put(key: string, body: Buffer): Promise<void> {
    const file = this.fileOf(key);
    const folder = path.dirname(file);
    await fs.mkdir(folder, { recursive: true });
    const partial = path.join(folder, partialFileName());
    try {
      await writeNewFileSynced(partial, body);
      try {
        await fs.link(partial, file);
      } catch (error) {
        if (isErrno(error, 'EEXIST')) throw new ObjectExistsError(key);
        throw error;
      }
    } finally {
      await fs.rm(partial, { force: true });
    }
    await syncFolder(folder);
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await fs.readFile(this.fileOf(key));
    } catch (error) {
      // No such file, a folder by that name, or a file where a folder of the path should be.
      if (isErrno(error, 'ENOENT', 'EISDIR', 'ENOTDIR')) return undefined;
      throw error;
    }
  }

  async size(key: string): Promise<number | undefined> {
    try {
      const stats = await fs.stat(this.fileOf(key));
      return stats.isFile() ? stats.size : undefined;
    } catch (error) {
      if (isErrno(error, 'ENOENT', 'ENOTDIR')) return undefined;
      throw error;
    }
  }

  async list(prefix: string): Promise<string[]> {
    const root = prefix === '' ? this.dir : this.folderOf(prefix);
    let entries;
    try {
      entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
    } catch (error) {
      if (isErrno(error, 'ENOENT', 'ENOTDIR')) return [];
      throw error;
    }
    return entries
      .filter((entry) => entry.isFile() && !PARTIAL_FILE.test(entry.name))
      .map((entry) => path.relative(this.dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
      .sort(compareKeys);
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.fileOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    const folder = this.folderOf(prefix);
    // A file by the prefix's name is the key without the `/`: not under the prefix.
    const stats = await fs.stat(folder).catch((error: unknown) => {
      if (isErrno(error, 'ENOENT', 'ENOTDIR')) return undefined;
      throw error;
    });
    if (stats?.isDirectory()) await fs.rm(folder, { recursive: true, force: true });
  }

  /** The folder of `prefix`'s objects: a local store's files are read where they are. */
  localFolder(prefix: string): string {
    return this.folderOf(prefix);
  }
}
