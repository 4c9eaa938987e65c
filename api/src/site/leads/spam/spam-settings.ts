import type { SpamSettings } from '@agency/shared';
import type { Db } from '../../../platform/db/connection';
import { saveSettingsRow } from '../../../platform/db/settings-row';
import { CachedRead } from '../../../platform/lib/cached-read';
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
  const saved = await saveSettingsRow(db, 'spam_settings', { threshold: settings.threshold, phrases: JSON.stringify(settings.phrases) }, version, memberId, at);
  return saved ? { ...settings, version: version + 1, updatedAt: at, updatedBy: memberId } : undefined;
}

/** The settings as the submissions judge them, re-read at most every `maxAgeMs`. */
export class SpamSettingsCache extends CachedRead<StoredSpamSettings> {
  constructor(db: Db, maxAgeMs = 5_000) {
    super(() => readSpamSettings(db), maxAgeMs);
  }
}
