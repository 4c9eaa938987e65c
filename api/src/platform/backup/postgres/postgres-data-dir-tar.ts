import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import * as tar from 'tar-stream';
import { WAL_SPOOL_FOLDER } from '../../config/backup';

/**
 * A PostgreSQL data directory as a tar file, for a base backup taken between pg_backup_start and
 * pg_backup_stop, and back. Left out, as the PostgreSQL documentation lists for base backups
 * ("Making a Base Backup Using the Low Level API") and pg_basebackup leaves out: the contents of
 * pg_wal (archived WAL replaces it), of pg_replslot, pg_dynshmem, pg_notify, pg_serial,
 * pg_snapshots, pg_stat_tmp and pg_subtrans (rebuilt at start); postmaster.pid and
 * postmaster.opts; temporary files (pgsql_tmp*) and relation cache files (pg_internal.init*);
 * an old backup_label or tablespace_map; and what a restore of ours leaves (RESTORE_WAL_DIR).
 * The folders themselves are kept, empty, as the server expects them.
 */

/** Where a restore puts the archived WAL, inside the data directory (postgres-restore.ts). */
export const RESTORE_WAL_DIR = 'restore-wal';

/** Folders whose contents are left out; pg_wal keeps its subfolders (archive_status, summaries). */
const EMPTIED_DIRS = new Set(['pg_wal', 'pg_replslot', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_stat_tmp', 'pg_subtrans']);

const SKIPPED_TOP_FILES = new Set([
  'postmaster.pid',
  'postmaster.opts',
  'backup_label',
  'backup_label.old',
  'tablespace_map',
  'tablespace_map.old',
  'backup_manifest',
  'postgresql.auto.conf.tmp',
  'current_logfiles.tmp',
  RESTORE_WAL_DIR,
  // WAL waiting to be shipped, when the spool is inside the data directory (as in docker-compose.yml).
  WAL_SPOOL_FOLDER,
]);

/** Whether the entry at `relative` (posix path inside the data directory) goes into the backup. */
export function isBackedUp(relative: string, isDirectory: boolean): boolean {
  const parts = relative.split('/');
  const name = parts[parts.length - 1] as string;
  if (parts.length === 1 && SKIPPED_TOP_FILES.has(name)) return false;
  if (name.startsWith('pgsql_tmp') || name.startsWith('pg_internal.init')) return false;
  const top = parts[0] as string;
  if (parts.length > 1 && EMPTIED_DIRS.has(top)) return top === 'pg_wal' && isDirectory;
  return true;
}

/** The backup cannot hold what lives outside the data directory. */
export class UnsupportedDataDirError extends Error {}

const CHUNK = 1 << 20;

export interface PackedDataDir {
  files: number;
  bytes: number;
}

/**
 * Writes the data directory's entries into `pack`, one after another (files change while they are
 * read: the WAL replayed from the backup's start repairs that). A file that shrinks is padded
 * with zeros to the size announced in its header, one that grows is cut there, one that vanishes
 * is left out, as pg_basebackup does.
 */
export async function packDataDir(dataDir: string, pack: tar.Pack): Promise<PackedDataDir> {
  const tablespaces = await fsp.readdir(path.join(dataDir, 'pg_tblspc')).catch(() => []);
  if (tablespaces.length > 0) {
    throw new UnsupportedDataDirError(`the cluster has tablespaces outside its data directory (pg_tblspc: ${tablespaces.join(', ')}): these backups cover the data directory only`);
  }
  const totals: PackedDataDir = { files: 0, bytes: 0 };
  await packFolder(dataDir, '', pack, totals);
  return totals;
}

async function packFolder(dataDir: string, relative: string, pack: tar.Pack, totals: PackedDataDir): Promise<void> {
  const folder = path.join(dataDir, relative);
  const names = (await fsp.readdir(folder).catch(ignoreVanished)) ?? [];
  for (const name of names.sort()) {
    const entry = relative ? `${relative}/${name}` : name;
    const file = path.join(folder, name);
    let stats = await fsp.lstat(file).catch(ignoreVanished);
    if (!stats) continue;
    // pg_wal may be a link to another disk (initdb --waldir): its folders are backed up as folders.
    if (stats.isSymbolicLink() && entry === 'pg_wal') stats = await fsp.stat(file).catch(ignoreVanished);
    if (!stats) continue;
    if (!isBackedUp(entry, stats.isDirectory())) continue;
    if (stats.isDirectory()) {
      await addEntry(pack, { name: entry, type: 'directory', mode: stats.mode & 0o7777, mtime: stats.mtime });
      await packFolder(dataDir, entry, pack, totals);
    } else if (stats.isSymbolicLink()) {
      const target = await fsp.readlink(file).catch(ignoreVanished);
      if (target !== undefined) await addEntry(pack, { name: entry, type: 'symlink', linkname: target, mode: stats.mode & 0o7777, mtime: stats.mtime });
    } else if (stats.isFile()) {
      const bytes = await addFile(pack, entry, file);
      if (bytes !== undefined) {
        totals.files += 1;
        totals.bytes += bytes;
      }
    }
    // Sockets and other special files are the running server's, not data.
  }
}

function ignoreVanished(error: NodeJS.ErrnoException): undefined {
  if (error.code === 'ENOENT') return undefined;
  throw error;
}

function addEntry(pack: tar.Pack, header: tar.Header | (Partial<tar.Header> & { name: string }), body?: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error | null) => (error ? reject(error) : resolve());
    if (body) pack.entry(header, body, done);
    else pack.entry(header, done);
  });
}

