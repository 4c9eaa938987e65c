import { countOf, DAYS } from './plural';

describe('countOf', () => {
  it.each([
    [1, '1 день'],
    [2, '2 дні'],
    [4, '4 дні'],
    [5, '5 днів'],
    [11, '11 днів'],
    [14, '14 днів'],
    [21, '21 день'],
    [22, '22 дні'],
    [30, '30 днів'],
  ])('writes %d days as %s', (count, text) => {
    expect(countOf(count, DAYS)).toBe(text);
  });
});
