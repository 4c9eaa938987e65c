/** Decimal places of a conversion rate: a hundredth of a percent. */
const RATE_DECIMALS = 4;

/** Leads per visit (0–1), rounded to a hundredth of a percent; null without visits. */
export function conversionRate(leads: number, visits: number): number | null {
  if (visits === 0) return null;
  const scale = 10 ** RATE_DECIMALS;
  return Math.round((leads / visits) * scale) / scale;
}
