import { Type, type Static } from '@sinclair/typebox';
import { BROWSER_ERROR_KINDS, UNKNOWN_PAGE, VITAL_NAMES } from '../telemetry/telemetry-events';
import { APP_NAMES } from './app-names';
import { VisitSessionSchema } from './attribution';
import { TELEMETRY_LIMITS } from './limits';
import { StringEnum } from './schema-builders';

/**
 * A browser's beacon to `POST /api/telemetry`: page views, Web Vitals and errors, each tagged with
 * the page's route pattern and the releases it belongs to, and the browser session's visit. Three
 * lists of one shape each (no union), so a malformed item is a plain 400 and nothing in a valid
 * one is dropped or guessed.
 */

const AppName = StringEnum(APP_NAMES);

/** A release id as the release store names them, or `dist`/`external` for unreleased apps. */
const ReleaseId = Type.String({ minLength: 1, maxLength: TELEMETRY_LIMITS.release, pattern: '^[0-9A-Za-z][0-9A-Za-z.+_-]*$' });

/** A route pattern (`/`, `/blog/:postId`), never an address with its ids or query. */
const PagePattern = Type.String({
  minLength: 1,
  maxLength: TELEMETRY_LIMITS.page,
  pattern: `^(?:\\${UNKNOWN_PAGE}|/[A-Za-z0-9/:._-]*)$`,
});

/** The release of each app the page view ran: the shell and the remotes on the page. */
const PageReleases = Type.Record(Type.String({ pattern: `^(?:${APP_NAMES.join('|')})$` }), ReleaseId, {
  minProperties: 1,
  additionalProperties: false,
});

export const TelemetryPageViewSchema = Type.Object({ page: PagePattern, releases: PageReleases }, { additionalProperties: false });

export const TelemetryVitalSchema = Type.Object(
  {
    name: StringEnum(VITAL_NAMES),
    /** Milliseconds, or CLS's unitless score. */
    value: Type.Number({ minimum: 0, maximum: TELEMETRY_LIMITS.vitalValue }),
    page: PagePattern,
    releases: PageReleases,
  },
  { additionalProperties: false },
);

export const TelemetryErrorSchema = Type.Object(
  {
    kind: StringEnum(BROWSER_ERROR_KINDS),
    app: AppName,
    release: ReleaseId,
    page: PagePattern,
    message: Type.String({ maxLength: TELEMETRY_LIMITS.message }),
    stack: Type.Optional(Type.String({ maxLength: TELEMETRY_LIMITS.stack })),
    /** How often it happened since the last report (repeats are sent once). */
    count: Type.Integer({ minimum: 1, maximum: TELEMETRY_LIMITS.errorCount }),
  },
  { additionalProperties: false },
);

export const TelemetryBatchSchema = Type.Object(
  {
    page_views: Type.Optional(Type.Array(TelemetryPageViewSchema, { maxItems: TELEMETRY_LIMITS.pageViews })),
    vitals: Type.Optional(Type.Array(TelemetryVitalSchema, { maxItems: TELEMETRY_LIMITS.vitals })),
    errors: Type.Optional(Type.Array(TelemetryErrorSchema, { maxItems: TELEMETRY_LIMITS.errors })),
    /** The browser session's visit and its source, counted once per id (conversion by source). */
    session: Type.Optional(VisitSessionSchema),
  },
  { additionalProperties: false },
);

export type TelemetryPageView = Static<typeof TelemetryPageViewSchema>;
export type TelemetryVital = Static<typeof TelemetryVitalSchema>;
export type TelemetryError = Static<typeof TelemetryErrorSchema>;
export type TelemetryBatch = Static<typeof TelemetryBatchSchema>;
