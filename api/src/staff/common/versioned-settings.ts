import type { Db } from '../../platform/db/connection';
import type { AppKysely } from '../../platform/db/schema';

/**
 * Settings admins change in the console (spam, follow-up): one row, saved from the version the
 * admin loaded, audited in the same transaction, shown with who changed them last.
 */

interface StoredSettings {
  /** Moved by every change; 0 while the defaults hold. */
  version: number;
  updatedBy: number | null;
}

/** Stored settings as admins see them: who changed them last by e-mail (null while the defaults hold). */
export async function settingsView<S extends StoredSettings>(db: Db, stored: S): Promise<Omit<S, 'updatedBy'> & { updatedBy: string | null }> {
  const member = stored.updatedBy === null ? undefined : await db.kysely.selectFrom('staff_members').select('email').where('id', '=', stored.updatedBy).executeTakeFirst();
  return { ...stored, updatedBy: member?.email ?? null };
}

export interface SettingsChange<S> {
  read(db: Db): Promise<S>;
  /** Saves over `before` (its version); undefined when they moved on meanwhile. */
  write(db: Db, before: S, at: string): Promise<S | undefined>;
  audit(kysely: AppKysely, before: S, after: S): Promise<void>;
}

/** Saves a change made from `version`, with its audit entry, in one transaction: the settings now, or undefined when they moved on since `version` (nothing saved). */
export async function saveSettings<S extends StoredSettings>(db: Db, version: number, change: SettingsChange<S>): Promise<S | undefined> {
  return db.kysely.transaction().execute(async (trx) => {
    const inTransaction: Db = { kysely: trx, dialect: db.dialect };
    const before = await change.read(inTransaction);
    if (before.version !== version) return undefined;
    const after = await change.write(inTransaction, before, new Date().toISOString());
    if (!after) return undefined;
    await change.audit(trx, before, after);
    return after;
  });
}
