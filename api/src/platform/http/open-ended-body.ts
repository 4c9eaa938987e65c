import { constants as zlibConstants, crc32, createBrotliCompress, createDeflateRaw, type BrotliCompress, type DeflateRaw } from 'node:zlib';
import { KEPT_BROTLI_QUALITY, pageBrotli, QUICK_BROTLI_QUALITY, type BodyEncoding } from './cached-body';

/**
 * A body whose last few bytes differ for every response (a page's form tokens, each visitor's
 * own) while the rest is the same for all: the start is compressed once, in both encodings, and
 * left open; each response closes it with its own end, stored uncompressed. Both formats allow it
 * without compressing anything again:
 * - brotli: the start flushed to a byte boundary, then an uncompressed meta-block with the end,
 *   then an empty last meta-block (brotli has no checksum);
 * - gzip: the start deflated and sync-flushed, then a final stored block with the end, then the
 *   CRC-32 of the whole (the start's, kept, continued over the end) and its length.
 * The end is sent as is, so it should be small: a few hundred bytes cost as many on the wire.
 */
export interface OpenEndedBody {
  /** The shared start. */
  readonly start: string;
  /** Memory the body takes at most: its text as V8 holds it and both compressed starts as first made. */
  readonly byteLength: number;
  /** The whole body with `end`, in `encoding` (or as text). */
  closedWith(end: string, encoding: BodyEncoding | null): Buffer | string;
  /** As PrecompressedBody: the brotli start compressed again, better, in the background. */
  awaitBetter(): void;
  recompress(): Promise<void>;
  keepAsIs(): void;
}

/** The most bytes one uncompressed brotli meta-block (4 length nibbles) or one stored deflate block holds. */
const BLOCK_MAX = 65_535;

/** The start compressed as a page's brotli copy is (cached-body.ts): quick when a request waits for it, better when kept. */
function brotliStart(text: string, quality: number): Promise<Buffer> {
  return openStream(createBrotliCompress(pageBrotli(Buffer.byteLength(text), quality)), text, zlibConstants.BROTLI_OPERATION_FLUSH);
}

function deflateStart(text: string): Promise<Buffer> {
  return openStream(createDeflateRaw({ level: 9 }), text, zlibConstants.Z_SYNC_FLUSH);
}

/** What a compressor gives for `text` up to a flush: a stream left open at a byte boundary. */
function openStream(stream: BrotliCompress | DeflateRaw, text: string, flushKind: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('error', reject);
    stream.write(text);
    stream.flush(flushKind, () => {
      // 'data' events of the flushed output come before the flush's callback.
      setImmediate(() => {
        resolve(Buffer.concat(chunks));
        stream.destroy();
      });
    });
  });
}

function blocks(end: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  for (let offset = 0; offset < end.length; offset += BLOCK_MAX) parts.push(end.subarray(offset, offset + BLOCK_MAX));
  return parts;
}

/** The brotli bytes that close an open stream with `end`: uncompressed meta-blocks, then the empty last one. */
function brotliEnd(end: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (const block of blocks(end)) {
    // ISLAST 0, MNIBBLES 0 (four nibbles), MLEN - 1 in 16 bits, ISUNCOMPRESSED 1; padded to a byte.
    const header = (0 | (0 << 1) | ((block.length - 1) << 3) | (1 << 19)) >>> 0;
    parts.push(Buffer.from([header & 0xff, (header >>> 8) & 0xff, (header >>> 16) & 0xff]), block);
  }
  // ISLAST 1, ISLASTEMPTY 1.
  parts.push(Buffer.from([0x03]));
  return Buffer.concat(parts);
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);

/** The deflate bytes that close a sync-flushed stream with `end`, and gzip's trailer. */
function gzipEnd(end: Buffer, startCrc: number, startLength: number): Buffer {
  const parts: Buffer[] = [];
  const pieces = blocks(end);
  if (pieces.length === 0) pieces.push(Buffer.alloc(0));
  pieces.forEach((block, index) => {
    const header = Buffer.alloc(5);
    // BFINAL on the last, BTYPE 00 (stored); byte-aligned after the flush, so the rest of the byte is padding.
    header[0] = index === pieces.length - 1 ? 0x01 : 0x00;
    header.writeUInt16LE(block.length, 1);
    header.writeUInt16LE(~block.length & 0xffff, 3);
    parts.push(header, block);
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(end, startCrc) >>> 0, 0);
  trailer.writeUInt32LE((startLength + end.length) >>> 0, 4);
  parts.push(trailer);
  return Buffer.concat(parts);
}

export async function openEndedBody(start: string): Promise<OpenEndedBody> {
  const startBytes = Buffer.from(start);
  const startCrc = crc32(startBytes);
  const [quickBrotli, deflate] = await Promise.all([brotliStart(start, QUICK_BROTLI_QUALITY), deflateStart(start)]);
  let brotli = quickBrotli;
  const gzipStart = Buffer.concat([GZIP_HEADER, deflate]);
  let recompressed: Promise<void> | undefined;
  return {
    start,
    byteLength: start.length * 2 + brotli.length + gzipStart.length,
    closedWith(end, encoding) {
      if (encoding === null) return start + end;
      const endBytes = Buffer.from(end);
      if (encoding === 'br') return Buffer.concat([brotli, brotliEnd(endBytes)]);
      return Buffer.concat([gzipStart, gzipEnd(endBytes, startCrc, startBytes.length)]);
    },
    // Each response is its own: no shared cache keeps one, so no copy has to wait for the better one.
    awaitBetter() {},
    recompress() {
      recompressed ??= brotliStart(start, KEPT_BROTLI_QUALITY).then((better) => {
        if (better.length < brotli.length) brotli = better;
      });
      return recompressed;
    },
    keepAsIs() {},
  };
}
