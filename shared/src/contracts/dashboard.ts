import { Type, type Static } from '@sinclair/typebox';
import { ATTRIBUTION_VALUE_MAX } from './limits';
import { NO_CONTROL_CHARACTERS_PATTERN, SITE_PATH_PATTERN } from './patterns';
import { StringEnum } from './schema-builders';
import { DASHBOARD_PERIODS, DEVICE_CLASSES, ROLLUP_GRAINS, SITE_ANALYTICS_LIMITS, type DashboardPeriod, type DeviceClass, type RollupGrain } from './site-analytics-constants';
import { LEAD_KINDS, type LeadKind } from './staff-constants';

/**
 * The owner's dashboard («Огляд», `GET /api/staff/overview`): visits, leads and won clients of a
 * period beside the period before it, filtered by any row clicked.
 */

const KyivDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const FilterText = Type.String({ minLength: 1, maxLength: ATTRIBUTION_VALUE_MAX, pattern: NO_CONTROL_CHARACTERS_PATTERN });

export const DashboardQuerySchema = Type.Object(
  {
    period: Type.Optional(StringEnum<DashboardPeriod>(DASHBOARD_PERIODS)),
    /** With `range`: the first and the last Kyiv day shown. */
    from: Type.Optional(KyivDate),
    to: Type.Optional(KyivDate),
    page: Type.Optional(Type.String({ minLength: 1, maxLength: SITE_ANALYTICS_LIMITS.pathMax, pattern: SITE_PATH_PATTERN })),
    source: Type.Optional(FilterText),
    campaign: Type.Optional(FilterText),
    device: Type.Optional(StringEnum<DeviceClass>(DEVICE_CLASSES)),
  },
  { additionalProperties: false },
);
export type DashboardQuery = Static<typeof DashboardQuerySchema>;

const Count = Type.Integer({ minimum: 0 });
/** Leads per visitor, 0–1 to a hundredth of a percent; null without visitors. */
const Rate = Type.Union([Type.Number(), Type.Null()]);

const FiguresSchema = Type.Object({
  visitors: Count,
  pageViews: Count,
  /** Average time on the site per visitor, in whole seconds (time on the page, filtered by one). */
  secondsPerVisitor: Count,
  leads: Count,
  conversionRate: Rate,
  won: Count,
});
export type DashboardFigures = Static<typeof FiguresSchema>;

const RowSchema = Type.Object({
  /** What a click filters by: the page's path, the source, the campaign or the device class. */
  key: Type.String(),
  /** A post's title; the key otherwise. */
  label: Type.String(),
  visitors: Count,
  pageViews: Count,
  leads: Count,
  conversionRate: Rate,
  won: Count,
});
export type DashboardRow = Static<typeof RowSchema>;

export const DashboardSchema = Type.Object({
  period: StringEnum<DashboardPeriod>(DASHBOARD_PERIODS),
  /** Kyiv days shown, and the days of the period before, as long. */
  from: KyivDate,
  to: KyivDate,
  previousFrom: KyivDate,
  previousTo: KyivDate,
  /** The filters applied (as asked, after validation). */
  filters: Type.Object({
    page: Type.Optional(Type.String()),
    source: Type.Optional(Type.String()),
    campaign: Type.Optional(Type.String()),
    device: Type.Optional(StringEnum<DeviceClass>(DEVICE_CLASSES)),
  }),
  totals: FiguresSchema,
  previous: FiguresSchema,
  /** What the series' points are: hours for one day, Kyiv days up to SITE_ANALYTICS_LIMITS.dailySeriesDaysMax, else Kyiv months. */
  seriesGrain: StringEnum<RollupGrain>(ROLLUP_GRAINS),
  /** A point per hour, day or month (the first and last month may be partial); `start` is the instant it begins, or the range's start. */
  series: Type.Array(Type.Object({ start: Type.String(), visitors: Count, pageViews: Count, leads: Count, won: Count })),
  pages: Type.Array(RowSchema),
  posts: Type.Array(RowSchema),
  sources: Type.Array(RowSchema),
  campaigns: Type.Array(RowSchema),
  devices: Type.Array(RowSchema),
  /** Per form: visitors who saw it and who started it, leads it sent, and of those won. */
  funnels: Type.Array(Type.Object({ form: StringEnum<LeadKind>(LEAD_KINDS), seen: Count, started: Count, sent: Count, won: Count })),
  /** Whether the signed-in member gets the weekly e-mail (admins only may). */
  weeklyReport: Type.Boolean(),
});
export type Dashboard = Static<typeof DashboardSchema>;

/** An admin turns their own weekly e-mail on or off. */
export const WeeklyReportChoiceSchema = Type.Object({ weeklyReport: Type.Boolean() }, { additionalProperties: false });
export type WeeklyReportChoice = Static<typeof WeeklyReportChoiceSchema>;
