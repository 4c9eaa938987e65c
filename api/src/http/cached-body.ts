import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

export type BodyEncoding = 'br' | 'gzip';

/** A response body kept in memory: its text, strong ETag and compressed forms. */
export interface CachedBody {
  text: string;
  etag: string;
  encoded(encoding: BodyEncoding): Buffer;
}

/** A body compressed when it is made, so its size in memory is known from the start. */
export interface PrecompressedBody extends CachedBody {
  /** Memory the body takes: its text as V8 holds it and both compressed forms. */
  byteLength: number;
}

const BEST_BROTLI = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY } };
/**
 * A middle quality rather than the best, which is far slower for a slightly smaller body: a page
 * is compressed when it is rendered, on the request that waits for it.
 * A 256 KB window holds any page whole, and costs less to set up than the default 4 MB one.
 */
const quickBrotli = (bytes: number) => ({
  params: {
    [zlibConstants.BROTLI_PARAM_QUALITY]: 5,
    [zlibConstants.BROTLI_PARAM_LGWIN]: 18,
    [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes,
  },
});

function etagOf(text: string): string {
  return `"${createHash('sha1').update(text).digest('base64url')}"`;
}

/** A body compressed (at the best quality) the first time an encoding is asked for. */
export function cachedBody(text: string): CachedBody {
  const etag = etagOf(text);
  const encodings = new Map<BodyEncoding, Buffer>();
  return {
    text,
    etag,
    encoded(encoding) {
      let buffer = encodings.get(encoding);
      if (!buffer) {
        buffer = encoding === 'br' ? brotliCompressSync(text, BEST_BROTLI) : gzipSync(text, { level: 9 });
        encodings.set(encoding, buffer);
      }
      return buffer;
    },
  };
}

/** A body compressed at once, in both encodings, quickly enough for the request that made it. */
export function precompressedBody(text: string): PrecompressedBody {
  const encodings = new Map<BodyEncoding, Buffer>([
    ['br', brotliCompressSync(text, quickBrotli(Buffer.byteLength(text)))],
    ['gzip', gzipSync(text, { level: 9 })],
  ]);
  return {
    text,
    etag: etagOf(text),
    encoded: (encoding) => encodings.get(encoding)!,
    // Two bytes a character: V8 stores a string so once any character is outside Latin-1 (Ukrainian is).
    byteLength: text.length * 2 + encodings.get('br')!.length + encodings.get('gzip')!.length,
  };
}
