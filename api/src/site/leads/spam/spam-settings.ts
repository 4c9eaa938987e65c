import type { SpamSettings } from '@agency/shared';
import type { Db } from '../../../platform/db/connection';
import { DEFAULT_SPAM_PHRASES } from './default-spam-phrases';

/** The threshold until admins change it: one strong reason, or two or three weaker ones together. */
export const DEFAULT_SPAM_THRESHOLD = 10;

export interface StoredSpamSettings extends SpamSettings {
  /** Moved by every change; 0 while the defaults hold. */
  version: number;
  updatedAt: string | null;
  updatedBy: number | null;
}

export const DEFAULT_SPAM_SETTINGS: StoredSpamSettings = {
  threshold: DEFAULT_SPAM_THRESHOLD,
  phrases: [...DEFAULT_SPAM_PHRASES],
  version: 0,
  updatedAt: null,
  updatedBy: null,
};

export async function readSpamSettings(db: Db): Promise<StoredSpamSettings> {
  const row = await db.kysely.selectFrom('spam_settings').selectAll().where('id', '=', 1).executeTakeFirst();
  if (!row) return DEFAULT_SPAM_SETTINGS;
  return { threshold: row.threshold, phrases: JSON.parse(row.phrases) as string[], version: row.version, updatedAt: row.updated_at, updatedBy: row.updated_by };
}

/**
 * Saves `settings` over `version` (call inside the transaction that audits it): the new stored
 * settings, or undefined when they moved on since `version` (nothing saved).
 */
export async function writeSpamSettings(db: Db, settings: SpamSettings, version: number, memberId: number, at: string): Promise<StoredSpamSettings | undefined> {
  const values = { threshold: settings.threshold, phrases: JSON.stringify(settings.phrases), version: version + 1, updated_at: at, updated_by: memberId };
  if (version === 0) {
    const inserted = await db.kysely.insertInto('spam_settings').values({ id: 1, ...values }).onConflict((conflict) => conflict.column('id').doNothing()).executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return undefined;
  } else {
    const updated = await db.kysely.updateTable('spam_settings').set(values).where('id', '=', 1).where('version', '=', version).executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return undefined;
  }
  return { ...settings, version: version + 1, updatedAt: at, updatedBy: memberId };
}

/**
 * The settings as the submissions judge them: read again at most every `maxAgeMs`, so a change
 * made in the console (on any process of the site) holds within seconds, at one read per interval.
 */
export class SpamSettingsCache {
  private cached: { at: number; settings: Promise<StoredSpamSettings> } | undefined;

  constructor(
    private readonly db: Db,
    private readonly maxAgeMs = 5_000,
  ) {}

  get(now = Date.now()): Promise<StoredSpamSettings> {
    if (!this.cached || now - this.cached.at > this.maxAgeMs) {
      const settings = readSpamSettings(this.db);
      this.cached = { at: now, settings };
      settings.catch(() => (this.cached = undefined));
    }
    return this.cached.settings;
  }

  /** After a change on this process: the next submission reads it. */
  forget(): void {
    this.cached = undefined;
  }
}
