import type { FastifyBaseLogger } from 'fastify';
import { REPO_ROOT } from '../config';
import type { BackupConfig } from '../config/backup';
import { openObjectStore } from '../object-store/open-object-store';
import { backupRecipient } from './backup-cipher';
import { BackupCatalog } from './backup-catalog';
import { resolveBackupKey } from './backup-key';
import type { BackupManifest } from './backup-manifest';
import { backupsToDelete } from './backup-retention';
import { pruneErasureJournal } from './erasure-journal';
import type { BackupStatus } from './backup-status';
import { takeSqliteBackup, verifySqliteBackup, type CheckedCopy } from './sqlite-backup';

/** How long a status read from the store serves. */
const STATUS_CACHE_MS = 10_000;

export interface BackupServiceOptions {
  config: BackupConfig;
  /** `sqlite:<file>` or `postgres://…`. */
  databaseUrl: string;
  log: FastifyBaseLogger;
  now?: () => number;
}

/** Where the database's backups are, and the work on them a process does: take, prove, prune, report. */
export class BackupService {
  readonly catalog: BackupCatalog;
  readonly kind: BackupManifest['kind'];
  private failure: BackupStatus['failure'];
  private readonly now: () => number;

  private key: Promise<{ identity: string; recipient: string }> | undefined;
  private cachedStatus: { at: number; status: Promise<BackupStatus> } | undefined;

  private constructor(private readonly options: BackupServiceOptions & { store: string }) {
    this.catalog = new BackupCatalog(openObjectStore(options.store, options.config.s3, REPO_ROOT, 'BACKUP_STORE'));
    this.kind = options.databaseUrl.startsWith('sqlite:') ? 'sqlite-snapshot' : 'postgres-base';
    this.now = options.now ?? Date.now;
  }

  /** The service for a store, or undefined when backups are off (BACKUP_STORE=off). */
  static open(options: BackupServiceOptions): BackupService | undefined {
    const store = options.config.store;
    return store === undefined ? undefined : new BackupService({ ...options, store });
  }

  /**
   * The key, read (or made) when first needed: a site on PostgreSQL only watches the store, whose
   * manifests and journal are not sealed, and so never needs it.
   */
  keys(): Promise<{ identity: string; recipient: string }> {
    this.key ??= (async () => {
      const { identity, made } = await resolveBackupKey(this.options.config);
      if (made) this.options.log.warn({ keyFile: this.options.config.keyFile }, 'backups: a new backup key was made; copy it away from this machine, or no backup can be restored after losing this disk');
      return { identity, recipient: await backupRecipient(identity) };
    })();
    this.key.catch(() => (this.key = undefined));
    return this.key;
  }

  /** The SQLite file this service snapshots; undefined on PostgreSQL, whose backups a sidecar takes (`backup agent`). */
  get sqliteFile(): string | undefined {
    const url = this.options.databaseUrl;
    return url.startsWith('sqlite:') && url !== 'sqlite::memory:' ? url.slice('sqlite:'.length) : undefined;
  }

  /** Takes a SQLite snapshot now. */
  async backupNow(reason: BackupManifest['reason']): Promise<BackupManifest> {
    const file = this.sqliteFile;
    if (!file) throw new Error('this database is backed up by the backup agent (base backups and archived WAL), not by the site');
    try {
      const { recipient } = await this.keys();
      const manifest = await takeSqliteBackup({ catalog: this.catalog, recipient, databaseFile: file, reason, now: () => new Date(this.now()) });
      if (this.failure?.what === 'backup') this.failure = undefined;
      this.cachedStatus = undefined;
      this.options.log.info({ id: manifest.id, bytes: manifest.bytes, ms: manifest.durationMs, reason }, 'backups: backup taken');
      return manifest;
    } catch (error) {
      this.failure = { at: new Date(this.now()).toISOString(), what: 'backup', message: (error as Error).message };
      this.cachedStatus = undefined;
      throw error;
    }
  }

