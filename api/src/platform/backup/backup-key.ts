import fs from 'node:fs/promises';
import path from 'node:path';
import type { BackupConfig } from '../config/backup';
import { generateBackupKey } from './backup-cipher';

/**
 * The identity backups are sealed to: BACKUP_KEY when set; otherwise the one in BACKUP_KEY_PATH,
 * made there (readable by its owner only) at the first start, so a laptop's `npm start` backs up
 * with no setup. `made` tells the caller to warn: that key lives beside the database, and a
 * lost disk takes both, so it must be copied elsewhere.
 */
export async function resolveBackupKey(config: Pick<BackupConfig, 'key' | 'keyFile'>): Promise<{ identity: string; made: boolean }> {
  if (config.key) return { identity: config.key, made: false };
  const stored = await fs.readFile(config.keyFile, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  const identity = stored?.split('\n').find((line) => line.startsWith('AGE-SECRET-KEY-'));
  if (identity) return { identity: identity.trim(), made: false };
  if (stored !== undefined) throw new Error(`${config.keyFile} holds no age identity (AGE-SECRET-KEY-1…)`);
  const made = await generateBackupKey();
  await fs.mkdir(path.dirname(config.keyFile), { recursive: true });
  try {
    await fs.writeFile(config.keyFile, `# The key the site's backups are encrypted with: keep a copy away from this machine.\n${made}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process starting at the same moment made it first: use that one.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return resolveBackupKey(config);
    throw error;
  }
  return { identity: made, made: true };
}
