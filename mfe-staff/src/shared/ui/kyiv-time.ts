import { STAFF_LOCALE, STAFF_TIME_ZONE } from '@agency/shared';

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

const PARTS = new Intl.DateTimeFormat('en-CA', {
  timeZone: STAFF_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'shortOffset',
});

function kyivParts(date: Date): Record<string, string> {
  return Object.fromEntries(PARTS.formatToParts(date).map((part) => [part.type, part.value]));
}

/** Kyiv's offset from UTC at `date`, in minutes (120 in winter, 180 in summer). */
function kyivOffsetMinutes(date: Date): number {
  const match = /GMT([+-])(\d{1,2})(?::(\d{2}))?/.exec(kyivParts(date).timeZoneName ?? '');
  if (!match) return 0;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3] ?? 0));
}

/** An instant as a `datetime-local` value: the wall time in Kyiv (`2026-12-01T09:00`). */
export function isoToKyivWallTime(iso: string): string {
  const parts = kyivParts(new Date(iso));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** A `datetime-local` value read as the wall time in Kyiv, whatever the browser's own zone: an ISO instant. */
export function kyivWallTimeToIso(value: string): string {
  const [date = '', time = ''] = value.split('T');
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // The offset at the instant itself: twice, so a time next to a clock change settles.
  let instant = wall - kyivOffsetMinutes(new Date(wall)) * 60_000;
  instant = wall - kyivOffsetMinutes(new Date(instant)) * 60_000;
  return new Date(instant).toISOString();
}

/** The zone's name at `iso` as people read it: «за Києвом, UTC+2». */
export function kyivZoneLabel(iso: string): string {
  const minutes = kyivOffsetMinutes(new Date(iso));
  return `за київським часом, UTC+${minutes / 60}`;
}
