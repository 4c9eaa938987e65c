import { Type, type Static } from '@sinclair/typebox';
import { FOLLOW_UP_LIMITS } from './follow-up-constants';
import { StringEnum } from './schema-builders';
import { LEAD_KINDS, LEAD_STATUSES, STAFF_ROLES, type LeadKind, type LeadStatus, type StaffRole } from './staff-constants';

/** The reply a visitor gets by e-mail once their lead is stored (and judged not spam). */
const ReplyTemplate = Type.Object(
  {
    subject: Type.String({ minLength: 1, maxLength: FOLLOW_UP_LIMITS.subjectMax }),
    text: Type.String({ minLength: 1, maxLength: FOLLOW_UP_LIMITS.replyMax }),
  },
  { additionalProperties: false },
);
export type ReplyTemplate = Static<typeof ReplyTemplate>;

/** What admins set for the work after a lead arrives. */
export const FollowUpSettingsSchema = Type.Object(
  {
    replies: Type.Object({ contact: ReplyTemplate, applications: ReplyTemplate }, { additionalProperties: false }),
    /** A lead without a first response this long (working minutes) is overdue. */
    targetMinutes: Type.Integer({ minimum: FOLLOW_UP_LIMITS.targetMinutesMin, maximum: FOLLOW_UP_LIMITS.targetMinutesMax }),
  },
  { additionalProperties: false },
);
export type FollowUpSettings = Static<typeof FollowUpSettingsSchema>;

export const FollowUpSettingsViewSchema = Type.Object({
  ...FollowUpSettingsSchema.properties,
  version: Type.Integer({ minimum: 0 }),
  updatedAt: Type.Union([Type.String(), Type.Null()]),
  updatedBy: Type.Union([Type.String(), Type.Null()]),
});
export type FollowUpSettingsView = Static<typeof FollowUpSettingsViewSchema>;
export const FollowUpSettingsUpdateSchema = Type.Object({ ...FollowUpSettingsSchema.properties, version: Type.Integer({ minimum: 0 }) }, { additionalProperties: false });
export type FollowUpSettingsUpdate = Static<typeof FollowUpSettingsUpdateSchema>;
export const FollowUpSettingsConflictSchema = Type.Object({
  error: Type.Object({ code: Type.Literal('FOLLOW_UP_SETTINGS_CHANGED'), message: Type.String() }),
  current: FollowUpSettingsViewSchema,
});
export type FollowUpSettingsConflict = Static<typeof FollowUpSettingsConflictSchema>;

/** A member as assignment sees them: the kinds of lead they take in turn, whether they are away, where Telegram reaches them. */
export const LeadRoutingMemberSchema = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  email: Type.String(),
  role: StringEnum<StaffRole>(STAFF_ROLES),
  kinds: Type.Array(StringEnum<LeadKind>(LEAD_KINDS)),
  away: Type.Boolean(),
  telegramChatId: Type.Union([Type.String(), Type.Null()]),
});
export type LeadRoutingMember = Static<typeof LeadRoutingMemberSchema>;
export const LeadRoutingListSchema = Type.Array(LeadRoutingMemberSchema);
export const LeadRoutingUpdateSchema = Type.Object(
  {
    kinds: Type.Array(StringEnum<LeadKind>(LEAD_KINDS), { uniqueItems: true, maxItems: LEAD_KINDS.length }),
    away: Type.Boolean(),
    telegramChatId: Type.Union([Type.String({ pattern: '^(-?[0-9]{1,20}|@[A-Za-z0-9_]{5,32})$', maxLength: FOLLOW_UP_LIMITS.telegramChatIdMax }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type LeadRoutingUpdate = Static<typeof LeadRoutingUpdateSchema>;

/** Another lead of the same person, as a lead's page lists them. */
export const PersonLeadSchema = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  kind: StringEnum<LeadKind>(LEAD_KINDS),
  receivedAt: Type.String(),
  status: StringEnum<LeadStatus>(LEAD_STATUSES),
  subject: Type.String(),
});
export type PersonLead = Static<typeof PersonLeadSchema>;

/** Unlinking a lead from the person it was joined to, from `version`. */
export const UnlinkBodySchema = Type.Object({ version: Type.Integer({ minimum: 1 }) }, { additionalProperties: false });

export const ResponseReportQuerySchema = Type.Object(
  { weeks: Type.Optional(Type.String({ pattern: '^[1-9][0-9]?$' })) },
  { additionalProperties: false },
);

/** Time to first response (working minutes) of a group of leads that got one. */
const ResponseTimes = {
  leads: Type.Integer(),
  answered: Type.Integer(),
  medianMinutes: Type.Union([Type.Number(), Type.Null()]),
  p90Minutes: Type.Union([Type.Number(), Type.Null()]),
};
export const ResponseReportSchema = Type.Object({
  targetMinutes: Type.Integer(),
  /** Kyiv weeks from Monday, newest first. */
  weeks: Type.Array(Type.Object({ weekStart: Type.String(), ...ResponseTimes, overdue: Type.Integer() })),
  /** By the member who responded first. */
  people: Type.Array(Type.Object({ member: Type.String(), ...ResponseTimes })),
  /** Leads of the period by where they came from, and how many the agency won. */
  sources: Type.Array(Type.Object({ source: Type.String(), leads: Type.Integer(), won: Type.Integer() })),
});
export type ResponseReport = Static<typeof ResponseReportSchema>;
