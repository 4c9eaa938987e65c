import { normalizeTextInput } from '../../../../src/site/leads/submissions/text-input';

describe('normalizeTextInput', () => {
  it('trims and keeps ordinary text, emoji sequences included', () => {
    expect(normalizeTextInput('  Олена Петренко \n')).toEqual({ ok: true, text: 'Олена Петренко' });
    expect(normalizeTextInput('Дякую ❤️ 👩‍💻')).toEqual({ ok: true, text: 'Дякую ❤️ 👩‍💻' });
  });

  it('stores one Unicode form (NFC) of the same letters', () => {
    const decomposed = 'Андрі\u0438\u0306'; // и + combining breve
    expect(normalizeTextInput(decomposed)).toEqual({ ok: true, text: 'Андрій' });
  });

  it.each([
    ['zero-width spaces', '\u200B\u200B\u200B'],
    ['joiners and a word joiner', '\u200C\u200D\u2060'],
    ['a byte order mark', '\uFEFF'],
    ['Hangul fillers', '\u3164\u115F'],
    ['a soft hyphen', '\u00AD'],
    ['a lone combining mark', '\u0301'],
    ['blank braille', '\u2800\u2800'],
    ['no-break and ideographic spaces', '\u00A0\u3000'],
    ['a variation selector', '\uFE0F'],
  ])('makes text of only %s empty, so a required field counts as not filled', (_case, value) => {
    expect(normalizeTextInput(value)).toEqual({ ok: true, text: '' });
  });

  it('keeps visible text that contains invisible characters', () => {
    expect(normalizeTextInput('\u200BІван\u200B')).toEqual({ ok: true, text: '\u200BІван\u200B' });
  });

  it.each([
    ['a lone high surrogate', 'Іван\uD83D'],
    ['a lone low surrogate', '\uDE00Іван'],
    ['reversed surrogates', '\uDE00\uD83D'],
  ])('refuses %s as invalid Unicode', (_case, value) => {
    expect(normalizeTextInput(value)).toEqual({ ok: false, reason: 'invalid-unicode' });
  });

  it('refuses NUL', () => {
    expect(normalizeTextInput('a\u0000b')).toEqual({ ok: false, reason: 'nul' });
  });
});
