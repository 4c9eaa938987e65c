import { ERROR_RESPONSES, SpamSettingsConflictSchema, SpamSettingsUpdateSchema, SpamSettingsViewSchema } from '@agency/shared/contracts';
import type { SpamSettings, SpamSettingsView } from '@agency/shared';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../platform/db/connection';
import { readSpamSettings, writeSpamSettings, type StoredSpamSettings } from '../../site/leads';
import { recordAudit } from '../../platform/audit/audit-log';
import { ChangedError } from '../common/changed-error';
import { STAFF_MESSAGES } from '../common/staff-messages';
import { sessionOf } from '../sessions/staff-guard';

export class SpamSettingsChangedError extends ChangedError<SpamSettingsView> {
  constructor(current: SpamSettingsView) {
    super('SPAM_SETTINGS_CHANGED', STAFF_MESSAGES.spamSettingsChanged, current);
  }
}

async function viewOf(db: Db, stored: StoredSpamSettings): Promise<SpamSettingsView> {
  const member = stored.updatedBy === null ? undefined : await db.kysely.selectFrom('staff_members').select('email').where('id', '=', stored.updatedBy).executeTakeFirst();
  return { threshold: stored.threshold, phrases: stored.phrases, version: stored.version, updatedAt: stored.updatedAt, updatedBy: member?.email ?? null };
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

  app.get('/api/staff/spam-settings', { config: admin, schema: { response: { 200: SpamSettingsViewSchema, ...ERROR_RESPONSES } } }, async () => viewOf(db, await readSpamSettings(db)));

  app.put(
    '/api/staff/spam-settings',
    { config: admin, schema: { body: SpamSettingsUpdateSchema, response: { 200: SpamSettingsViewSchema, 409: SpamSettingsConflictSchema, ...ERROR_RESPONSES } } },
    async (request) => {
      const { member } = sessionOf(request);
      const wanted: SpamSettings = { threshold: request.body.threshold, phrases: cleanPhrases(request.body.phrases) };
      const saved = await db.kysely.transaction().execute(async (trx) => {
        const inTransaction = { kysely: trx, dialect: db.dialect };
        const before = await readSpamSettings(inTransaction);
        if (before.version !== request.body.version) return undefined;
        const at = new Date().toISOString();
        const after = await writeSpamSettings(inTransaction, wanted, before.version, member.id, at);
        if (!after) return undefined;
        const added = after.phrases.filter((phrase) => !before.phrases.includes(phrase));
        const removed = before.phrases.filter((phrase) => !after.phrases.includes(phrase));
        await recordAudit(trx, {
          actorId: member.id,
          actor: member.email,
          action: 'spam-settings-changed',
          target: 'spam-settings',
          address: request.ip,
          detail: { threshold: { from: before.threshold, to: after.threshold }, phrasesAdded: added, phrasesRemoved: removed },
        });
        return after;
      });
      if (!saved) throw new SpamSettingsChangedError(await viewOf(db, await readSpamSettings(db)));
      settings.forget();
      return viewOf(db, saved);
    },
  );
};
