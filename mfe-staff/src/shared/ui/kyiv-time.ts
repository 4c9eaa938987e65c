import { kyivInstant, kyivOffsetMs, STAFF_LOCALE, STAFF_TIME_ZONE } from '@agency/shared';

const DATE_TIME = new Intl.DateTimeFormat(STAFF_LOCALE, { timeZone: STAFF_TIME_ZONE, dateStyle: 'short', timeStyle: 'short' });

/** An ISO instant as the agency reads it: date and time in Kyiv, in Ukrainian. */
export function kyivDateTime(iso: string): string {
  return DATE_TIME.format(new Date(iso));
}

const DATE = new Intl.DateTimeFormat(STAFF_LOCALE, { timeZone: STAFF_TIME_ZONE, dateStyle: 'short' });

/** An ISO instant's day in Kyiv, in Ukrainian (a week's start, say). */
export function kyivDate(iso: string): string {
  return DATE.format(new Date(iso));
}

/** An instant as a `datetime-local` value: the wall time in Kyiv (`2026-12-01T09:00`). */
export function isoToKyivWallTime(iso: string): string {
  const instant = Date.parse(iso);
  return new Date(instant + kyivOffsetMs(instant)).toISOString().slice(0, 16);
}

/** A `datetime-local` value read as the wall time in Kyiv, whatever the browser's own zone: an ISO instant. */
export function kyivWallTimeToIso(value: string): string {
  const [date = '', time = ''] = value.split('T');
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return new Date(kyivInstant({ year, month: month - 1, date: day }, hour * 60 + minute)).toISOString();
}

/** The zone's name at `iso` as people read it: «за Києвом, UTC+2». */
export function kyivZoneLabel(iso: string): string {
  return `за київським часом, UTC+${kyivOffsetMs(Date.parse(iso)) / 3_600_000}`;
}
