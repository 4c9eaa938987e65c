// One formatter for every date in this remote; the spec asks for the uk-UA locale. Dates are
// read on the agency's clock (Lviv), so a post keeps its date for visitors in any time zone.
const ukDateFormatter = new Intl.DateTimeFormat('uk-UA', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Europe/Kyiv',
});

/** '2026-03-15T10:00:00Z' → '15 березня 2026 р.'; an unparsable value yields an empty string. */
export function formatPostDate(isoDate: string): string {
  const date = new Date(isoDate);
  return Number.isNaN(date.getTime()) ? '' : ukDateFormatter.format(date);
}
