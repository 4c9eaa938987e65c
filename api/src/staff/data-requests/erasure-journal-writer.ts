import type { BackupService } from '../../platform/backup/backup-service';
import { journalErasure } from '../../platform/backup/erasure-journal';

/** The backup store did not take an erasure's journal entry: the erasure was not made. */
export class ErasureNotJournaledError extends Error {}

/** What an erasure journals through, when the site keeps backups (none with BACKUP_STORE=off). */
export function journalOf(backups: BackupService | undefined): ((entry: { hash: string; at: string }) => Promise<void>) | undefined {
  if (!backups) return undefined;
  return (entry) =>
    journalErasure(backups.catalog, entry).catch((error: unknown) => {
      throw new ErasureNotJournaledError(`the backup store did not take the erasure's journal entry: ${(error as Error).message}`);
    });
}
