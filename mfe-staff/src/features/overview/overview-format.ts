import { changePercentText, STAFF_LOCALE, STAFF_TIME_ZONE, type RollupGrain } from '@agency/shared';

/**
 * How a figure moved since the period before: «+12 % до попереднього періоду», «Без змін»; «—»
 * when there was nothing before to compare with.
 */
export function changeText(current: number | null, previous: number | null): string {
  const change = changePercentText(current, previous);
  if (change === undefined) return '—';
  return change === '0 %' ? 'Без змін' : `${change} до попереднього періоду`;
}

const HOUR = new Intl.DateTimeFormat(STAFF_LOCALE, { timeZone: STAFF_TIME_ZONE, hour: '2-digit', minute: '2-digit' });
const DAY = new Intl.DateTimeFormat(STAFF_LOCALE, { timeZone: STAFF_TIME_ZONE, day: '2-digit', month: '2-digit' });
const FULL_DAY = new Intl.DateTimeFormat(STAFF_LOCALE, { timeZone: STAFF_TIME_ZONE, dateStyle: 'short' });
const MONTH = new Intl.DateTimeFormat(STAFF_LOCALE, { timeZone: STAFF_TIME_ZONE, month: 'short', year: 'numeric' });
const FULL_MONTH = new Intl.DateTimeFormat(STAFF_LOCALE, { timeZone: STAFF_TIME_ZONE, month: 'long', year: 'numeric' });

/** How the chart speaks of its points: «за годинами», and a table's column «Година». */
export const SERIES_WORDS: Record<RollupGrain, { by: string; column: string }> = {
  hour: { by: 'за годинами', column: 'Година' },
  day: { by: 'за днями', column: 'День' },
  month: { by: 'за місяцями', column: 'Місяць' },
};

/** A point of the series on an axis, in Kyiv: its hour («09:00»), day («25.11») or month. */
export const pointLabel = (instant: number, grain: RollupGrain) => ({ hour: HOUR, day: DAY, month: MONTH })[grain].format(new Date(instant));

/** A point of the series in a table's row, in Kyiv: its hour, whole day («25.11.26») or month. */
export const pointRowLabel = (instant: number, grain: RollupGrain) => ({ hour: HOUR, day: FULL_DAY, month: FULL_MONTH })[grain].format(new Date(instant));
