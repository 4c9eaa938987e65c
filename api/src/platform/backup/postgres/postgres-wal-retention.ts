import type { BackupManifest } from '../backup-manifest';
import { walFileKind, walNameOfKey } from './postgres-wal-names';

/**
 * The archived WAL that retention may delete once `oldestKeptBackup` is the oldest base backup kept:
 * every segment (and base-backup history or partial file) before that backup's first segment.
 * No kept backup can start a replay there: a restore starts at its base backup's startWal. History
 * files stay (a few bytes each, and recovery reads them to follow timelines), and so does every key
 * this cannot read. Names compare as text: an older timeline's segments all sort before a newer
 * one's, and a backup on the newer timeline needs none of them.
 */
export function walToDelete(walKeys: readonly string[], oldestKeptBackup: BackupManifest | undefined): string[] {
  const startWal = oldestKeptBackup?.postgres?.startWal;
  // Without a kept base backup nothing says which WAL is still needed: keep it all.
  if (!startWal) return [];
  return walKeys.filter((key) => {
    const name = walNameOfKey(key);
    if (!name) return false;
    const kind = walFileKind(name);
    if (kind === 'history') return false;
    return name.slice(0, 24) < startWal;
  });
}
