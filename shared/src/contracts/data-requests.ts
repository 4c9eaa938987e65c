import { Type, type Static } from '@sinclair/typebox';
import { FIELD_LIMITS } from './limits';
import { StringEnum } from './schema-builders';
import { LeadDetailSchema } from './staff';
import { CORRECTABLE_FIELDS, type CorrectableField } from './staff-constants';

/**
 * A person's requests about their data (`/api/staff/data-requests/*`, admins only): everything the
 * site holds about them found by their e-mail or phone, exported, corrected, erased. The person is
 * always named in a POST's body, never in a URL: URLs end up in logs and browser history.
 */

const IsoTime = Type.String();

/** A lookup or an export (`POST …/lookup`, `POST …/export`): an e-mail or a phone number, as the person gives it. */
export const DataSubjectBodySchema = Type.Object({ subject: Type.String({ minLength: 1, maxLength: FIELD_LIMITS.email }) }, { additionalProperties: false });
export type DataSubjectBody = Static<typeof DataSubjectBodySchema>;

/** A notification's copy of a lead, as the outbox keeps it (null once its personal fields were removed). */
export const NotificationCopySchema = Type.Object({
  channel: Type.String(),
  status: Type.String(),
  createdAt: IsoTime,
  deliveredAt: Type.Union([IsoTime, Type.Null()]),
  payload: Type.Unknown(),
  payloadRemovedAt: Type.Union([IsoTime, Type.Null()]),
});

/** A lead of the person: as the console shows it, and the copies its notifications keep. */
export const SubjectLeadSchema = Type.Object({ ...LeadDetailSchema.properties, notifications: Type.Array(NotificationCopySchema) });
export type SubjectLead = Static<typeof SubjectLeadSchema>;

/** An earlier erasure of the same person, found by the keyed hash the audit log keeps. */
export const PastErasureSchema = Type.Object({ at: IsoTime, actor: Type.String(), leads: Type.Integer() });

/** Everything held about a person; also the export's JSON (docs/operations.md describes each field). */
export const DataSubjectReportSchema = Type.Object({
  format: Type.Literal('agency-data-subject/1'),
  generatedAt: IsoTime,
  /** The e-mail (lower case) or the phone's digits searched for. */
  subject: Type.String(),
  matchedBy: StringEnum<'email' | 'phone'>(['email', 'phone']),
  leads: Type.Array(SubjectLeadSchema),
  erasures: Type.Array(PastErasureSchema),
});
export type DataSubjectReport = Static<typeof DataSubjectReportSchema>;

/** An erasure: the subject, and the same typed again to confirm it. */
export const ErasureBodySchema = Type.Object(
  { subject: Type.String({ minLength: 1, maxLength: FIELD_LIMITS.email }), confirmation: Type.String({ maxLength: FIELD_LIMITS.email }) },
  { additionalProperties: false },
);
export type ErasureBody = Static<typeof ErasureBodySchema>;
export const ErasureResultSchema = Type.Object({ leads: Type.Integer(), rows: Type.Record(Type.String(), Type.Integer()) });
export type ErasureResult = Static<typeof ErasureResultSchema>;

/** A correction of one field, made from `version` (refused, 409, when the lead moved on since). */
export const CorrectionBodySchema = Type.Object(
  {
    version: Type.Integer({ minimum: 1 }),
    field: StringEnum<CorrectableField>(CORRECTABLE_FIELDS),
    value: Type.String({ minLength: 1, maxLength: FIELD_LIMITS.email }),
  },
  { additionalProperties: false },
);
export type Correction = Static<typeof CorrectionBodySchema>;
