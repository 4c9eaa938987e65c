import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import * as tar from 'tar-stream';
import { entryFile, type AppName } from '../releases/apps';
import { regularFiles } from '../releases/build-folder';
import { BUILD_STAMP, parseBuildStamp, type BuildStamp } from '../releases/release-id';

/**
 * A built app as CI uploads it: a gzip-compressed tarball of its `dist` folder's contents. What
 * an upload holds is checked like any other input before anything is stored: it is read into
 * memory under a size limit (the gzip stream is inflated as the tar is read, so a gzip bomb
 * stops at the limit), and refused whole at the first thing wrong with it.
 */

/** Why an upload was refused; `statusCode` is the HTTP answer it calls for. */
export class ArchiveError extends Error {
  constructor(
    readonly statusCode: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
    this.name = 'ArchiveError';
  }
}

/**
 * The content types an upload may be sent with. `application/gzip` is the registered type of a
 * gzip stream (RFC 6713) and `application/x-gzip` its older name that tools still send; a
 * tarball has no registered type of its own. Anything else (`application/octet-stream`, a
 * form, a zip) is refused, so uploading the wrong thing fails at once with a clear 415.
 */
export const RELEASE_ARCHIVE_TYPES = ['application/gzip', 'application/x-gzip'] as const;

/** A release holds a few hundred files: far more entries than this is not a dist folder. */
export const DEFAULT_MAX_FILES = 10_000;

export interface ReleaseArchive {
  /** Path relative to the dist folder (`assets/logo.svg`) → content; the build stamp excluded. */
  files: Map<string, Buffer>;
  /** The build stamp at the archive's root, when it has a readable one. */
  stamp?: BuildStamp;
}

export interface ReadOptions {
  app: AppName;
  /** Most bytes the archive may unpack to: the tar stream gunzip yields (files plus tar's headers). */
  maxUnpackedBytes: number;
  /** Most files and folders it may hold; DEFAULT_MAX_FILES by default. */
  maxFiles?: number;
}

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);
const NOT_A_TARBALL = "the release archive is not a gzip-compressed tar archive: send a .tar.gz of the app's dist folder";

/** Refuses (415) an upload whose Content-Type is none of RELEASE_ARCHIVE_TYPES (parameters ignored). */
export function checkReleaseArchiveType(contentType: string | undefined): void {
  const mediaType = contentType?.replace(/;.*$/s, '').trim().toLowerCase();
  if (mediaType && (RELEASE_ARCHIVE_TYPES as readonly string[]).includes(mediaType)) return;
  const sent = mediaType ? `not ${mediaType}` : 'with a Content-Type';
  throw new ArchiveError(415, `a release archive (a .tar.gz of the app's dist folder) must be sent as ${RELEASE_ARCHIVE_TYPES.join(' or ')}, ${sent}`);
}

/**
 * The files of an uploaded build of `app`, checked: regular files and folders only, every path
 * inside the release folder and given once, within the limits, with the app's entry file at the
 * root. Throws ArchiveError at the first problem.
 */
export async function readReleaseArchive(archive: Buffer, options: ReadOptions): Promise<ReleaseArchive> {
  if (archive.length < GZIP_MAGIC.length || !archive.subarray(0, GZIP_MAGIC.length).equals(GZIP_MAGIC)) {
    throw new ArchiveError(400, NOT_A_TARBALL);
  }
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
  const files = new Map<string, Buffer>();
  const paths = new ReleasePaths();
  let stampText: string | undefined;
  let contentBytes = 0;
  let entries = 0;

  const { extract, stop } = inflateInto(archive, options.maxUnpackedBytes);
  try {
    for await (const entry of extract) {
      const { header } = entry;
      const name = releasePath(header.name);
      if (name === '') {
        // The archive's root folder itself (`./`), as `tar -C dist .` writes it: nothing to keep.
        if (header.type === 'directory') continue;
        throw new ArchiveError(400, `the release archive's entry ${JSON.stringify(header.name)} names the release folder itself but is not a folder`);
      }
      if (++entries > maxFiles) throw new ArchiveError(413, `the release archive holds more than ${maxFiles} files and folders`);
      if (header.type === 'directory') {
        paths.addFolder(name);
        continue;
      }
      if (header.type !== 'file' && header.type !== 'contiguous-file') {
        throw new ArchiveError(400, `the release archive's entry ${JSON.stringify(header.name)} is ${entryKind(header.type)}: a release holds regular files and folders only`);
      }
      paths.addFile(name);
      // The header says how big the file is: refuse before inflating it, not after.
      contentBytes += header.size;
      if (contentBytes > options.maxUnpackedBytes) throw tooLarge(options.maxUnpackedBytes);
      const content = await readEntry(entry);
      if (name === BUILD_STAMP) stampText = content.toString('utf8');
      else files.set(name, content);
    }
  } catch (error) {
    if (error instanceof ArchiveError) throw error;
    // zlib's and tar-stream's own errors: a corrupt, truncated or non-tar stream.
    throw new ArchiveError(400, `${NOT_A_TARBALL} (${(error as Error).message})`);
  } finally {
    stop();
  }

  checkEntryFile(options.app, files);
  const stamp = stampText === undefined ? undefined : parseBuildStamp(stampText);
  return stamp ? { files, stamp } : { files };
}

/**
 * A gzip-compressed tarball of the build folder `dir`: its regular files (the build stamp
 * included) under paths relative to it. Symbolic links are not followed, so nothing outside the
 * folder ends up in it. The inverse of readReleaseArchive, for the command that uploads a dist folder.
 */
