/**
 * Text the commands print that came from outside (a visitor's name, a browser's error message) must
 * not act on the terminal: an escape sequence can rewrite what was printed before it or change the
 * terminal's state, a carriage return can overwrite a line, and a bidirectional override can make a
 * line read differently from what it holds. Such characters are printed as `\uXXXX`, which is also
 * how JSON writes them, so a JSON output stays valid and means the same.
 */

/**
 * C0 controls, DEL and C1 controls; the bidirectional marks, embeddings, overrides and isolates;
 * the line and paragraph separators.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;

/** The same, but the line breaks and tabs a command's own output is laid out with (`\r` only in `\r\n`). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_IN_OUTPUT = /\r(?!\n)|[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;

const escape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** One value as it goes into a line of output: every control character escaped, line breaks included. */
export function inertText(text: string): string {
  return text.replace(UNSAFE, escape);
}

/** A command's whole output: its own line breaks and tabs kept, every other control character escaped. */
export function inertOutput(text: string): string {
  return text.replace(UNSAFE_IN_OUTPUT, escape);
}
