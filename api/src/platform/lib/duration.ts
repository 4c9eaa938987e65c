/** Milliseconds per unit, by every spelling a setting or an option may use. */
const UNIT_MS = new Map<string, number>([
  ...['ms', 'millisecond', 'milliseconds'].map((spelling) => [spelling, 1] as const),
  ...['s', 'sec', 'secs', 'second', 'seconds'].map((spelling) => [spelling, 1000] as const),
  ...['m', 'min', 'mins', 'minute', 'minutes'].map((spelling) => [spelling, 60_000] as const),
  ...['h', 'hr', 'hrs', 'hour', 'hours'].map((spelling) => [spelling, 3_600_000] as const),
  ...['d', 'day', 'days'].map((spelling) => [spelling, 86_400_000] as const),
]);

const DURATION = /^(\d+(?:\.(\d+))?)\s*([a-z]*)$/i;

export interface DurationOptions {
  /**
   * Only a whole number with its unit (`30m`, `2d`), as command-line options take them: there a
   * bare number such as `2026` is more likely a mistyped date than milliseconds.
   */
  wholeUnits?: boolean;
}

/**
 * `60000` (milliseconds), `250ms`, `1.5 s`, `30 seconds`, `1 minute`, `2h`, `7d` → milliseconds,
 * rounded to whole ones; undefined for anything else. Zero is a duration: callers that need a
 * positive one check it.
 */
export function parseDuration(text: string, { wholeUnits = false }: DurationOptions = {}): number | undefined {
  const match = DURATION.exec(text.trim());
  if (!match) return undefined;
  const [, amount, fraction, unit] = match;
  if (wholeUnits && (fraction !== undefined || unit === '')) return undefined;
  const unitMs = unit ? UNIT_MS.get(unit.toLowerCase()) : 1;
  if (unitMs === undefined) return undefined;
  const ms = Math.round(Number(amount) * unitMs);
  return Number.isFinite(ms) ? ms : undefined;
}
