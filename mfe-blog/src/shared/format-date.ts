// Post dates in the uk-UA style ("15 березня 2026 р."), read on the agency's clock (Lviv), so a
// post keeps its date for visitors in any time zone.

/** Month names in the genitive, as uk-UA writes them after a day ("15 березня"). */
const MONTHS_GENITIVE = [
  'січня',
  'лютого',
  'березня',
  'квітня',
  'травня',
  'червня',
  'липня',
  'серпня',
  'вересня',
  'жовтня',
  'листопада',
  'грудня',
] as const;

/**
 * Kyiv time is UTC+2 or UTC+3, so until 21:00 UTC it is still the same calendar day there. Posts
 * are published in the morning, so their dates are spelt here directly: the first Intl date
 * formatter of a page with a time zone costs 30–50 ms of main-thread work (locale and zone data),
 * paid while the post page hydrates. Later hours go through Intl, made on first use.
 */
const SAME_DAY_IN_KYIV_UNTIL_UTC_HOUR = 21;

let kyivFormatter: Intl.DateTimeFormat | undefined;
const kyivDateFormat = () =>
  (kyivFormatter ??= new Intl.DateTimeFormat('uk-UA', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Kyiv' }));

/** '2026-03-15T10:00:00Z' → '15 березня 2026 р.'; an unparsable value yields an empty string. */
export function formatPostDate(isoDate: string): string {
  const date = new Date(isoDate);
  if (Number.isNaN(date.getTime())) return '';
  if (date.getUTCHours() >= SAME_DAY_IN_KYIV_UNTIL_UTC_HOUR) return kyivDateFormat().format(date);
  return `${date.getUTCDate()} ${MONTHS_GENITIVE[date.getUTCMonth()]} ${date.getUTCFullYear()} р.`;
}
