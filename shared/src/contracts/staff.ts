import { Type, type Static } from '@sinclair/typebox';
import { FIELD_LIMITS } from './limits';
import { EMAIL_PATTERN } from './patterns';
import { StringEnum } from './schema-builders';
import { PersonLeadSchema } from './follow-up';
import { SpamReasonSchema, SpamSettingsSchema } from './spam';
import { LEAD_FILTER_KEYS, LEAD_KINDS, LEAD_STATUSES, STAFF_LIMITS, STAFF_ROLES, type LeadKind, type LeadStatus, type StaffRole } from './staff-constants';

/**
 * The staff console's API (`/api/staff/*`). Bodies are closed objects except the WebAuthn
 * credentials, which the browser builds and the WebAuthn library checks whole.
 */

const Email = Type.String({ minLength: 1, maxLength: FIELD_LIMITS.email, pattern: EMAIL_PATTERN });
const Role = StringEnum<StaffRole>(STAFF_ROLES);
const Id = Type.Integer({ minimum: 1 });
/** An id in a path or query: text, as URLs carry it (nine digits at most, within every database's integer). */
const IdText = Type.String({ pattern: '^[1-9][0-9]{0,8}$' });
const IsoTime = Type.String();
/** An invitation's token: 32 random bytes, base64url. */
const InvitationToken = Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' });
const ChallengeId = Type.String({ pattern: '^[A-Za-z0-9_-]{22}$' });
/** A code from an authenticator app: 6 digits. */
export const TOTP_CODE_PATTERN = '^[0-9]{6}$';
/** A recovery code as shown (`abcde-fghij`, base32 letters); case and the dash are forgiven. */
export const RECOVERY_CODE_PATTERN = '^[A-Za-z2-7]{5}-?[A-Za-z2-7]{5}$';

/** A credential as `navigator.credentials` gives it, in JSON (checked by the WebAuthn library). */
const Credential = Type.Object(
  { id: Type.String({ maxLength: 1024 }), rawId: Type.String({ maxLength: 1024 }), type: Type.Literal('public-key'), response: Type.Object({}, { additionalProperties: true }) },
  { additionalProperties: true },
);
/** Options for `navigator.credentials.create/get` (WebAuthn JSON), made by the server. */
const CredentialOptions = Type.Object({}, { additionalProperties: true });

export const StaffMemberSchema = Type.Object({ id: Id, email: Type.String(), role: Role });
export type StaffMember = Static<typeof StaffMemberSchema>;

/**
 * The apps a release manager may change the releases of (APP_NAMES); empty for every other role.
 * Any text within bounds passes the schema: the API refuses the rest with releaseAppsProblem's message.
 */
const ReleaseAppsInput = Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 });

/** A member with their rights: the role, and a release manager's apps. */
export const TeamMemberSchema = Type.Object({ ...StaffMemberSchema.properties, releaseApps: Type.Array(Type.String()) });
export type TeamMember = Static<typeof TeamMemberSchema>;

/** GET /api/staff/session: who is signed in, and the token state-changing requests carry. */
export const StaffSessionSchema = Type.Object({
  member: TeamMemberSchema,
  csrfToken: Type.String(),
  passkeys: Type.Integer(),
  totp: Type.Boolean(),
  recoveryCodesLeft: Type.Integer(),
});
export type StaffSession = Static<typeof StaffSessionSchema>;

export const CredentialOptionsResponseSchema = Type.Object({ challengeId: Type.String(), options: CredentialOptions });
export type CredentialOptionsResponse = Static<typeof CredentialOptionsResponseSchema>;

/** A new authenticator-app secret to confirm: as text, as an otpauth:// link and as a QR code image. */
export const TotpSetupResponseSchema = Type.Object({ challengeId: Type.String(), secret: Type.String(), uri: Type.String(), qrCode: Type.String() });
export type TotpSetupResponse = Static<typeof TotpSetupResponseSchema>;

