/** Regular expressions (as JSON-schema `pattern` strings) of the API's contracts. Plain values. */

/** Local part, then a domain with at least one dot; ASCII only. */
export const EMAIL_PATTERN =
  "^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$";

/** An article's slug: lowercase Latin words joined by single hyphens. */
export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';

/** Digits with + ( ) - and spaces; 7 to 20 digits in total. */
export const PHONE_PATTERN = '^(?:[ ()+-]*[0-9]){7,20}[ ()+-]*$';

function digitRange(from: number, to: number): string {
  return from === to ? String(from) : `[${from}-${to}]`;
}

function anyDigits(count: number): string {
  if (count === 0) return '';
  return count === 1 ? '[0-9]' : `[0-9]{${count}}`;
}

/**
 * A pattern of the integers 1..`max` in canonical form (no sign, no leading zero). Query values
 * reach the API as strings and Ajv's type coercion is off, so a numeric range has to be a pattern;
 * building it from `max` keeps the limit written once.
 */
export function positiveIntegerPattern(max: number): string {
  if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`max must be a positive integer, got ${max}`);
  const digits = String(max);
  const alternatives: string[] = [];
  // Every number with fewer digits than max.
  if (digits.length > 1) alternatives.push(`[1-9]${digits.length === 2 ? '' : `[0-9]{0,${digits.length - 2}}`}`);
  // Numbers as long as max: max's first i digits, then a smaller digit, then any digits.
  for (let index = 0; index < digits.length; index += 1) {
    const lowest = index === 0 ? 1 : 0;
    const below = Number(digits[index]) - 1;
    if (below >= lowest) {
      alternatives.push(`${digits.slice(0, index)}${digitRange(lowest, below)}${anyDigits(digits.length - index - 1)}`);
    }
  }
  alternatives.push(digits);
  return `^(?:${alternatives.join('|')})$`;
}

/** Text without control characters (C0, DEL, C1): what a single-line value may hold. */
export const NO_CONTROL_CHARACTERS_PATTERN = '^[^\\u0000-\\u001F\\u007F-\\u009F]*$';

/** A UTC time as `Date.prototype.toISOString` writes it. */
export const ISO_UTC_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,3})?Z$';

/** A host as a URL parser gives it: a name, an IPv4 address or a bracketed IPv6 one, maybe a port. */
export const HOST_PATTERN = '^[A-Za-z0-9.\\[\\]:-]+$';

/** A path of this site (what the landing page is recorded as): starts with a slash, one line. */
export const SITE_PATH_PATTERN = '^/[^\\u0000-\\u001F\\u007F-\\u009F]*$';
