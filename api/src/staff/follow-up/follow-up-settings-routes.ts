import { FollowUpSettingsConflictSchema, FollowUpSettingsUpdateSchema, FollowUpSettingsViewSchema, ERROR_RESPONSES } from '@agency/shared/contracts';
import { LEAD_KINDS, type FollowUpSettings, type FollowUpSettingsView } from '@agency/shared';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../platform/db/connection';
import { ApiError, MESSAGES } from '../../platform/http/api-error';
import { readFollowUpSettings, unknownPlaceholders, writeFollowUpSettings } from '../../site/leads';
import { ChangedError } from '../common/changed-error';
import { saveSettings, settingsView } from '../common/versioned-settings';
import { STAFF_MESSAGES } from '../common/staff-messages';
import { sessionOf } from '../sessions/staff-guard';

export class FollowUpSettingsChangedError extends ChangedError<FollowUpSettingsView> {
  constructor(current: FollowUpSettingsView) {
    super('FOLLOW_UP_SETTINGS_CHANGED', STAFF_MESSAGES.followUpSettingsChanged, current);
  }
}

/** A reply with a placeholder it cannot fill is refused, naming the field: a typo must not reach visitors. */
function checkPlaceholders(settings: FollowUpSettings): void {
  const fields: Record<string, string> = {};
  for (const kind of LEAD_KINDS) {
    const unknown = unknownPlaceholders(settings.replies[kind]);
    if (unknown.length > 0) fields[`replies.${kind}`] = STAFF_MESSAGES.replyPlaceholderUnknown(unknown.map((name) => `{${name}}`).join(', '));
  }
  if (Object.keys(fields).length > 0) throw new ApiError(400, 'VALIDATION_ERROR', MESSAGES.validation, fields);
}

/**
 * What admins set for the work after a lead arrives: the visitor's reply for each kind of lead and
 * the response target. A change names the version it was made from (409 with the current settings
 * when they moved on), is audited, and holds on every process within seconds.
 */
export const followUpSettingsRoutes: FastifyPluginAsyncTypebox<{ db: Db; settings: { forget(): void } }> = async (app, { db, settings }) => {
  const admin = { staffRole: 'admin' as const };

  app.get('/api/staff/follow-up-settings', { config: admin, schema: { response: { 200: FollowUpSettingsViewSchema, ...ERROR_RESPONSES } } }, async () => settingsView(db, await readFollowUpSettings(db)));

  app.put(
    '/api/staff/follow-up-settings',
    { config: admin, schema: { body: FollowUpSettingsUpdateSchema, response: { 200: FollowUpSettingsViewSchema, 409: FollowUpSettingsConflictSchema, ...ERROR_RESPONSES } } },
    async (request) => {
      const { member } = sessionOf(request);
      const { version, ...wanted } = request.body;
      checkPlaceholders(wanted);
      const editor = { actorId: member.id, actor: member.email, address: request.ip };
      const saved = await saveSettings(db, version, editor, {
        read: readFollowUpSettings,
        write: (inTransaction, before, at) => writeFollowUpSettings(inTransaction, wanted, before.version, member.id, at),
        audit: {
          action: 'follow-up-settings-changed',
          target: 'follow-up-settings',
          detail: (before, after) => ({
            targetMinutes: { from: before.targetMinutes, to: after.targetMinutes },
            repliesChanged: LEAD_KINDS.filter((kind) => JSON.stringify(before.replies[kind]) !== JSON.stringify(after.replies[kind])),
          }),
        },
        conflict: (current) => new FollowUpSettingsChangedError(current),
      });
      settings.forget();
      return saved;
    },
  );
};