export const RecoveryCodesResponseSchema = Type.Object({ recoveryCodes: Type.Array(Type.String()) });
export type RecoveryCodesResponse = Static<typeof RecoveryCodesResponseSchema>;

/** A finished invitation: the new member is signed in, and sees their recovery codes once. */
export const InvitationAcceptedSchema = Type.Object({ session: StaffSessionSchema, recoveryCodes: Type.Array(Type.String()) });
export type InvitationAccepted = Static<typeof InvitationAcceptedSchema>;

export const PasskeyBodySchema = Type.Object({ challengeId: ChallengeId, credential: Credential }, { additionalProperties: false });
export const TotpConfirmBodySchema = Type.Object({ challengeId: ChallengeId, code: Type.String({ pattern: TOTP_CODE_PATTERN }) }, { additionalProperties: false });
export const CodeSignInBodySchema = Type.Object({ email: Email, code: Type.String({ pattern: TOTP_CODE_PATTERN }) }, { additionalProperties: false });
export const RecoverySignInBodySchema = Type.Object({ email: Email, code: Type.String({ pattern: RECOVERY_CODE_PATTERN }) }, { additionalProperties: false });

export const InvitationBodySchema = Type.Object({ token: InvitationToken }, { additionalProperties: false });
export const InvitationPasskeyBodySchema = Type.Object({ token: InvitationToken, challengeId: ChallengeId, credential: Credential }, { additionalProperties: false });
export const InvitationTotpBodySchema = Type.Object(
  { token: InvitationToken, challengeId: ChallengeId, code: Type.String({ pattern: TOTP_CODE_PATTERN }) },
  { additionalProperties: false },
);
export const InvitationInfoSchema = Type.Object({ email: Type.String(), role: Role, releaseApps: Type.Array(Type.String()), expiresAt: IsoTime });
export type InvitationInfo = Static<typeof InvitationInfoSchema>;

/** `releaseApps`: required (one app or more) for a release manager, absent or empty otherwise. */
export const InviteBodySchema = Type.Object({ email: Email, role: Role, releaseApps: Type.Optional(ReleaseAppsInput) }, { additionalProperties: false });
export const InviteResponseSchema = Type.Object({ link: Type.String(), expiresAt: IsoTime });
export type InviteResponse = Static<typeof InviteResponseSchema>;
/** A member's role and apps, as an invitation names them. */
export const RoleBodySchema = Type.Object({ role: Role, releaseApps: Type.Optional(ReleaseAppsInput) }, { additionalProperties: false });
export const IdParamsSchema = Type.Object({ id: IdText });
export const SessionParamsSchema = Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' }) });

export const SessionInfoSchema = Type.Object({
  id: Type.String(),
  createdAt: IsoTime,
  lastSeenAt: IsoTime,
  userAgent: Type.String(),
  address: Type.String(),
  current: Type.Boolean(),
});
export type SessionInfo = Static<typeof SessionInfoSchema>;
export const SessionListSchema = Type.Array(SessionInfoSchema);

export const MemberListSchema = Type.Array(Type.Object({ ...TeamMemberSchema.properties, createdAt: IsoTime }));
export type MemberList = Static<typeof MemberListSchema>;

export const AuditEntrySchema = Type.Object({
  seq: Type.Integer(),
  at: IsoTime,
  actor: Type.String(),
  action: Type.String(),
  target: Type.String(),
  address: Type.String(),
  detail: Type.Record(Type.String(), Type.Unknown()),
});
export type AuditEntry = Static<typeof AuditEntrySchema>;
export const AuditQuerySchema = Type.Object(
  { before: Type.Optional(IdText), since: Type.Optional(Type.String({ format: 'date-time' })) },
  { additionalProperties: false },
);
export const AuditPageSchema = Type.Object({ entries: Type.Array(AuditEntrySchema), next: Type.Union([Type.Integer(), Type.Null()]) });
export type AuditPage = Static<typeof AuditPageSchema>;

