import fs from 'node:fs/promises';
import type { ObjectStore } from '../object-store/object-store';
import { sha256Of } from './backup-cipher';
import { parseManifest, type BackupManifest } from './backup-manifest';

/**
 * The backups in a store, laid out as:
 *   backups/<id>/data.age        the sealed data (backup-cipher.ts)
 *   backups/<id>/manifest.json   written last: a backup without one failed and is never listed
 *   verified/<id>-<time>.json    each successful restore drill of it
 *   wal/<segment>.age            PostgreSQL's archived WAL, sealed one segment per object
 *   erasures/<time>-<id>.json    people erased since (keyed hashes only), for restores to apply
 */
export class BackupCatalog {
  /** Manifests never change once written: each is read from the store once per process. */
  private readonly manifests = new Map<string, BackupManifest>();

  constructor(readonly store: ObjectStore) {}

  static dataKey(id: string): string {
    return `backups/${id}/data.age`;
  }

  /** Stores the sealed file at `sealedFile` and then `manifest`, which names it. */
  async add(manifest: BackupManifest, sealedFile: string): Promise<void> {
    await this.store.put(manifest.object, await fs.readFile(sealedFile));
    await this.store.put(`backups/${manifest.id}/manifest.json`, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    this.manifests.set(manifest.id, manifest);
  }

  /**
   * Every backup with a manifest, oldest first. A manifest that cannot be read is reported
   * through `onProblem` and left out: it is no backup to restore from.
   */
  async list(onProblem: (id: string, problem: string) => void = () => undefined): Promise<BackupManifest[]> {
    const ids = (await this.store.list('backups/')).filter((key) => key.endsWith('/manifest.json')).map((key) => key.split('/')[1] as string);
    const found: BackupManifest[] = [];
    for (const id of ids) {
      const manifest = await this.manifest(id).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
      if (typeof manifest === 'string') onProblem(id, manifest);
      else if (manifest) found.push(manifest);
    }
    return found.sort((a, b) => a.takenAt.localeCompare(b.takenAt) || a.id.localeCompare(b.id));
  }

  /** The manifest of backup `id`; undefined when there is none; throws when it is damaged. */
  async manifest(id: string): Promise<BackupManifest | undefined> {
    const known = this.manifests.get(id);
    if (known) return known;
    const bytes = await this.store.get(`backups/${id}/manifest.json`);
    if (!bytes) return undefined;
    const manifest = parseManifest(bytes);
    if (typeof manifest === 'string') throw new BackupDamagedError(id, `its manifest is ${manifest}`);
    if (manifest.id !== id) throw new BackupDamagedError(id, `its manifest names ${manifest.id}`);
    this.manifests.set(id, manifest);
    return manifest;
  }

  /** The sealed data of a backup, checked against its manifest's size and SHA-256. */
  async data(manifest: BackupManifest): Promise<Buffer> {
    const bytes = await this.store.get(manifest.object);
    if (!bytes) throw new BackupDamagedError(manifest.id, `its data (${manifest.object}) is missing`);
    if (bytes.length !== manifest.bytes) throw new BackupDamagedError(manifest.id, `its data has ${bytes.length} bytes, its manifest says ${manifest.bytes}`);
    if (sha256Of(bytes) !== manifest.sha256) throw new BackupDamagedError(manifest.id, 'its data does not match the SHA-256 of its manifest');
    return bytes;
  }

  async markVerified(id: string, verifiedAt: Date, report: object): Promise<void> {
    const at = verifiedAt.toISOString();
    // One object per drill: objects are never overwritten, and a backup may be proven again.
    await this.store.put(`verified/${id}-${at.replace(/[-:.]/g, '')}.json`, Buffer.from(`${JSON.stringify({ id, verifiedAt: at, ...report })}\n`));
  }

  /** Backup id → when it was last proven by a restore drill. */
  async verifiedTimes(): Promise<Map<string, string>> {
    const times = new Map<string, string>();
    for (const key of await this.store.list('verified/')) {
      const bytes = await this.store.get(key);
      try {
        const { id, verifiedAt } = JSON.parse(bytes?.toString('utf8') ?? '') as { id: string; verifiedAt: string };
        if ((times.get(id) ?? '') < verifiedAt) times.set(id, verifiedAt);
      } catch {
        // A damaged record proves nothing; the next drill writes a new one.
      }
    }
    return times;
  }

  /** Deletes a backup: its manifest first, so a half-deleted backup is never listed. */
  async delete(id: string): Promise<void> {
    this.manifests.delete(id);
    await this.store.delete(`backups/${id}/manifest.json`);
    await this.store.deletePrefix(`backups/${id}/`);
    for (const key of await this.store.list('verified/')) if (key.startsWith(`verified/${id}`)) await this.store.delete(key);
  }
}

/** A backup that cannot be restored as it is: missing, changed or truncated data, or a bad manifest. */
export class BackupDamagedError extends Error {
  constructor(
    readonly backupId: string,
    reason: string,
  ) {
    super(`backup ${backupId} is damaged: ${reason}`);
  }
}
