import { Type, type Static, type TOptional, type TString } from '@sinclair/typebox';
import { RANDOM_ID_PATTERN } from '../util/random-id';
import { ATTRIBUTION_KEYS, type AttributionKey } from './attribution-keys';
import { ATTRIBUTION_VALUE_MAX } from './limits';
import { HOST_PATTERN, ISO_UTC_TIME_PATTERN, NO_CONTROL_CHARACTERS_PATTERN, SITE_PATH_PATTERN } from './patterns';

/**
 * Where a lead came from: what the shell remembered of the visitor's landing (campaign tags,
 * click ids, the referring site's host, the landing page and time), sent with each submission.
 * Known keys only, each a single line of at most ATTRIBUTION_VALUE_MAX characters. The API
 * checks it apart from the submission: an invalid attribution is dropped, never a reason to
 * refuse the lead.
 */

const PATTERNS: Partial<Record<AttributionKey, string>> = {
  referrer_host: HOST_PATTERN,
  landing_path: SITE_PATH_PATTERN,
  landed_at: ISO_UTC_TIME_PATTERN,
};

const attributionValue = (key: AttributionKey) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: ATTRIBUTION_VALUE_MAX, pattern: PATTERNS[key] ?? NO_CONTROL_CHARACTERS_PATTERN }));

export const AttributionSchema = Type.Object(
  Object.fromEntries(ATTRIBUTION_KEYS.map((key) => [key, attributionValue(key)])) as Record<AttributionKey, TOptional<TString>>,
  { additionalProperties: false },
);

export type Attribution = Static<typeof AttributionSchema>;

/** One part of a visit's traffic source, as the page-view beacon carries it. */
const SourcePart = Type.String({ minLength: 1, maxLength: ATTRIBUTION_VALUE_MAX, pattern: NO_CONTROL_CHARACTERS_PATTERN });

/**
 * A browser session, counted once by its random id (kept in sessionStorage, no cookie), with
 * where it came from. The beacon carries it so visits can be set against leads by source.
 */
export const VisitSessionSchema = Type.Object(
  {
    id: Type.String({ pattern: RANDOM_ID_PATTERN }),
    source: SourcePart,
    medium: SourcePart,
    campaign: SourcePart,
  },
  { additionalProperties: false },
);

export type VisitSession = Static<typeof VisitSessionSchema>;
