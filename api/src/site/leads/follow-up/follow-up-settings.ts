import { FOLLOW_UP_LIMITS, type FollowUpSettings } from '@agency/shared';
import type { Db } from '../../../platform/db/connection';
import { saveSettingsRow } from '../../../platform/db/settings-row';
import { CachedRead } from '../../../platform/lib/cached-read';
import { DEFAULT_REPLIES } from './default-replies';

export interface StoredFollowUpSettings extends FollowUpSettings {
  /** Moved by every change; 0 while the defaults hold. */
  version: number;
  updatedAt: string | null;
  updatedBy: number | null;
}

export const DEFAULT_FOLLOW_UP_SETTINGS: StoredFollowUpSettings = {
  replies: DEFAULT_REPLIES,
  targetMinutes: FOLLOW_UP_LIMITS.defaultTargetMinutes,
  version: 0,
  updatedAt: null,
  updatedBy: null,
};

export async function readFollowUpSettings(db: Db): Promise<StoredFollowUpSettings> {
  const row = await db.kysely.selectFrom('lead_follow_up_settings').selectAll().where('id', '=', 1).executeTakeFirst();
  if (!row) return DEFAULT_FOLLOW_UP_SETTINGS;
  return { replies: JSON.parse(row.replies) as FollowUpSettings['replies'], targetMinutes: row.target_minutes, version: row.version, updatedAt: row.updated_at, updatedBy: row.updated_by };
}

/** Saves `settings` over `version` (inside the transaction that audits it); undefined when they moved on since. */
export async function writeFollowUpSettings(db: Db, settings: FollowUpSettings, version: number, memberId: number, at: string): Promise<StoredFollowUpSettings | undefined> {
  const saved = await saveSettingsRow(db, 'lead_follow_up_settings', { replies: JSON.stringify(settings.replies), target_minutes: settings.targetMinutes }, version, memberId, at);
  return saved ? { ...settings, version: version + 1, updatedAt: at, updatedBy: memberId } : undefined;
}

/** The settings as arriving leads and the inbox use them, re-read at most every `maxAgeMs`. */
export class FollowUpSettingsCache extends CachedRead<StoredFollowUpSettings> {
  constructor(db: Db, maxAgeMs = 5_000) {
    super(() => readFollowUpSettings(db), maxAgeMs);
  }
}
