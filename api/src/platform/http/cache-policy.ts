import path from 'node:path';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const NO_CACHE = 'no-cache';
/** Unhashed files other than entry points (e.g. favicon, seed images): cached for a day, then revalidated. */
export const SHORT = 'public, max-age=86400';

/** Entry points whose names never change: the browser must revalidate them every time. */
const ENTRY_POINTS = new Set(['remoteEntry.js', 'mf-manifest.json', 'mf-stats.json', 'remotes.json']);

/** A content hash of 8+ hex digits as its own dot- or dash-separated name segment: `main.3f2a9c1b7d.js`. */
const HASHED = /(?:^|[.-])[0-9a-f]{8,}(?=\.)/i;

/** Whether a file name carries a content hash, so its content can never change under that name. */
export function isHashed(filePath: string): boolean {
  return HASHED.test(path.basename(filePath));
}

export function cacheControlFor(filePath: string): string {
  const name = path.basename(filePath);
  if (name.endsWith('.html') || ENTRY_POINTS.has(name)) return NO_CACHE;
  if (isHashed(name)) return IMMUTABLE;
  return SHORT;
}
