const MS_PER_DAY = 24 * 60 * 60 * 1000;

/** `months` calendar months before `now` (UTC), in ms since the epoch. */
export function monthsBefore(now: number, months: number): number {
  const date = new Date(now);
  date.setUTCMonth(date.getUTCMonth() - months);
  return date.getTime();
}

/** `days` whole days of 24 hours before `now`, in ms since the epoch. */
export function daysBefore(now: number, days: number): number {
  return now - days * MS_PER_DAY;
}
