import { conversionRate } from './conversion-rate';

describe('conversionRate', () => {
  it('is leads per session, to a hundredth of a percent', () => {
    expect(conversionRate(1, 2)).toBe(0.5);
    expect(conversionRate(1, 3)).toBe(0.3333);
    expect(conversionRate(2, 3)).toBe(0.6667);
    expect(conversionRate(0, 5)).toBe(0);
    // More leads than counted sessions (a visit whose beacon never came) is said as it is.
    expect(conversionRate(3, 2)).toBe(1.5);
  });

  it('is null without sessions, not infinite or NaN', () => {
    expect(conversionRate(0, 0)).toBeNull();
    expect(conversionRate(4, 0)).toBeNull();
  });
});
