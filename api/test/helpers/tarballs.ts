import zlib from 'node:zlib';
import * as tar from 'tar-stream';

/** One entry of a crafted tarball: a tar header (a regular file unless `type` says otherwise) and its content. */
export interface TarEntry extends Partial<tar.Header> {
  name: string;
  content?: string | Buffer;
}

/**
 * A tar of exactly these entries, as a crafted (or hostile) upload would hold: gzip-compressed
 * unless told otherwise, with `trailing` bytes after the tar's end if given.
 */
export async function tarball(entries: readonly TarEntry[], { gzip = true, trailing }: { gzip?: boolean; trailing?: Buffer } = {}): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (chunk) => chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve) => pack.on('end', () => resolve()));
  for (const { content, ...header } of entries) {
    await new Promise<void>((resolve, reject) => {
      const done = (error?: Error | null) => (error ? reject(error) : resolve());
      if (content === undefined) pack.entry({ type: 'file', ...header }, done).end(null);
      else pack.entry({ type: 'file', ...header }, content, done);
    });
  }
  pack.finalize();
  await ended;
  const tarBytes = Buffer.concat(trailing ? [...chunks, trailing] : chunks);
  return gzip ? zlib.gzipSync(tarBytes) : tarBytes;
}
