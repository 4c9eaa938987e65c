import { Type, type Static } from '@sinclair/typebox';
import { FORM_TOKEN_FIELD, PROOF_OF_WORK_FIELD, SPAM_FIELD_LIMITS, SPAM_REASONS, SPAM_SETTINGS_LIMITS, type SpamReasonCode } from './spam-constants';
import { FORM_NAMES, type FormName } from './form-names';
import { StringEnum } from './schema-builders';


/**
 * What the forms send beside a submission for the spam defence: the form token the page carried
 * (or the challenge route gave) and, from the forms' scripts, the solved proof of work. Either may
 * be missing: the API judges what it gets, it never refuses a submission for them.
 */
export const spamProperties = {
  [FORM_TOKEN_FIELD]: Type.Optional(Type.String({ maxLength: SPAM_FIELD_LIMITS.formToken })),
  [PROOF_OF_WORK_FIELD]: Type.Optional(Type.String({ maxLength: SPAM_FIELD_LIMITS.proof })),
};

/** An ALTCHA (v2) challenge, as altcha-lib creates and solves it. */
export const ProofChallengeSchema = Type.Object({
  parameters: Type.Object({
    algorithm: Type.String(),
    nonce: Type.String(),
    salt: Type.String(),
    cost: Type.Integer(),
    keyLength: Type.Integer(),
    keyPrefix: Type.String(),
    keySignature: Type.Optional(Type.String()),
    expiresAt: Type.Optional(Type.Integer()),
    data: Type.Optional(Type.Record(Type.String(), Type.String())),
  }),
  signature: Type.String(),
});
export type ProofChallenge = Static<typeof ProofChallengeSchema>;

/** `GET /api/forms/:form/challenge`'s form. */
export const FormChallengeParamsSchema = Type.Object({ form: StringEnum<FormName>(FORM_NAMES) }, { additionalProperties: false });

/** `GET /api/forms/:form/challenge`: a fresh form token, and a challenge to solve while the person types. */
export const FormChallengeResponseSchema = Type.Object({ token: Type.String(), challenge: ProofChallengeSchema });
export type FormChallengeResponse = Static<typeof FormChallengeResponseSchema>;

/** What a held submission was held for. */
export const SpamReasonSchema = StringEnum<SpamReasonCode>(SPAM_REASONS);

/** What admins tune without a deploy: the score that holds a submission, and the phrases that count as spam. */
export const SpamSettingsSchema = Type.Object(
  {
    threshold: Type.Integer({ minimum: SPAM_SETTINGS_LIMITS.thresholdMin, maximum: SPAM_SETTINGS_LIMITS.thresholdMax }),
    phrases: Type.Array(Type.String({ minLength: 1, maxLength: SPAM_SETTINGS_LIMITS.phraseMaxLength }), { maxItems: SPAM_SETTINGS_LIMITS.phrasesMax }),
  },
  { additionalProperties: false },
);
export type SpamSettings = Static<typeof SpamSettingsSchema>;
