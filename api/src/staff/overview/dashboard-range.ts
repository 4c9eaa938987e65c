import { DASHBOARD_DEFAULT_PERIOD, kyivDayOf, kyivInstant, nextKyivDay, parseKyivDay, SITE_ANALYTICS_LIMITS, type DashboardPeriod, type DashboardQuery, type DeviceClass, type KyivDay } from '@agency/shared';
import { ApiError } from '../../platform/http/api-error';
import { OVERVIEW_MESSAGES } from './overview-messages';

/** What the dashboard is asked for: whole Kyiv days, and the filters of the rows clicked. */
export interface DashboardFilters {
  page?: string;
  source?: string;
  campaign?: string;
  device?: DeviceClass;
}

export interface DashboardRange {
  period: DashboardPeriod;
  from: KyivDay;
  /** The last day shown (inclusive). */
  to: KyivDay;
  /** As many days, ending the day before `from`. */
  previousFrom: KyivDay;
  previousTo: KyivDay;
  days: number;
  filters: DashboardFilters;
}

const PERIOD_DAYS: Record<Exclude<DashboardPeriod, 'range'>, number> = { today: 1, '7d': 7, '30d': 30 };

/** Kyiv days from `from` to `to`, both counted. */
function daysBetween(from: KyivDay, to: KyivDay): number {
  return Math.round((Date.UTC(to.year, to.month, to.date) - Date.UTC(from.year, from.month, from.date)) / 86_400_000) + 1;
}

/** The instant a Kyiv day begins. */
export const dayStart = (day: KyivDay) => kyivInstant(day);
/** The instant after a Kyiv day ends. */
export const dayEnd = (day: KyivDay) => kyivInstant(nextKyivDay(day));

/**
 * The days a query asks for, at `now`: today, the last 7 or 30 days (today included), or a chosen
 * range of at most SITE_ANALYTICS_LIMITS.rangeDaysMax days; the previous period is as long and
 * ends the day before. A range without both ends, backwards or too long is a 400.
 */
export function resolveRange(query: DashboardQuery, now: number): DashboardRange {
  const { period = DASHBOARD_DEFAULT_PERIOD, from: fromText, to: toText, ...filters } = query;
  const today = kyivDayOf(now);
  let from: KyivDay;
  let to: KyivDay;
  if (period === 'range') {
    const first = fromText === undefined ? undefined : parseKyivDay(fromText);
    const last = toText === undefined ? undefined : parseKyivDay(toText);
    if (!first || !last) throw new ApiError(400, 'INVALID_RANGE', OVERVIEW_MESSAGES.rangeDates);
    if (daysBetween(first, last) < 1) throw new ApiError(400, 'INVALID_RANGE', OVERVIEW_MESSAGES.rangeBackwards);
    if (daysBetween(first, last) > SITE_ANALYTICS_LIMITS.rangeDaysMax) throw new ApiError(400, 'INVALID_RANGE', OVERVIEW_MESSAGES.rangeTooLong);
    from = first;
    to = last;
  } else {
    to = today;
    from = nextKyivDay(today, 1 - PERIOD_DAYS[period]);
  }
  const days = daysBetween(from, to);
  return { period, from, to, previousFrom: nextKyivDay(from, -days), previousTo: nextKyivDay(from, -1), days, filters };
}