/** The inbox's filters: in the console's URL as they are here, and in the API's query. */
export const LeadFilterSchema = Type.Object(
  {
    status: Type.Optional(StringEnum<LeadStatus>(LEAD_STATUSES)),
    kind: Type.Optional(StringEnum<LeadKind>(LEAD_KINDS)),
    source: Type.Optional(Type.String({ minLength: 1, maxLength: STAFF_LIMITS.textFilterMax })),
    /** A member's id, or `none` for leads nobody took. */
    assignee: Type.Optional(Type.String({ pattern: '^([1-9][0-9]{0,8}|none)$' })),
    /** Calendar days in Kyiv, inclusive. */
    from: Type.Optional(Type.String({ format: 'date' })),
    to: Type.Optional(Type.String({ format: 'date' })),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: STAFF_LIMITS.searchMax })),
  },
  { additionalProperties: false },
);
export type LeadFilter = Static<typeof LeadFilterSchema>;

/** Fails to compile when the filter's keys and LEAD_FILTER_KEYS (what the console reads from its address) differ. */
type FilterKey = (typeof LEAD_FILTER_KEYS)[number];
export const LEAD_FILTER_KEYS_MATCH: [keyof LeadFilter] extends [FilterKey] ? ([FilterKey] extends [keyof LeadFilter] ? true : never) : never = true;

/** Unknown parameters are dropped before the handler (the API's removeAdditional), never an error. */
export const LeadListQuerySchema = Type.Object(
  {
    ...LeadFilterSchema.properties,
    /** Keyset paging: leads older than this id (the previous page's `next`). */
    before: Type.Optional(IdText),
    /** Leads newer than this id: what arrived since the list was loaded. */
    after: Type.Optional(Type.String({ pattern: '^(0|[1-9][0-9]{0,8})$' })),
  },
  { additionalProperties: false },
);

export const LeadSummarySchema = Type.Object({
  id: Id,
  kind: StringEnum<LeadKind>(LEAD_KINDS),
  receivedAt: IsoTime,
  name: Type.String(),
  email: Type.String(),
  /** The service asked about, or the position applied for. */
  subject: Type.String(),
  source: Type.String(),
  status: StringEnum<LeadStatus>(LEAD_STATUSES),
  assignee: Type.Union([StaffMemberSchema, Type.Null()]),
  version: Type.Integer(),
  /** Why the spam defence held the lead as it arrived; empty when it let it through. */
  spamReasons: Type.Array(SpamReasonSchema),
  /** How many leads the person has sent (this one included): 1 for a first. */
  personLeads: Type.Integer({ minimum: 1 }),
  /** When staff first responded (a status change or a note); null while the lead waits. */
  firstResponseAt: Type.Union([IsoTime, Type.Null()]),
  /** Working minutes the lead waited for that response, or has waited so far. */
  waitedMinutes: Type.Integer({ minimum: 0 }),
  /** Waiting longer than the response target. */
  overdue: Type.Boolean(),
});
export type LeadSummary = Static<typeof LeadSummarySchema>;
export const LeadPageSchema = Type.Object({
  leads: Type.Array(LeadSummarySchema),
  next: Type.Union([Id, Type.Null()]),
  /** Leads the spam defence held in the last seven days, whatever the filter. */
  heldThisWeek: Type.Integer(),
});
export type LeadPage = Static<typeof LeadPageSchema>;

