import { randomBytes } from 'node:crypto';
import { BACKUP_RETENTION_DAYS } from '@agency/shared';
import type { BackupCatalog } from './backup-catalog';

/**
 * People erased, kept beside the backups and outside the database, so a restore from a backup
 * taken before an erasure erases them again before the site opens. Only the keyed hash the audit
 * log keeps (HMAC with a secret of the site's database, which a restored copy holds too): the
 * journal names nobody to whoever reads the store.
 */
export interface ErasureEntry {
  at: string;
  /** `subjectHash` of the person (staff/data-requests/data-subject.ts). */
  hash: string;
}

const PREFIX = 'erasures/';

/** Records an erasure before it is made: if the store cannot take it, the erasure must not go ahead. */
export async function journalErasure(catalog: BackupCatalog, entry: ErasureEntry): Promise<void> {
  const stamp = entry.at.replace(/[-:.]/g, '');
  await catalog.store.put(`${PREFIX}${stamp}-${randomBytes(4).toString('hex')}.json`, Buffer.from(`${JSON.stringify(entry)}\n`));
}

/** The erasures journaled after `since` (ISO time), oldest first. */
export async function erasuresSince(catalog: BackupCatalog, since: string): Promise<ErasureEntry[]> {
  const entries: ErasureEntry[] = [];
  for (const key of await catalog.store.list(PREFIX)) {
    const bytes = await catalog.store.get(key);
    const entry = JSON.parse(bytes?.toString('utf8') ?? 'null') as ErasureEntry | null;
    if (!entry || typeof entry.at !== 'string' || typeof entry.hash !== 'string') throw new Error(`the erasure journal's ${key} is damaged: a restore cannot be sure it erases everyone again`);
    if (entry.at > since) entries.push(entry);
  }
  return entries.sort((a, b) => a.at.localeCompare(b.at));
}

/** Deletes entries older than any backup retention keeps: no restore can need them. */
export async function pruneErasureJournal(catalog: BackupCatalog, now: number): Promise<number> {
  const cutoff = new Date(now - BACKUP_RETENTION_DAYS * 86_400_000).toISOString().replace(/[-:.]/g, '');
  let deleted = 0;
  for (const key of await catalog.store.list(PREFIX)) {
    if (key.slice(PREFIX.length, PREFIX.length + cutoff.length) < cutoff) {
      await catalog.store.delete(key);
      deleted += 1;
    }
  }
  return deleted;
}
