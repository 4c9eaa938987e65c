import type { VitalName } from '@agency/shared';

/**
 * Log-linear histograms for Web Vitals, stored as counts per bucket so that quantiles can be read
 * back from any sum of them (minutes, pages, processes). Below 16 units each unit is a bucket;
 * above, each power of two is split into 16 equal buckets, so a bucket's middle is within 1/32
 * (about 3 %) of any value in it, at any scale, with about 350 buckets up to an hour.
 */

const SUB_BUCKETS = 16;
const SUB_BITS = 4;

/** Units a vital is counted in: milliseconds, and thousandths of CLS's score. */
export const VITAL_UNITS_PER_VALUE: Record<VitalName, number> = { LCP: 1, INP: 1, FCP: 1, TTFB: 1, CLS: 1000 };

/** The bucket a value (in units, 0 or more) falls in. */
export function bucketOf(units: number): number {
  const value = Math.max(0, units);
  if (value < SUB_BUCKETS) return Math.floor(value);
  const exponent = Math.floor(Math.log2(value));
  const width = 2 ** (exponent - SUB_BITS);
  // Float rounding of log2 near a power of two is absorbed by clamping the sub-bucket.
  const sub = Math.min(SUB_BUCKETS - 1, Math.max(0, Math.floor(value / width) - SUB_BUCKETS));
  return SUB_BUCKETS + (exponent - SUB_BITS) * SUB_BUCKETS + sub;
}

/** The values a bucket holds: [low, high). */
export function bucketRange(bucket: number): [number, number] {
  if (bucket < SUB_BUCKETS) return [bucket, bucket + 1];
  const exponent = Math.floor((bucket - SUB_BUCKETS) / SUB_BUCKETS) + SUB_BITS;
  const sub = (bucket - SUB_BUCKETS) % SUB_BUCKETS;
  const width = 2 ** (exponent - SUB_BITS);
  const low = (SUB_BUCKETS + sub) * width;
  return [low, low + width];
}

/**
 * The `q` quantile (0.75 for p75) of a histogram given as counts per bucket: the middle of the
 * bucket it falls in (a whole unit's own value below 16); undefined for an empty histogram.
 */
export function quantile(counts: ReadonlyMap<number, number>, q: number): number | undefined {
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  if (total <= 0) return undefined;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const bucket of [...counts.keys()].sort((a, b) => a - b)) {
    seen += counts.get(bucket) ?? 0;
    if (seen >= rank) {
      const [low, high] = bucketRange(bucket);
      return bucket < SUB_BUCKETS ? low : (low + high) / 2;
    }
  }
  return undefined;
}
