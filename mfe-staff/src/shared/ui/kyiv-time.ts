import { STAFF_LOCALE, STAFF_TIME_ZONE } from '@agency/shared';

const DATE_TIME = new Intl.DateTimeFormat(STAFF_LOCALE, { timeZone: STAFF_TIME_ZONE, dateStyle: 'short', timeStyle: 'short' });

/** An ISO instant as the agency reads it: date and time in Kyiv, in Ukrainian. */
export function kyivDateTime(iso: string): string {
  return DATE_TIME.format(new Date(iso));
}
