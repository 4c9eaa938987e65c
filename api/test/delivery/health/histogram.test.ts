import { bucketOf, bucketRange, quantile, VITAL_UNITS_PER_VALUE } from '../../../src/delivery/health/histogram';

/** The histogram of `values` (in units), as the recorder counts them. */
function histogram(values: readonly number[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(bucketOf(value), (counts.get(bucketOf(value)) ?? 0) + 1);
  return counts;
}

/** Integers up to 4096, then every 7th up to an hour of milliseconds, and fractions at every scale. */
function sampleValues(): number[] {
  const values: number[] = [];
  for (let value = 0; value <= 4096; value += 1) values.push(value);
  for (let value = 4096; value <= 3_600_000; value += 7) values.push(value);
  for (let exponent = 0; exponent <= 22; exponent += 1) {
    for (const fraction of [0.001, 0.1, 0.25, 0.5, 0.999]) values.push(2 ** exponent + fraction, 3 * 2 ** exponent + fraction);
  }
  return values;
}

describe('bucketOf and bucketRange', () => {
  const values = sampleValues();

  it('puts every value in a bucket whose range holds it', () => {
    const outside = values.filter((value) => {
      const [low, high] = bucketRange(bucketOf(value));
      return !(low <= value && value < high);
    });
    expect(outside).toEqual([]);
  });

  it('has one bucket per unit below 16, and buckets at most 1/16 of their value wide above', () => {
    for (let unit = 0; unit < 16; unit += 1) expect([bucketOf(unit), bucketOf(unit + 0.5)]).toEqual([unit, unit]);
    const widest = values
      .filter((value) => value >= 16)
      .reduce((most, value) => {
        const [low, high] = bucketRange(bucketOf(value));
        return Math.max(most, (high - low) / low);
      }, 0);
    expect(widest).toBeLessThanOrEqual(1 / 16);
  });

  it('numbers buckets in the order of their values, without gaps or overlaps', () => {
    const last = bucketOf(3_600_000);
    expect(last).toBeLessThan(400);
    for (let bucket = 0; bucket < last; bucket += 1) {
      const [low, high] = bucketRange(bucket);
      expect(high).toBeGreaterThan(low);
      expect(bucketRange(bucket + 1)[0]).toBe(high);
      expect(bucketOf(low)).toBe(bucket);
    }
  });

  it('puts negative values in the first bucket', () => {
    expect(bucketOf(-5)).toBe(0);
  });
});

describe('quantile', () => {
  it('is undefined for an empty histogram', () => {
    expect(quantile(new Map(), 0.75)).toBeUndefined();
    expect(quantile(new Map([[40, 0]]), 0.75)).toBeUndefined();
  });

  it('reads p75 of 1..100 ms within 4 %', () => {
    const p75 = quantile(histogram(Array.from({ length: 100 }, (_, index) => index + 1)), 0.75) ?? NaN;
    expect(Math.abs(p75 - 75) / 75).toBeLessThanOrEqual(0.04);
  });

  it('is exact below 16 units', () => {
    expect(quantile(histogram([1, 2, 3, 4]), 0.75)).toBe(3);
    expect(quantile(histogram([7]), 0.75)).toBe(7);
  });

  it.each([
    ['uniform 1..10 000 ms', Array.from({ length: 10_000 }, (_, index) => index + 1), 7_500],
    ['a long tail', [...Array.from({ length: 900 }, () => 200), ...Array.from({ length: 100 }, () => 30_000)], 200],
    ['mostly slow', [...Array.from({ length: 100 }, () => 50), ...Array.from({ length: 900 }, () => 2_500)], 2_500],
  ])('reads p75 of %s within 4 %', (_label, values, expected) => {
    const p75 = quantile(histogram(values), 0.75) ?? NaN;
    expect(Math.abs(p75 - expected) / expected).toBeLessThanOrEqual(0.04);
  });

  it('reads CLS (counted in thousandths) within 4 %', () => {
    const scores = Array.from({ length: 100 }, (_, index) => (index + 1) / 100);
    const units = quantile(histogram(scores.map((score) => score * VITAL_UNITS_PER_VALUE.CLS)), 0.75) ?? NaN;
    expect(Math.abs(units / VITAL_UNITS_PER_VALUE.CLS - 0.75) / 0.75).toBeLessThanOrEqual(0.04);
  });

  it('gives the same answer for a sum of histograms as for all the values at once', () => {
    const first = histogram([120, 300, 950]);
    const second = histogram([80, 4_000, 300, 2_200]);
    const sum = new Map(first);
    for (const [bucket, count] of second) sum.set(bucket, (sum.get(bucket) ?? 0) + count);
    expect(quantile(sum, 0.75)).toBe(quantile(histogram([120, 300, 950, 80, 4_000, 300, 2_200]), 0.75));
  });

  it('reads the smallest and the largest values at q 0 and 1', () => {
    const counts = histogram([5, 1_000, 60_000]);
    expect(quantile(counts, 0)).toBe(5);
    expect(Math.abs((quantile(counts, 1) ?? NaN) - 60_000) / 60_000).toBeLessThanOrEqual(1 / 32);
  });
});
