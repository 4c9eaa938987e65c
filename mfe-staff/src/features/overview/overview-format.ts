import { changePercentText, STAFF_LOCALE, STAFF_TIME_ZONE } from '@agency/shared';

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

/** A point of the series on an axis, in Kyiv: its hour («09:00») or its day («25.11»). */
export const pointLabel = (instant: number, hourly: boolean) => (hourly ? HOUR : DAY).format(new Date(instant));

/** A point of the series in a table's row, in Kyiv: its hour or its whole day («25.11.26»). */
export const pointRowLabel = (instant: number, hourly: boolean) => (hourly ? HOUR : FULL_DAY).format(new Date(instant));
