/**
 * Ukrainian typography for prose the site shows (blog articles, their titles and excerpts, long
 * UI texts), applied once here instead of by hand in every text:
 *
 * - one apostrophe, U+02BC `ʼ` (the modifier letter of Ukrainian orthography): `'` and `’` between
 *   two letters become it (`пʼять`, `кавʼярня`);
 * - straight double quotes that pair up become «…», and quotes inside them „…“;
 * - a no-break space after every one-letter word (а, в, з, і, й, о, у, я, in either case), so it
 *   never ends a line, and before a dash that stands between spaces (`слово — слово`), so the
 *   dash never starts one.
 *
 * URLs and e-mail addresses are left exactly as they are; digits are never changed. Every rule
 * swaps one character for one character, and `typeset(typeset(x)) === typeset(x)`.
 *
 * For plain text only: Markdown goes through the API's renderer, which applies this to its text
 * tokens (never to code, URLs of links or HTML).
 */

export const APOSTROPHE = '\u02bc';
export const NO_BREAK_SPACE = '\u00a0';

/** Ukrainian one-letter words (prepositions, conjunctions, the pronoun «я», the interjection «о»). */
const ONE_LETTER_WORDS = new Set('аАвВзЗіІйЙоОуУяЯ');
const DASHES = new Set(['\u2014', '\u2013']);

/** Characters that glue a letter to a longer token: `1-й`, `т.в`, `a/b`, `пʼ`. */
const WORD_CHAR = /[\p{L}\p{N}\p{M}_'\u2019\u02bc\-./@]/u;
const WHITESPACE = /\s/u;

/** URLs (with a scheme or `www.`) and e-mail addresses: typeset leaves them alone. */
const PROTECTED = /(?:(?:https?|ftp):\/\/|mailto:|tel:|www\.)[^\s<>"«»„“]+|[\p{L}\p{N}._%+'\u2019\u02bc-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;

// No look-behind: older Safari cannot parse it, and this module is in the browser bundles.
const APOSTROPHE_BETWEEN_LETTERS = /\p{L}['\u2019](?=\p{L})/gu;

/**
 * A pair of straight double quotes: the opening one at the start or after a space, a bracket or
 * a dash, the closing one before the end, a space or punctuation; no space just inside either.
 */
const QUOTED = /(^|[\s([{\u2014\u2013«„])"([^"\s](?:[^"]*?[^"\s])?)"(?=$|[\s.,;:!?…)\]}\u2014\u2013»“])/gu;

// The patterns above with Unicode property classes take V8 milliseconds to compile on first use,
// which every app pays while its first screen renders. Each is run only on text that can match it:
// a URL or address needs one of these marks, a pair of quotes a `"`, an apostrophe `'` or `’`.
const PROTECTED_MARKS = ['@', '://', 'www.', 'mailto:', 'tel:'];

function protectedRanges(text: string): Array<[number, number]> {
  if (!PROTECTED_MARKS.some((mark) => text.includes(mark))) return [];
  return [...text.matchAll(PROTECTED)].map((match) => [match.index, match.index + match[0].length]);
}

/** Whether the character glues a letter to a longer token; blank and absent ones never do. */
function isWordChar(char: string): boolean {
  return char !== '' && char !== ' ' && WORD_CHAR.test(char);
}

/** Replaces single characters at the given offsets (every change here is one character for one). */
function replaceAt(text: string, changes: Map<number, string>): string {
  if (changes.size === 0) return text;
  let result = '';
  for (let index = 0; index < text.length; index++) result += changes.get(index) ?? text[index];
  return result;
}

/** Typesets plain text (see the module comment). Text without any of the rules' cases comes back as it is. */
export function typeset(text: string): string {
  if (text === '') return text;
  const ranges = protectedRanges(text);
  const isProtected = (index: number) => ranges.some(([start, end]) => index >= start && index < end);
  let result = text;

  // Apostrophes between letters.
  if (result.includes("'") || result.includes('\u2019')) {
    const changes = new Map<number, string>();
    for (const match of result.matchAll(APOSTROPHE_BETWEEN_LETTERS)) {
      const at = match.index + match[0].length - 1;
      if (!isProtected(at)) changes.set(at, APOSTROPHE);
    }
    result = replaceAt(result, changes);
  }

  // Quotes, innermost pairs first, until none pair up any more (so a second run finds nothing).
  for (let round = 0; round < 8 && result.includes('"'); round++) {
    const changes = new Map<number, string>();
    for (const match of result.matchAll(QUOTED)) {
      const open = match.index + (match[1] ?? '').length;
      const inner = match[2] ?? '';
      const close = open + 1 + inner.length;
      if (isProtected(open) || isProtected(close)) continue;
      changes.set(open, '«');
      changes.set(close, '»');
      // Quotes already inside become the inner pair.
      for (let offset = 0; offset < inner.length; offset++) {
        const char = inner[offset];
        if (char === '«') changes.set(open + 1 + offset, '„');
        else if (char === '»') changes.set(open + 1 + offset, '“');
      }
    }
    if (changes.size === 0) break;
    result = replaceAt(result, changes);
  }

  // No-break spaces after one-letter words and before a dash between spaces.
  {
    const changes = new Map<number, string>();
    for (let index = 0; index < result.length; index++) {
      if (result[index] !== ' ' || isProtected(index)) continue;
      const before = result[index - 1] ?? '';
      const beforeThat = result[index - 2] ?? '';
      const oneLetterWord = ONE_LETTER_WORDS.has(before) && !isWordChar(beforeThat);
      const after = result[index + 1] ?? '';
      const afterThat = result[index + 2];
      const dashBetweenSpaces = DASHES.has(after) && (afterThat === undefined || WHITESPACE.test(afterThat));
      if (oneLetterWord || dashBetweenSpaces) changes.set(index, NO_BREAK_SPACE);
    }
    result = replaceAt(result, changes);
  }

  return result;
}
