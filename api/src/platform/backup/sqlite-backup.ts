import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sealFile, unsealToFile } from './backup-cipher';
import { BackupCatalog, BackupDamagedError } from './backup-catalog';
import { newBackupId, type BackupManifest } from './backup-manifest';
import { CHECKED_TABLES, compareProducts, type ProductCheck } from './product-checks';
import { checkSqlite, snapshotSqlite } from './sqlite-snapshot';

/** A folder of scratch files, removed whatever happens. */
async function inScratchFolder<T>(work: (dir: string) => Promise<T>, parent = os.tmpdir()): Promise<T> {
  const dir = await fs.mkdtemp(path.join(parent, 'agency-backup-'));
  try {
    return await work(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

export interface TakeSqliteBackupOptions {
  catalog: BackupCatalog;
  /** The age recipient (`age1…`) the backup is sealed to. */
  recipient: string;
  databaseFile: string;
  reason: BackupManifest['reason'];
  now?: () => Date;
}

/** Snapshots the live database, seals it and stores it; the manifest goes last, so only a whole backup is listed. */
export async function takeSqliteBackup({ catalog, recipient, databaseFile, reason, now = () => new Date() }: TakeSqliteBackupOptions): Promise<BackupManifest> {
  return inScratchFolder(async (dir) => {
    const started = Date.now();
    const takenAt = now();
    const copy = path.join(dir, 'snapshot.sqlite');
    const { rowCounts, migration } = await snapshotSqlite(databaseFile, copy);
    const sealed = path.join(dir, 'snapshot.age');
    const seal = await sealFile(copy, sealed, recipient);
    const id = newBackupId(takenAt);
    const manifest: BackupManifest = {
      format: 'agency-backup/1',
      id,
      kind: 'sqlite-snapshot',
      takenAt: takenAt.toISOString(),
      reason,
      object: BackupCatalog.dataKey(id),
      bytes: seal.bytes,
      sha256: seal.sha256,
      plainBytes: seal.plainBytes,
      plainSha256: seal.plainSha256,
      rowCounts,
      migration,
      durationMs: Date.now() - started,
    };
    await catalog.add(manifest, sealed);
    return manifest;
  });
}

export interface CheckedCopy {
  integrity: string;
  products: ProductCheck[];
}

/**
 * Unseals a backup into the new file `target` and proves it: the bytes match the manifest, SQLite's
 * integrity and foreign-key checks pass, and every product's tables hold the rows the manifest
 * counted. Throws BackupDamagedError otherwise (and leaves `target` for the caller to remove).
 */
async function unsealChecked(catalog: BackupCatalog, manifest: BackupManifest, identity: string, target: string): Promise<CheckedCopy> {
  if (manifest.kind !== 'sqlite-snapshot') throw new Error(`backup ${manifest.id} is a ${manifest.kind}, not a SQLite snapshot`);
  const sealed = await catalog.data(manifest);
  const plain = await unsealToFile(sealed, target, identity).catch((error: unknown) => {
    throw new BackupDamagedError(manifest.id, `it cannot be decrypted with this key or is cut short (${(error as Error).message})`);
  });
  if (plain.plainSha256 !== manifest.plainSha256) throw new BackupDamagedError(manifest.id, 'its database does not match the SHA-256 of its manifest');
  const { integrity, orphans, rowCounts } = await checkSqlite(target, CHECKED_TABLES);
  if (integrity !== 'ok') throw new BackupDamagedError(manifest.id, `SQLite's integrity check says: ${integrity}`);
  if (orphans > 0) throw new BackupDamagedError(manifest.id, `${orphans} rows point to rows that are not there`);
  const products = compareProducts(rowCounts, manifest.rowCounts);
  const mismatches = products.flatMap((product) => product.mismatches);
  if (mismatches.length > 0) throw new BackupDamagedError(manifest.id, mismatches.join('; '));
  return { integrity, products };
}

/** A restore drill: the backup unsealed into a scratch file and checked, then removed. */
export function verifySqliteBackup(catalog: BackupCatalog, manifest: BackupManifest, identity: string): Promise<CheckedCopy> {
  return inScratchFolder((dir) => unsealChecked(catalog, manifest, identity, path.join(dir, 'restored.sqlite')));
}

/** Whether the SQLite file holds any row in any table of ours (a missing or empty file holds none). */
export async function sqliteHoldsData(file: string): Promise<boolean> {
  const exists = await fs.stat(file).then(
    (stats) => stats.size > 0,
    () => false,
  );
  if (!exists) return false;
  const sqlite = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    const tables = sqlite.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' and name not like 'kysely\\_%' escape '\\'").pluck().all() as string[];
    return tables.some((name) => sqlite.prepare(`select exists (select 1 from "${name.replace(/"/g, '""')}")`).pluck().get() === 1);
  } finally {
    sqlite.close();
  }
}

export class RestoreRefusedError extends Error {}

/**
 * Restores a backup over the database file `target`, which must hold no data unless `force`:
 * the copy is unsealed and checked beside it first, then takes its place in one rename, with the
 * old file's `-wal` and `-shm` removed (they belong to the database being replaced). The server
 * must not be running on `target`.
 */
export async function restoreSqliteBackup(catalog: BackupCatalog, manifest: BackupManifest, identity: string, target: string, { force = false } = {}): Promise<CheckedCopy> {
  if (!force && (await sqliteHoldsData(target))) {
    throw new RestoreRefusedError(`${target} holds data: a restore would overwrite it (add --force to replace it)`);
  }
  await fs.mkdir(path.dirname(target), { recursive: true });
  return inScratchFolder(async (dir) => {
    const copy = path.join(dir, 'restored.sqlite');
    const checked = await unsealChecked(catalog, manifest, identity, copy);
    for (const suffix of ['-wal', '-shm', '-journal']) await fs.rm(`${target}${suffix}`, { force: true });
    await fs.rename(copy, target);
    return checked;
  }, path.dirname(target));
}