export const LeadDeliverySchema = Type.Object({
  channel: Type.String(),
  status: Type.String(),
  attempts: Type.Integer(),
  lastError: Type.Union([Type.String(), Type.Null()]),
  deliveredAt: Type.Union([IsoTime, Type.Null()]),
});
export const LeadNoteSchema = Type.Object({ id: Id, author: Type.String(), text: Type.String(), createdAt: IsoTime });
export type LeadNote = Static<typeof LeadNoteSchema>;
export const LeadChangeSchema = Type.Object({
  at: IsoTime,
  actor: Type.String(),
  change: Type.String(),
  oldValue: Type.Union([Type.String(), Type.Null()]),
  newValue: Type.Union([Type.String(), Type.Null()]),
});
export type LeadChange = Static<typeof LeadChangeSchema>;

export const LeadDetailSchema = Type.Object({
  ...LeadSummarySchema.properties,
  /** Every field as the visitor sent it, in the form's order (label → text). */
  fields: Type.Array(Type.Object({ name: Type.String(), value: Type.String() })),
  attribution: Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()])),
  deliveries: Type.Array(LeadDeliverySchema),
  notes: Type.Array(LeadNoteSchema),
  history: Type.Array(LeadChangeSchema),
  /** The person's other leads, newest first. */
  personOthers: Type.Array(PersonLeadSchema),
  /** Joined to an earlier lead of the person (staff may unlink it). */
  linked: Type.Boolean(),
});
export type LeadDetail = Static<typeof LeadDetailSchema>;

/** A change of a lead's work, made from `version`: refused (409) when the lead moved on since. */
export const LeadUpdateBodySchema = Type.Object(
  {
    version: Type.Integer({ minimum: 1 }),
    status: Type.Optional(StringEnum<LeadStatus>(LEAD_STATUSES)),
    assigneeId: Type.Optional(Type.Union([Id, Type.Null()])),
  },
  { additionalProperties: false },
);
export type LeadUpdate = Static<typeof LeadUpdateBodySchema>;
export const NoteBodySchema = Type.Object({ text: Type.String({ minLength: 1, maxLength: STAFF_LIMITS.noteMax }) }, { additionalProperties: false });
export const SpamBodySchema = Type.Object(
  { ids: Type.Array(Id, { minItems: 1, maxItems: STAFF_LIMITS.bulkMax, uniqueItems: true }) },
  { additionalProperties: false },
);
export const SpamResponseSchema = Type.Object({ updated: Type.Integer() });
/** «Не спам», from `version`: the lead back to «Нова», its notifications sent now, its sender trusted. */
export const NotSpamBodySchema = Type.Object({ version: Type.Integer({ minimum: 1 }) }, { additionalProperties: false });

/** The spam defence's settings as admins see them: what holds now, and who changed it last (null: the defaults). */
export const SpamSettingsViewSchema = Type.Object({
  ...SpamSettingsSchema.properties,
  version: Type.Integer({ minimum: 0 }),
  updatedAt: Type.Union([IsoTime, Type.Null()]),
  updatedBy: Type.Union([Type.String(), Type.Null()]),
});
export type SpamSettingsView = Static<typeof SpamSettingsViewSchema>;
/** A change of the settings, made from `version`: refused (409) when they moved on since. */
export const SpamSettingsUpdateSchema = Type.Object({ ...SpamSettingsSchema.properties, version: Type.Integer({ minimum: 0 }) }, { additionalProperties: false });
export type SpamSettingsUpdate = Static<typeof SpamSettingsUpdateSchema>;
/** 409 of a settings change: what they are now, so the admin sees what changed. */
export const SpamSettingsConflictSchema = Type.Object({
  error: Type.Object({ code: Type.Literal('SPAM_SETTINGS_CHANGED'), message: Type.String() }),
  current: SpamSettingsViewSchema,
});
export type SpamSettingsConflict = Static<typeof SpamSettingsConflictSchema>;

/** 409 of a lead's update: what the lead is now, so the person sees what changed. */
export const LeadConflictSchema = Type.Object({
  error: Type.Object({ code: Type.Literal('LEAD_CHANGED'), message: Type.String() }),
  current: LeadSummarySchema,
});
export type LeadConflict = Static<typeof LeadConflictSchema>;
