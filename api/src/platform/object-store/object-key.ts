/**
 * Keys of an artifact store: `/`-separated relative paths. Both stores check them the same way,
 * so a key that works on the local folder works on S3 and cannot leave the store's folder.
 */

export class InvalidObjectKeyError extends Error {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`invalid artifact key ${JSON.stringify(key)}: ${reason}`);
  }
}

/** Why `key` is not a usable key, or undefined when it is one. */
export function keyProblem(key: string): string | undefined {
  if (key === '') return 'it is empty';
  if (key.includes('\\')) return 'it contains a backslash';
  if (key.includes('\0')) return 'it contains a NUL character';
  if (key.startsWith('/')) return 'it is absolute';
  for (const segment of key.split('/')) {
    if (segment === '') return 'it has an empty segment';
    // `.` and `..` would mean another path once a file system resolves them.
    if (segment === '.' || segment === '..') return `it has a "${segment}" segment`;
  }
  return undefined;
}

/** Throws InvalidObjectKeyError unless `key` is a relative path of plain segments. */
export function checkObjectKey(key: string): void {
  const problem = keyProblem(key);
  if (problem !== undefined) throw new InvalidObjectKeyError(key, problem);
}

/** Throws unless `prefix` is a key followed by `/` (a folder of keys). */
export function checkPrefix(prefix: string): void {
  if (!prefix.endsWith('/')) throw new InvalidObjectKeyError(prefix, 'a prefix must end with "/"');
  checkObjectKey(prefix.slice(0, -1));
}

/** Throws unless `segment` is one valid key segment (a name without `/`). */
export function checkKeySegment(segment: string, what: string): void {
  if (segment.includes('/')) throw new InvalidObjectKeyError(segment, `${what} must not contain "/"`);
  checkObjectKey(segment);
}

/**
 * Key order of `list`: by UTF-8 bytes, which is how S3 lists keys, so both stores answer alike
 * (JavaScript's default sort compares UTF-16 units, which differs past the BMP).
 */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
