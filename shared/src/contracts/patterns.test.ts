import { positiveIntegerPattern } from './patterns';

/** What the pattern must accept: the canonical spelling of 1..max, nothing else. */
function expected(text: string, max: number): boolean {
  return /^[1-9][0-9]*$/.test(text) && Number(text) <= max;
}

const CANDIDATES = [
  ...Array.from({ length: 1200 }, (_, n) => String(n)),
  ...['', '00', '01', '007', '-1', '+1', '1.0', '1.5', '1e1', ' 1', '1 ', 'abc', '١'],
];

describe('positiveIntegerPattern', () => {
  it('spells the blog list limit as the API always has', () => {
    expect(positiveIntegerPattern(50)).toBe('^(?:[1-9]|[1-4][0-9]|50)$');
  });

  it.each([1, 2, 9, 10, 11, 19, 20, 50, 99, 100, 101, 109, 110, 199, 200, 250, 999, 1000, 1009, 1099])(
    'matches exactly the integers 1..%i in canonical form',
    (max) => {
      const pattern = new RegExp(positiveIntegerPattern(max), 'u');
      const wrong = CANDIDATES.filter((text) => pattern.test(text) !== expected(text, max));
      expect(wrong).toEqual([]);
    },
  );

  it.each([0, -1, 1.5, Number.NaN])('refuses a max of %p', (max) => {
    expect(() => positiveIntegerPattern(max)).toThrow(RangeError);
  });
});
