/** 32 hex digits of a cryptographic random number (128 bits): ids a browser makes up for itself. */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** What randomId returns, as a JSON-schema pattern. */
export const RANDOM_ID_PATTERN = '^[0-9a-f]{32}$';