export async function packReleaseArchive(dir: string): Promise<Buffer> {
  const pack = tar.pack();
  const tarChunks: Buffer[] = [];
  pack.on('data', (chunk) => tarChunks.push(chunk as Buffer));
  const packed = new Promise<void>((resolve, reject) => {
    pack.on('end', resolve);
    pack.on('error', reject);
  });
  for (const file of await regularFiles(dir)) {
    const full = path.join(dir, ...file.split('/'));
    const [content, stat] = await Promise.all([fs.readFile(full), fs.stat(full)]);
    // Static files need no more than read permission; the mode says nothing of the build.
    await new Promise<void>((resolve, reject) =>
      pack.entry({ name: file, type: 'file', mode: 0o644, mtime: stat.mtime, size: content.length }, content, (error) => (error ? reject(error) : resolve())),
    );
  }
  pack.finalize();
  await packed;
  return promisify(zlib.gzip)(Buffer.concat(tarChunks));
}

/**
 * A tar reader fed by a gunzip of `archive`, the inflated bytes counted: past `maxBytes` the
 * reading fails (413) and inflating stops. Backpressure keeps zlib at most a chunk ahead of the
 * reader, so memory holds what was read, not what the archive could inflate to.
 */
function inflateInto(archive: Buffer, maxBytes: number): { extract: tar.Extract; stop(): void } {
  const extract = tar.extract();
  const gunzip = zlib.createGunzip();
  let inflated = 0;
  gunzip.on('data', (chunk: Buffer) => {
    inflated += chunk.length;
    if (inflated > maxBytes) {
      extract.destroy(tooLarge(maxBytes));
      gunzip.destroy();
    } else if (!extract.write(chunk)) {
      gunzip.pause();
    }
  });
  extract.on('drain', () => gunzip.resume());
  gunzip.on('end', () => extract.end(null)); // null: no last chunk to write
  gunzip.on('error', (error) => extract.destroy(error));
  gunzip.end(archive);
  return { extract, stop: () => gunzip.destroy() };
}

async function readEntry(entry: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of entry) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `a symbolic link`, `a hard link`, …: what an entry a release cannot hold is. */
function entryKind(type: string | null): string {
  switch (type) {
    case 'symlink':
      return 'a symbolic link';
    case 'link':
      return 'a hard link';
    case null:
      return 'of an unknown type';
    default:
      return `a ${type.replace('-', ' ')}`; // character device, block device, fifo
  }
}

function tooLarge(maxBytes: number): ArchiveError {
  return new ArchiveError(413, `the release archive unpacks to more than ${maxBytes.toLocaleString('en')} bytes, the most a release may hold`);
}

/**
 * The entry's path inside the release folder (`./assets/a.js` → `assets/a.js`, a folder's
 * trailing `/` dropped), refusing one that could land outside it or name a file two ways.
 */
function releasePath(name: string): string {
  const refuse = (why: string) => new ArchiveError(400, `the release archive's entry ${JSON.stringify(name)} escapes the release folder: ${why}`);
  if (name.includes('\0')) throw refuse('its path holds a NUL character');
  if (name.includes('\\')) throw refuse('its path holds a backslash');
  if (name.startsWith('/')) throw refuse('its path is absolute');
  const relative = name.replace(/^(\.\/)+/, '').replace(/\/$/, '');
  if (relative === '' || relative === '.') return '';
  const segments = relative.split('/');
  if (segments.includes('..')) throw refuse('its path goes up a folder (..)');
  if (segments.some((segment) => segment === '' || segment === '.')) throw refuse('its path has an empty or "." segment');
  return relative;
}

/** The paths an archive gave so far: each once, and none both a file and a folder. */
class ReleasePaths {
  private readonly files = new Set<string>();
  private readonly folders = new Set<string>();
  private readonly listedFolders = new Set<string>();

  addFile(name: string): void {
    if (this.files.has(name)) throw twice(name);
    if (this.folders.has(name)) throw fileAndFolder(name);
    this.addParents(name);
    this.files.add(name);
  }

  addFolder(name: string): void {
    if (this.listedFolders.has(name)) throw twice(name);
    if (this.files.has(name)) throw fileAndFolder(name);
    this.addParents(name);
    this.listedFolders.add(name);
    this.folders.add(name);
  }

  private addParents(name: string): void {
    const segments = name.split('/');
    for (let depth = 1; depth < segments.length; depth++) {
      const parent = segments.slice(0, depth).join('/');
      if (this.files.has(parent)) throw fileAndFolder(parent);
      this.folders.add(parent);
    }
  }
}

function twice(name: string): ArchiveError {
  return new ArchiveError(400, `the release archive holds ${JSON.stringify(name)} twice: each path may appear once`);
}

function fileAndFolder(name: string): ArchiveError {
  return new ArchiveError(400, `the release archive holds ${JSON.stringify(name)} both as a file and as a folder`);
}

/** A build without its entry file cannot be served; a common cause is archiving the folder instead of its contents. */
function checkEntryFile(app: AppName, files: Map<string, Buffer>): void {
  const entry = entryFile(app);
  if (files.has(entry)) return;
  const nested = [...files.keys()].filter((file) => file.endsWith(`/${entry}`)).sort((a, b) => a.split('/').length - b.split('/').length)[0];
  const hint = nested ? ` (it has ${nested}: archive the folder's contents, not the folder itself)` : '';
  throw new ArchiveError(400, `a ${app} build needs ${entry} at its root: is this the app's dist folder?${hint}`);
}
