import { Type, type Static } from '@sinclair/typebox';
import { BROWSER_ERROR_KINDS, UNKNOWN_PAGE, VITAL_NAMES } from '../telemetry/telemetry-events';
import { APP_NAMES } from './app-names';
import { VisitSessionSchema } from './attribution';
import { TELEMETRY_LIMITS } from './limits';
import { StringEnum } from './schema-builders';
import { SITE_PATH_PATTERN } from './patterns';
import { DEVICE_CLASSES, SITE_ANALYTICS_LIMITS, type DeviceClass } from './site-analytics-constants';
import { LEAD_KINDS, type LeadKind } from './staff-constants';

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

const FormKinds = Type.Array(StringEnum<LeadKind>(LEAD_KINDS), { maxItems: LEAD_KINDS.length, uniqueItems: true });

/**
 * What the owner's dashboard counts of a page view: the page's path (a post's, not its pattern),
 * the screen's device class, the time the page was visible, and the forms on it seen and started.
 * The browser leaves it out under Do-Not-Track or Global Privacy Control. `continued`: a page view
 * already sent, reporting only its further time and forms started since.
 */
export const PageAnalyticsSchema = Type.Object(
  {
    path: Type.String({ minLength: 1, maxLength: SITE_ANALYTICS_LIMITS.pathMax, pattern: SITE_PATH_PATTERN }),
    device: StringEnum<DeviceClass>(DEVICE_CLASSES),
    engaged_ms: Type.Integer({ minimum: 0, maximum: SITE_ANALYTICS_LIMITS.engagedMsMax }),
    forms_seen: Type.Optional(FormKinds),
    forms_started: Type.Optional(FormKinds),
    continued: Type.Optional(Type.Literal(true)),
  },
  { additionalProperties: false },
);

export const TelemetryPageViewSchema = Type.Object(
  {
    page: PagePattern,
    releases: PageReleases,
    /** A page load outside release health's sample: counted by the dashboard only. */
    sampled: Type.Optional(Type.Literal(false)),
    analytics: Type.Optional(PageAnalyticsSchema),
  },
  { additionalProperties: false },
);

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
export type PageAnalytics = Static<typeof PageAnalyticsSchema>;
export type TelemetryVital = Static<typeof TelemetryVitalSchema>;
export type TelemetryError = Static<typeof TelemetryErrorSchema>;
export type TelemetryBatch = Static<typeof TelemetryBatchSchema>;