/** Adds one file, streamed; its size in the archive, or undefined when it vanished first. */
async function addFile(pack: tar.Pack, name: string, file: string): Promise<number | undefined> {
  const handle = await fsp.open(file, 'r').catch(ignoreVanished);
  if (!handle) return undefined;
  try {
    const stats = await handle.stat();
    const size = stats.size;
    let settle!: (error?: Error | null) => void;
    const finished = new Promise<void>((resolve, reject) => (settle = (error) => (error ? reject(error) : resolve())));
    // Awaited below; meanwhile a failure must not count as unhandled.
    finished.catch(() => undefined);
    const sink = pack.entry({ name, type: 'file', size, mode: stats.mode & 0o7777, mtime: stats.mtime }, (error) => settle(error));
    let written = 0;
    while (written < size) {
      const chunk = Buffer.alloc(Math.min(CHUNK, size - written));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, written);
      // Shrunk while read: the rest is zeros, as pg_basebackup sends.
      const part = bytesRead === 0 ? chunk : chunk.subarray(0, bytesRead);
      written += part.length;
      if (!sink.write(part)) await Promise.race([new Promise<void>((resolve) => sink.once('drain', () => resolve())), finished]);
    }
    sink.end(undefined);
    await finished;
    return size;
  } finally {
    await handle.close();
  }
}

/** Appends one small file (backup_label, tablespace_map) with mode 0600. */
export function addSmallFile(pack: tar.Pack, name: string, content: string, mtime: Date): Promise<void> {
  return addEntry(pack, { name, type: 'file', mode: 0o600, mtime, size: Buffer.byteLength(content) }, Buffer.from(content));
}

/** Where an entry goes under `dataDir`; refuses paths that would leave it. */
function targetOf(dataDir: string, name: string): string {
  const clean = name.replace(/\/+$/, '');
  if (clean === '' || path.posix.isAbsolute(clean) || clean.split('/').some((part) => part === '..' || part === '.' || part === '')) {
    throw new Error(`the backup holds an entry outside the data directory: ${JSON.stringify(name)}`);
  }
  return path.join(dataDir, ...clean.split('/'));
}

/** Unpacks the tar file `tarFile` into the (empty) folder `dataDir`; folders get mode 0700. */
export async function unpackDataDir(tarFile: string, dataDir: string): Promise<{ files: number; names: Set<string> }> {
  const extract = tar.extract();
  const input = fs.createReadStream(tarFile);
  input.on('error', (error) => extract.destroy(error));
  input.pipe(extract);
  const names = new Set<string>();
  let files = 0;
  for await (const entry of extract) {
    const { header } = entry;
    const target = targetOf(dataDir, header.name);
    names.add(header.name.replace(/\/+$/, ''));
    if (header.type === 'directory') {
      await fsp.mkdir(target, { recursive: true, mode: 0o700 });
      entry.resume();
    } else if (header.type === 'file') {
      await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      const handle = await fsp.open(target, 'wx', (header.mode ?? 0o600) & 0o700 || 0o600);
      try {
        for await (const chunk of entry) await handle.write(chunk as Buffer);
      } finally {
        await handle.close();
      }
      files += 1;
    } else if (header.type === 'symlink') {
      await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      await fsp.symlink(header.linkname, target);
      entry.resume();
    } else {
      throw new Error(`the backup holds an entry of type ${header.type}: ${header.name}`);
    }
  }
  return { files, names };
}
