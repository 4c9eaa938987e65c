import { POST_LOADING_TEXT, POST_NOT_FOUND_TEXT } from '../constants/blog';
import { TOAST_CONTAINER, TOAST_MESSAGES } from '../constants/toasts';
import { APOSTROPHE, NO_BREAK_SPACE, typeset } from './typography';

const NB = NO_BREAK_SPACE;

describe('typeset', () => {
  it('chooses the one apostrophe U+02BC', () => {
    expect(APOSTROPHE).toBe('\u02bc');
  });

  it('turns straight and typographic apostrophes between letters into ʼ', () => {
    expect(typeset("пʼять, п'ять, п’ять")).toBe('пʼять, пʼять, пʼять');
    expect(typeset("Кав'ярня «Зерно» обʼєднала сім'ї")).toBe('Кавʼярня «Зерно» обʼєднала сімʼї');
    // Not between two letters: left as typed (a single-quoted word, a foot mark).
    expect(typeset("'слово' та 5'")).toBe("'слово' та 5'");
  });

  it('turns paired straight double quotes into «», with „“ inside', () => {
    expect(typeset('Агенція "Хвиля" у Львові')).toBe(`Агенція «Хвиля» у${NB}Львові`);
    expect(typeset('"Хвиля", "Зерно".')).toBe('«Хвиля», «Зерно».');
    expect(typeset('Вона сказала: "обрати "Хвилю" було просто".')).toBe('Вона сказала: «обрати „Хвилю“ було просто».');
    expect(typeset('"про «Хвилю»"')).toBe('«про „Хвилю“»');
    // Unpaired or not quoting anything: left alone.
    expect(typeset('Екран 15" і більше')).toBe(`Екран 15" і${NB}більше`);
    expect(typeset('" окремо "')).toBe('" окремо "');
  });

  it('puts a no-break space after every one-letter word, either case', () => {
    for (const word of ['а', 'в', 'з', 'і', 'й', 'о', 'у', 'я']) {
      expect(typeset(`слово ${word} слово`)).toBe(`слово ${word}${NB}слово`);
      const capital = word.toUpperCase();
      expect(typeset(`${capital} слово`)).toBe(`${capital}${NB}слово`);
    }
    // Several in a row, after punctuation and brackets.
    expect(typeset('Ми тут, а й у місті (в центрі)')).toBe(`Ми тут, а${NB}й${NB}у${NB}місті (в${NB}центрі)`);
  });

  it('leaves letters that end longer tokens, other letters and digits alone', () => {
    expect(typeset('1-й день, 5 хвилин, т.з ідея, ми б хотіли, є вибір')).toBe('1-й день, 5 хвилин, т.з ідея, ми б хотіли, є вибір');
    expect(typeset('a b I')).toBe('a b I');
  });

  it('puts a no-break space before a dash between spaces', () => {
    expect(typeset('Хвиля — агенція')).toBe(`Хвиля${NB}— агенція`);
    expect(typeset('9:00 – 18:00')).toBe(`9:00${NB}– 18:00`);
    expect(typeset('слово —')).toBe(`слово${NB}—`);
    expect(typeset('так, — сказала вона')).toBe(`так,${NB}— сказала вона`);
    // Not a dash between spaces: a range, a hyphen, a dash opening the text.
    expect(typeset('— Так, чотири–пʼять, будь-які')).toBe('— Так, чотири–пʼять, будь-які');
  });

  it('leaves URLs and e-mail addresses alone', () => {
    const url = "https://example.com/a'b/в \"x\"";
    expect(typeset(`Дивіться ${url}`)).toBe(`Дивіться https://example.com/a'b/в «x»`);
    expect(typeset("пишіть на o'brien@example.com або www.site.ua/п'ять")).toBe("пишіть на o'brien@example.com або www.site.ua/п'ять");
    expect(typeset('"https://example.com"')).toBe('«https://example.com»');
  });

  it('never changes digits nor the length of the text', () => {
    const text = 'У 2026 році 12 500 ₴ — це "багато"? Так, а 3,5% — ні.';
    const result = typeset(text);
    expect(result.length).toBe(text.length);
    expect(result.replace(/\D/g, '')).toBe(text.replace(/\D/g, ''));
  });

  it('is idempotent', () => {
    const samples = [
      "Кав'ярня \"Зерно\" — це місце, де я п'ю каву і працюю з ноутбуком.",
      'Ми тут, а й у місті; "а "б" в"',
      '"x "y" z" і "а"',
      'Вона сказала: "обрати "Хвилю" було просто" — і пішла.',
      'Дивіться https://example.com/в та o\'brien@example.com',
      `вже${NB}— типографіка, а${NB}й${NB}усе`,
      '',
      ' — ',
      'я',
    ];
    for (const sample of samples) {
      const once = typeset(sample);
      expect(typeset(once)).toBe(once);
    }
  });

  it('leaves the spec strings exactly as they are', () => {
    const specStrings = [...Object.values(TOAST_MESSAGES), TOAST_CONTAINER['aria-label'], POST_NOT_FOUND_TEXT, POST_LOADING_TEXT];
    for (const text of specStrings) expect(typeset(text)).toBe(text);
  });
});
