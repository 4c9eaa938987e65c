/**
 * What a visitor's text becomes before it is validated and stored: one Unicode form, no
 * surrounding spaces, and empty when nothing in it would show on screen.
 */

/** A UTF-16 surrogate without its pair: not a character, and stored as invalid UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Anything a reader would see: not a space, not a control or format character (zero-width
 * space, joiners, BOM), not a code point fonts draw as nothing (Hangul fillers, variation
 * selectors), not a lone combining mark, and not the blank braille pattern.
 */
const VISIBLE = /[^\p{White_Space}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{M}\u2800]/u;

export type TextInput = { ok: true; text: string } | { ok: false; reason: 'nul' | 'invalid-unicode' };

export function normalizeTextInput(value: string): TextInput {
  // PostgreSQL cannot store NUL in text, and no form sends it.
  if (value.includes('\u0000')) return { ok: false, reason: 'nul' };
  if (LONE_SURROGATE.test(value)) return { ok: false, reason: 'invalid-unicode' };
  // NFC: the same letter typed on different keyboards (й as one code point or и + breve) is stored alike.
  const text = value.normalize('NFC').trim();
  return { ok: true, text: VISIBLE.test(text) ? text : '' };
}
