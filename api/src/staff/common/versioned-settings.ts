import type { Db } from '../../platform/db/connection';
import { recordAudit, type AuditAction, type AuditRecord } from '../../platform/audit/audit-log';

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
export async function settingsView<S extends StoredSettings>(db: Db, stored: S): Promise<SettingsView<S>> {
  const member = stored.updatedBy === null ? undefined : await db.kysely.selectFrom('staff_members').select('email').where('id', '=', stored.updatedBy).executeTakeFirst();
  return { ...stored, updatedBy: member?.email ?? null };
}

export type SettingsView<S extends StoredSettings> = Omit<S, 'updatedBy'> & { updatedBy: string | null };

export interface SettingsChange<S extends StoredSettings> {
  read(db: Db): Promise<S>;
  /** Saves over `before` (its version); undefined when they moved on meanwhile. */
  write(db: Db, before: S, at: string): Promise<S | undefined>;
  /** The change's audit entry: its action and target, and what it changed. */
  audit: { action: AuditAction; target: string; detail(before: S, after: S): Record<string, unknown> };
  /** What a change made from an old version answers, carrying the settings as they are now. */
  conflict(current: SettingsView<S>): Error;
}

/** Who saves a change, as the audit log names them. */
export type SettingsEditor = Pick<AuditRecord, 'actorId' | 'actor' | 'address'>;

/**
 * Saves a change `editor` made from `version`, with its audit entry, in one transaction: the
 * settings now, as admins see them. When they moved on since `version`, nothing is saved and
 * `change.conflict` is thrown with them as they are.
 */
export async function saveSettings<S extends StoredSettings>(db: Db, version: number, editor: SettingsEditor, change: SettingsChange<S>): Promise<SettingsView<S>> {
  const saved = await db.kysely.transaction().execute(async (trx) => {
    const inTransaction: Db = { kysely: trx, dialect: db.dialect };
    const before = await change.read(inTransaction);
    if (before.version !== version) return undefined;
    const after = await change.write(inTransaction, before, new Date().toISOString());
    if (!after) return undefined;
    await recordAudit(trx, { ...editor, action: change.audit.action, target: change.audit.target, detail: change.audit.detail(before, after) });
    return after;
  });
  if (!saved) throw change.conflict(await settingsView(db, await change.read(db)));
  return settingsView(db, saved);
}
