import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sealFile, unsealToFile } from '../backup-cipher';
import type { BackupCatalog } from '../backup-catalog';
import { ObjectExistsError } from '../../object-store/object-store';
import { percentEscaped, shellQuote } from './postgres-config-text';
import { walFileKind, walObjectKey } from './postgres-wal-names';

/**
 * PostgreSQL's continuous archiving, in two steps:
 * 1. the server's archive_command copies each finished WAL file into a spool folder on its machine
 *    (a local copy cannot fail on the network, so the server never piles up WAL waiting for a store);
 * 2. shipWal, run by the site every WAL_SHIP_INTERVAL_MS, seals each spooled file into the backup
 *    store as `wal/<name>.age` and only then deletes it from the spool.
 *
 * How much a lost machine can lose (RPO): a segment is archived once full or, with
 * `archive_timeout = 30s`, at most 30 s after the first write into it; the archiver copies it at
 * once (it is woken, not polled); the next shipping round starts within WAL_SHIP_INTERVAL_MS (10 s)
 * and seals and stores a segment in about a second. A commit is thus in the store at most
 * 30 + 10 + a few seconds after it was made: ≤ 60 s, as long as shipping keeps up (a growing
 * spool, or a rising `failed_count` in pg_stat_archiver, means it does not: alert on both).
 */

/** Seconds after which the server switches to a new segment when the current one holds any write. */
export const WAL_ARCHIVE_TIMEOUT_S = 30;

/** How often the site ships the spool. */
export const WAL_SHIP_INTERVAL_MS = 10_000;

/** Suffix of a file archive_command is still copying: never a WAL name, so never shipped. */
const COPYING = '.copying';

/**
 * The archive_command that copies a WAL file into `spoolDir`. Besides the plain `test ! -f SPOOL/%f &&
 * cp %p SPOOL/%f`, it copies under a temporary name, flushes the copy to disk and renames it: the
 * shipper never reads a half-copied file, and once the server is told the segment is archived (and
 * recycles its own copy) the spooled one survives a power cut. `test ! -f` refuses to replace a
 * file still waiting in the spool; the server retries it once the shipper has stored it.
 */
export function walArchiveCommand(spoolDir: string): string {
  if (!path.isAbsolute(spoolDir)) throw new Error(`the WAL spool must be an absolute path, not ${spoolDir}`);
  const dir = percentEscaped(shellQuote(path.resolve(spoolDir)));
  const target = `${dir}/%f`;
  const copying = `${target}${COPYING}`;
  // mkdir: a spool inside a data directory made by initdb (as in docker-compose.yml) exists only once something made it.
  return `mkdir -p ${dir} && test ! -f ${target} && cp %p ${copying} && sync ${copying} && mv ${copying} ${target} && sync ${dir}`;
}

/**
 * The server settings that archive WAL into `spoolDir` (postgresql.conf or ALTER SYSTEM; archive_mode
 * and wal_level need a restart).
 */
export function walArchiveSettings(spoolDir: string): Record<string, string> {
  return {
    wal_level: 'replica',
    archive_mode: 'on',
    archive_command: walArchiveCommand(spoolDir),
    archive_timeout: `${WAL_ARCHIVE_TIMEOUT_S}s`,
  };
}

export interface ShipWalOptions {
  catalog: BackupCatalog;
  /** The age recipient (`age1…`) WAL is sealed to. */
  recipient: string;
  spoolDir: string;
  /**
   * The identity, when the caller has it: a file stored already is then compared by its content.
   * Without it, by its sealed size (gzip and age's framing are deterministic for one input and key).
   */
  identity?: string;
  /** Where sealed files are written before they are stored (os.tmpdir() by default). */
  workDir?: string;
}

export interface ShippedWal {
  /** Files stored by this call, in the order stored. */
  shipped: string[];
  /** Files the store held already (stored before a crash or by another shipper), now gone from the spool. */
  alreadyStored: string[];
}

/** A spooled WAL file whose name the store holds with other content: two servers archive into one store. */
export class WalConflictError extends Error {
  constructor(readonly walFile: string) {
    super(
      `WAL file ${walFile} is in the store already with other content: is another PostgreSQL server (or a restored copy on ` +
        'the same timeline) archiving into the same backup store? It stays in the spool; objects are never overwritten.',
    );
  }
}

/** The WAL files waiting in the spool, in name order (history files before their timeline's segments). */
export async function spooledWal(spoolDir: string): Promise<string[]> {
  // No spool yet: the server has archived nothing since the data directory was made (its archive_command makes the folder).
  const names = await fs.readdir(spoolDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  return names.filter((name) => walFileKind(name) !== undefined).sort();
}

/**
 * Seals every WAL file in the spool into the store (`wal/<name>.age`), oldest first, deleting each
 * from the spool once the store has it. Safe to run again after a crash at any point, and beside
 * another shipper: a file stored already is compared, and deleted from the spool when the same.
 */
export async function shipWal(options: ShipWalOptions): Promise<ShippedWal> {
  const { catalog, recipient, spoolDir, identity } = options;
  const result: ShippedWal = { shipped: [], alreadyStored: [] };
  const names = await spooledWal(spoolDir);
  if (names.length === 0) return result;
  const work = await fs.mkdtemp(path.join(options.workDir ?? os.tmpdir(), 'agency-wal-ship-'));
  try {
    for (const [index, name] of names.entries()) {
      const spooled = path.join(spoolDir, name);
      const sealed = path.join(work, `${index}.age`);
      // Shipped and deleted by another shipper since the listing. (Checked before sealing: sealFile's
      // read stream is piped, and a file gone under it would fail outside the promise.)
      if (!(await fs.stat(spooled).catch(() => undefined))) continue;
      const seal = await sealFile(spooled, sealed, recipient);
      const key = walObjectKey(name);
      try {
        await catalog.store.put(key, await fs.readFile(sealed));
        result.shipped.push(name);
      } catch (error) {
        if (!(error instanceof ObjectExistsError)) throw error;
        if (!(await sameAsStored(catalog, key, seal, identity, path.join(work, `${index}.stored`)))) throw new WalConflictError(name);
        result.alreadyStored.push(name);
      }
      await fs.rm(spooled, { force: true });
      await fs.rm(sealed, { force: true });
    }
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
  return result;
}

async function sameAsStored(
  catalog: BackupCatalog,
  key: string,
  seal: { bytes: number; plainSha256: string },
  identity: string | undefined,
  scratchFile: string,
): Promise<boolean> {
  if (!identity) return (await catalog.store.size(key)) === seal.bytes;
  const stored = await catalog.store.get(key);
  if (!stored) return false;
  try {
    return (await unsealToFile(stored, scratchFile, identity)).plainSha256 === seal.plainSha256;
  } catch {
    // A stored object that does not open is not this file.
    return false;
  }
}
