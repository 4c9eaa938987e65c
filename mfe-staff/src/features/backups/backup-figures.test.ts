import { agoText, everyText, sizeText, spanText } from './backup-figures';

describe('backup figures', () => {
  it.each([
    [30, '30 секунд'],
    [61, '1 хвилину'],
    [3 * 60, '3 хвилини'],
    [11 * 60, '11 хвилин'],
    [21 * 60, '21 хвилину'],
    [3_600, '1 годину'],
    [22 * 3_600, '22 години'],
    [47 * 3_600 + 3_599, '47 годин'],
    [48 * 3_600, '2 дні'],
    [21 * 86_400, '21 день'],
    [25 * 86_400, '25 днів'],
  ])('%i s is «%s», in the accusative «тому» and «за» take', (seconds, text) => {
    expect(spanText(seconds)).toBe(text);
  });

  it('says how long ago, and how often', () => {
    expect(agoText(59)).toBe('менше хвилини тому');
    expect(agoText(2 * 3_600)).toBe('2 години тому');
    expect(everyText(3_600_000)).toBe('раз на годину');
    expect(everyText(5 * 60_000)).toBe('раз на 5 хвилин');
    expect(everyText(24 * 3_600_000)).toBe('раз на 24 години');
  });

  it.each([
    [0, '0 Б'],
    [999, '999 Б'],
    [1536, '1,5 КіБ'],
    [5 * 1024 * 1024, '5 МіБ'],
    [3.25 * 1024 ** 3, '3,3 ГіБ'],
  ])('%i bytes are «%s»', (bytes, text) => {
    expect(sizeText(bytes)).toBe(text);
  });
});
