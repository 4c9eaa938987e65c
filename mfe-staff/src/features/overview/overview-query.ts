import {
  DASHBOARD_DEFAULT_PERIOD,
  DASHBOARD_FILTER_KEYS,
  DASHBOARD_PERIODS,
  DEVICE_CLASSES,
  type DashboardFilterKey,
  type DashboardPeriod,
  type DashboardQuery,
  type DeviceClass,
} from '@agency/shared';

/** The dashboard's query as the console uses it: always a period; `from`/`to` with `range` only. */
export type OverviewQuery = DashboardQuery & { period: DashboardPeriod };

const KYIV_DATE = /^\d{4}-\d{2}-\d{2}$/;

const isPeriod = (value: string | null): value is DashboardPeriod => DASHBOARD_PERIODS.includes(value as DashboardPeriod);
const isDevice = (value: string | undefined): value is DeviceClass => DEVICE_CLASSES.includes(value as DeviceClass);

/**
 * The dashboard's period and filters as the address holds them (`?period=30d&source=instagram`),
 * so a view survives a reload and can be shared. Unknown periods fall back to the default; a range
 * without both days, to the default too.
 */
export function queryFromSearch(search: string): OverviewQuery {
  const params = new URLSearchParams(search);
  const asked = params.get('period');
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const query: OverviewQuery = { period: isPeriod(asked) ? asked : DASHBOARD_DEFAULT_PERIOD };
  if (query.period === 'range') {
    if (KYIV_DATE.test(from) && KYIV_DATE.test(to)) Object.assign(query, { from, to });
    else query.period = DASHBOARD_DEFAULT_PERIOD;
  }
  for (const key of DASHBOARD_FILTER_KEYS) {
    const value = params.get(key)?.trim();
    if (!value) continue;
    if (key === 'device') {
      if (isDevice(value)) query.device = value;
    } else query[key] = value;
  }
  return query;
}

/** The address's search for `query`; the default period is left out. */
export function searchFromQuery(query: OverviewQuery): string {
  const params = new URLSearchParams();
  if (query.period !== DASHBOARD_DEFAULT_PERIOD) params.set('period', query.period);
  if (query.period === 'range' && query.from && query.to) {
    params.set('from', query.from);
    params.set('to', query.to);
  }
  for (const key of DASHBOARD_FILTER_KEYS) {
    const value = query[key];
    if (value) params.set(key, value);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The filters `query` applies, in the order the address names them. */
export function activeFilters(query: OverviewQuery): { key: DashboardFilterKey; value: string }[] {
  return DASHBOARD_FILTER_KEYS.flatMap((key) => {
    const value = query[key];
    return value ? [{ key, value }] : [];
  });
}

/** `query` with the filter `key` set to `value`, or removed (`undefined`). */
export function withFilter(query: OverviewQuery, key: DashboardFilterKey, value: string | undefined): OverviewQuery {
  const next: OverviewQuery = { ...query };
  if (value === undefined) delete next[key];
  else if (key === 'device') {
    if (isDevice(value)) next.device = value;
  } else next[key] = value;
  return next;
}

/** `query` showing another period (filters kept); `range` takes its days. */
export function withPeriod(query: OverviewQuery, period: DashboardPeriod, range?: { from: string; to: string }): OverviewQuery {
  const { from: _from, to: _to, ...rest } = query;
  return period === 'range' && range ? { ...rest, period, ...range } : { ...rest, period };
}

/** `query` without any filter: the same period. */
export function withoutFilters(query: OverviewQuery): OverviewQuery {
  const { period, from, to } = query;
  return period === 'range' && from && to ? { period, from, to } : { period };
}