  /** A restore drill of a backup (the newest by default), recorded in the store when it passes. */
  async verify(id?: string): Promise<{ manifest: BackupManifest; checked: CheckedCopy }> {
    const manifest = id ? await this.catalog.manifest(id) : (await this.catalog.list()).at(-1);
    if (!manifest) throw new Error(id ? `there is no backup ${id}` : 'there is no backup to verify yet');
    try {
      if (manifest.kind !== 'sqlite-snapshot') throw new Error('a PostgreSQL base backup is verified by the backup agent, which has PostgreSQL to restore into');
      const checked = await verifySqliteBackup(this.catalog, manifest, (await this.keys()).identity);
      await this.catalog.markVerified(manifest.id, new Date(this.now()), { products: checked.products.map(({ product, rows }) => ({ product, rows })) });
      if (this.failure?.what === 'verify') this.failure = undefined;
      this.cachedStatus = undefined;
      this.options.log.info({ id: manifest.id }, 'backups: restore drill passed');
      return { manifest, checked };
    } catch (error) {
      this.failure = { at: new Date(this.now()).toISOString(), what: 'verify', message: (error as Error).message };
      this.cachedStatus = undefined;
      throw error;
    }
  }

  /** Deletes what retention no longer keeps; returns the ids deleted. */
  async prune(): Promise<string[]> {
    const doomed = backupsToDelete(await this.catalog.list(), this.now());
    for (const backup of doomed) await this.catalog.delete(backup.id);
    await pruneErasureJournal(this.catalog, this.now());
    if (doomed.length > 0) this.cachedStatus = undefined;
    if (doomed.length > 0) this.options.log.info({ deleted: doomed.length }, 'backups: retention deleted old backups');
    return doomed.map((backup) => backup.id);
  }

  /** One scheduled run: a snapshot, a drill when the last one is a verify interval old, retention. */
  async scheduledRun(): Promise<void> {
    await this.backupNow('interval');
    const status = await this.status({ fresh: true });
    const lastDrill = status.newestVerified ? Date.parse(status.newestVerified.verifiedAt) : -Infinity;
    if (this.now() - lastDrill >= this.options.config.verifyIntervalMs) await this.verify();
    await this.prune();
  }

  /**
   * The status, read from the store at most once per STATUS_CACHE_MS for /metrics and the console
   * (a scrape or a page view does not list the store each time); `fresh` reads it now.
   */
  status({ fresh = false } = {}): Promise<BackupStatus> {
    if (fresh || !this.cachedStatus || this.now() - this.cachedStatus.at > STATUS_CACHE_MS) {
      const read = this.readStatus();
      this.cachedStatus = { at: this.now(), status: read };
      read.catch(() => (this.cachedStatus = undefined));
    }
    return this.cachedStatus.status;
  }

  private async readStatus(): Promise<BackupStatus> {
    const backups = await this.catalog.list((id, problem) => this.options.log.warn({ id, problem }, 'backups: a manifest cannot be read'));
    const verified = await this.catalog.verifiedTimes();
    const newest = backups.at(-1);
    const newestVerified = [...backups].reverse().find((backup) => verified.has(backup.id));
    return {
      store: this.catalog.store.location,
      kind: this.kind,
      intervalMs: this.options.config.intervalMs,
      verifyIntervalMs: this.options.config.verifyIntervalMs,
      count: backups.length,
      totalBytes: backups.reduce((sum, backup) => sum + backup.bytes, 0),
      ...(newest && { newest: { id: newest.id, takenAt: newest.takenAt, bytes: newest.bytes, reason: newest.reason, durationMs: newest.durationMs } }),
      ...(newestVerified && { newestVerified: { id: newestVerified.id, takenAt: newestVerified.takenAt, verifiedAt: verified.get(newestVerified.id) as string } }),
      ...(this.failure && { failure: this.failure }),
    };
  }
}
