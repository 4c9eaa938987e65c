import { STAFF_TIME_ZONE } from '@agency/shared';

/**
 * The inbox's date filters name calendar days in Kyiv; the database stores UTC. The UTC instant
 * a Kyiv day begins, summer time included.
 */
const PARTS = new Intl.DateTimeFormat('en-US', {
  timeZone: STAFF_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** How far Kyiv's wall clock is ahead of UTC at `instant`, in ms. */
function kyivOffset(instant: number): number {
  const parts = Object.fromEntries(PARTS.formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return wall - Math.floor(instant / 1000) * 1000;
}

/** `YYYY-MM-DD` (a Kyiv day) → the ISO instant it begins; `plusDays` moves the day first. */
export function kyivDayStart(day: string, plusDays = 0): string {
  const [year, month, date] = day.split('-').map(Number);
  const midnightAsUtc = Date.UTC(year!, month! - 1, date! + plusDays);
  let instant = midnightAsUtc - kyivOffset(midnightAsUtc);
  // Near a change of summer time the first guess used the other offset: once more settles it.
  instant = midnightAsUtc - kyivOffset(instant);
  return new Date(instant).toISOString();
}
