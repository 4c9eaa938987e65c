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

/** A blog build as small as the API takes: its entry file (the manifest) and its remote entry. */
export const SMALLEST_BLOG_BUILD: readonly TarEntry[] = [
  { name: 'mf-manifest.json', content: '{"name":"agency_blog","shared":[]}' },
  { name: 'remoteEntry.js', content: 'var agency_blog; // crafted' },
];

/**
 * Crafted blog uploads every layer that takes uploads refuses alike: what it is, the archive, the
 * HTTP status and the message of the answer.
 */
export const HOSTILE_BLOG_ARCHIVES: readonly [string, () => Promise<Buffer>, number, string][] = [
  [
    'that is not gzip (a plain tar)',
    () => tarball(SMALLEST_BLOG_BUILD, { gzip: false }),
    400,
    "the release archive is not a gzip-compressed tar archive: send a .tar.gz of the app's dist folder",
  ],
  [
    'with a path out of the release folder (../)',
    () => tarball([...SMALLEST_BLOG_BUILD, { name: '../../escaped.js', content: 'x' }]),
    400,
    'the release archive\'s entry "../../escaped.js" escapes the release folder: its path goes up a folder (..)',
  ],
  [
    'with a symbolic link',
    () => tarball([...SMALLEST_BLOG_BUILD, { name: 'passwd', type: 'symlink', linkname: '/etc/passwd' }]),
    400,
    'the release archive\'s entry "passwd" is a symbolic link: a release holds regular files and folders only',
  ],
];
