import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

export type BodyEncoding = 'br' | 'gzip';

/** A response body kept in memory: its text, its strong ETag (one for every encoding) and compressed forms. */
export interface CachedBody {
  text: string;
  etag: string;
  encoded(encoding: BodyEncoding): Buffer;
  /** Whether a shared cache may keep the copy in `encoding` now: not while a better one is being made. */
  shareable(encoding: BodyEncoding | null): boolean;
}

/** A body compressed when it is made, so its size in memory is known from the start. */
export interface PrecompressedBody extends CachedBody {
  /** Memory the body takes at most: its text as V8 holds it and both compressed forms as first made. */
  byteLength: number;
  /**
   * Announces a better brotli copy (`recompress`): until it is made or given up (`keepAsIs`), the
   * first copy is not shareable, so a cache in front keeps only the better one. The ETag stays the
   * text's: every process of the site gives a page the same one, whichever copy it has.
   */
  awaitBetter(): void;
  /**
   * Compresses the brotli copy again at a better quality, in zlib's thread pool (never on the
   * event loop), and sends the smaller copy from then on: for a body that is kept and sent again.
   */
  recompress(): Promise<void>;
  /** Gives up the better copy announced (the body is no longer kept). */
  keepAsIs(): void;
}

const BEST_BROTLI = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY } };
const brotliCompressAsync = promisify(brotliCompress);
/**
 * A page's brotli copy: a 256 KB window holds any page whole, and costs less to set up than the
 * default 4 MB one. When rendered, a middle quality, as the request waits for it; when kept, a
 * better one, in the background: about a tenth smaller, which for the home page is the difference
 * between fitting TCP's first round trip (about 14 KB) or not.
 */
export const pageBrotli = (bytes: number, quality: number) => ({
  params: {
    [zlibConstants.BROTLI_PARAM_QUALITY]: quality,
    [zlibConstants.BROTLI_PARAM_LGWIN]: 18,
    [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes,
  },
});
export const QUICK_BROTLI_QUALITY = 5;
/** Not 11: on pages, 10 is as small (the home page 13.7 KB either way) in a third of the time. */
export const KEPT_BROTLI_QUALITY = 10;

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
    shareable: () => true,
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
  const bytes = Buffer.byteLength(text);
  const encodings = new Map<BodyEncoding, Buffer>([
    ['br', brotliCompressSync(text, pageBrotli(bytes, QUICK_BROTLI_QUALITY))],
    ['gzip', gzipSync(text, { level: 9 })],
  ]);
  let recompressed: Promise<void> | undefined;
  let awaitingBetter = false;
  return {
    text,
    etag: etagOf(text),
    encoded: (encoding) => encodings.get(encoding)!,
    shareable: (encoding) => encoding !== 'br' || !awaitingBetter,
    // Two bytes a character: V8 stores a string so once any character is outside Latin-1 (Ukrainian is).
    byteLength: text.length * 2 + encodings.get('br')!.length + encodings.get('gzip')!.length,
    awaitBetter() {
      if (!recompressed) awaitingBetter = true;
    },
    recompress() {
      recompressed ??= brotliCompressAsync(text, pageBrotli(bytes, KEPT_BROTLI_QUALITY))
        .then((better) => {
          if (better.length < encodings.get('br')!.length) encodings.set('br', better);
        })
        .finally(() => {
          awaitingBetter = false;
        });
      return recompressed;
    },
    keepAsIs() {
      awaitingBetter = false;
    },
  };
}
