import { ERROR_RESPONSES, SpamSettingsConflictSchema, SpamSettingsUpdateSchema, SpamSettingsViewSchema } from '@agency/shared/contracts';
import type { SpamSettings, SpamSettingsView } from '@agency/shared';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../platform/db/connection';
import { readSpamSettings, writeSpamSettings } from '../../site/leads';
import { ChangedError } from '../common/changed-error';
import { saveSettings, settingsView } from '../common/versioned-settings';
import { STAFF_MESSAGES } from '../common/staff-messages';
import { sessionOf } from '../sessions/staff-guard';

export class SpamSettingsChangedError extends ChangedError<SpamSettingsView> {
  constructor(current: SpamSettingsView) {
    super('SPAM_SETTINGS_CHANGED', STAFF_MESSAGES.spamSettingsChanged, current);
  }
}

/** Phrases as kept: trimmed, the empty dropped, each once whatever its case. */
function cleanPhrases(phrases: readonly string[]): string[] {
  const seen = new Set<string>();
  return phrases
    .map((phrase) => phrase.trim().replace(/\s+/gu, ' '))
    .filter((phrase) => {
      const key = phrase.toLowerCase();
      if (phrase === '' || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/**
 * The spam defence's settings, tuned by admins without a deploy: the threshold that holds a
 * submission and the phrases that count against it. A change names the version it was made from
 * (409 with the current settings when they moved on), is audited, and holds on every process of
 * the site within seconds (each re-reads them: SpamSettingsCache).
 */
export const spamSettingsRoutes: FastifyPluginAsyncTypebox<{ db: Db; settings: { forget(): void } }> = async (app, { db, settings }) => {
  const admin = { staffRole: 'admin' as const };

  app.get('/api/staff/spam-settings', { config: admin, schema: { response: { 200: SpamSettingsViewSchema, ...ERROR_RESPONSES } } }, async () => settingsView(db, await readSpamSettings(db)));

  app.put(
    '/api/staff/spam-settings',
    { config: admin, schema: { body: SpamSettingsUpdateSchema, response: { 200: SpamSettingsViewSchema, 409: SpamSettingsConflictSchema, ...ERROR_RESPONSES } } },
    async (request) => {
      const { member } = sessionOf(request);
      const wanted: SpamSettings = { threshold: request.body.threshold, phrases: cleanPhrases(request.body.phrases) };
      const editor = { actorId: member.id, actor: member.email, address: request.ip };
      const saved = await saveSettings(db, request.body.version, editor, {
        read: readSpamSettings,
        write: (inTransaction, before, at) => writeSpamSettings(inTransaction, wanted, before.version, member.id, at),
        audit: {
          action: 'spam-settings-changed',
          target: 'spam-settings',
          detail: (before, after) => ({
            threshold: { from: before.threshold, to: after.threshold },
            phrasesAdded: after.phrases.filter((phrase) => !before.phrases.includes(phrase)),
            phrasesRemoved: before.phrases.filter((phrase) => !after.phrases.includes(phrase)),
          }),
        },
        conflict: (current) => new SpamSettingsChangedError(current),
      });
      settings.forget();
      return saved;
    },
  );
};
