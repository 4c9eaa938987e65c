import type { Kysely } from 'kysely';
import type { Db } from './connection';

/** The one-row, version-checked tables of what admins set in the console (row id 1; none while the defaults hold). */
export type SettingsTable = 'spam_settings' | 'lead_follow_up_settings';

/**
 * Saves a settings row over `version` (call inside the transaction that audits it): whether it was
 * saved, false when the settings moved on since `version`. Version 0 means the defaults: the row
 * is inserted then, and only once.
 */
export async function saveSettingsRow(db: Db, table: SettingsTable, values: Record<string, unknown>, version: number, memberId: number, at: string): Promise<boolean> {
  // The tables differ in their settings columns only; the version logic is the same for all.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const kysely = db.kysely as unknown as Kysely<Record<SettingsTable, any>>;
  const row = { ...values, version: version + 1, updated_at: at, updated_by: memberId };
  if (version === 0) {
    const inserted = await kysely.insertInto(table).values({ id: 1, ...row }).onConflict((conflict) => conflict.column('id').doNothing()).executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  }
  const updated = await kysely.updateTable(table).set(row).where('id', '=', 1).where('version', '=', version).executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}
