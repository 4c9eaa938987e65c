// Error texts can carry what a visitor typed (an address in a validation message) or a URL with
// its query string (campaign tags, click ids): neither is ever sent or stored.
const EMAIL = /[^\s@<>()[\]"'`,;:]+@[^\s@<>()[\]"'`,;:]+\.[^\s@<>()[\]"'`,;:]+/g;
// Nine digits or more, maybe with +, spaces, dots, dashes or brackets between them.
const PHONE = /\+?\d(?:[\s().-]{0,2}\d){8,}/g;
// A query string, up to a stack frame's `:line:column` when one follows it.
const QUERY = /([^\s?#'"`]+)\?[^\s#'"`)]*?(?=(?::\d+)*(?:[\s#'"`)]|$))/g;
// An address with its scheme (a stack frame's script, with its line and column).
const ADDRESS = /([a-z][a-z\d+.-]*:\/\/[^\s()]*)/i;

export const MASKED_EMAIL = '[email]';
export const MASKED_PHONE = '[phone]';

/** Text with its e-mail addresses masked (and nothing else changed). */
export function maskEmailAddresses(text: string): string {
  return text.replace(EMAIL, MASKED_EMAIL);
}

/** An error message with e-mail addresses and phone numbers masked and query strings left out of URLs. */
export function maskPersonalData(message: string): string {
  return maskStack(message).replace(PHONE, MASKED_PHONE);
}

/**
 * A stack trace with e-mail addresses masked and query strings left out of URLs. Digits in
 * addresses stay: a script's name and its line and column are what maps the trace to the source.
 * Phone numbers elsewhere are masked: V8 starts a stack with the error's message.
 */
export function maskStack(stack: string): string {
  const parts = stack.replace(EMAIL, MASKED_EMAIL).replace(QUERY, '$1').split(ADDRESS);
  // Split by a capturing pattern: the addresses are the odd parts.
  return parts.map((part, index) => (index % 2 === 1 ? part : part.replace(PHONE, MASKED_PHONE))).join('');
}
