import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { tarball, type TarEntry } from '../../helpers/tarballs';
import {
  ArchiveError,
  checkReleaseArchiveType,
  packReleaseArchive,
  readReleaseArchive,
  RELEASE_ARCHIVE_TYPES,
} from '../../../src/delivery/release-api/release-archive';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { writeBuildStamp } = require('@agency/shared/webpack/build-stamp.js') as {
  writeBuildStamp(dist: string, stamp: { builtAt?: Date; revision: string }): void;
};

// Uploaded builds: a dist folder packed by the command line, read back by the release API, and
// every kind of archive the API must refuse before storing anything.

const MiB = 1024 * 1024;
const LIMIT = 4 * MiB;


const blogBuild = (extra: TarEntry[] = []) => tarball([{ name: 'mf-manifest.json', content: '{}' }, { name: 'remoteEntry.js', content: 'var x;' }, ...extra]);

/** How readReleaseArchive settled: its error (status and message), or the files it read. */
async function refusal(archive: Buffer, app = 'blog', maxUnpackedBytes = LIMIT): Promise<{ statusCode: number; message: string }> {
  try {
    await readReleaseArchive(archive, { app, maxUnpackedBytes });
  } catch (error) {
    expect(error).toBeInstanceOf(ArchiveError);
    return { statusCode: (error as ArchiveError).statusCode, message: (error as ArchiveError).message };
  }
  throw new Error('the archive was accepted');
}

/**
 * Counts what gunzip streams inflate while `run` runs (zlib's own exports are read-only, so the
 * count hooks Gunzip's push): the proof a bomb was not inflated whole.
 */
async function inflatedBytesDuring(run: () => Promise<unknown>): Promise<number> {
  const { push } = zlib.Gunzip.prototype;
  let inflated = 0;
  const spy = jest.spyOn(zlib.Gunzip.prototype, 'push').mockImplementation(function (this: zlib.Gunzip, chunk: unknown, encoding?: BufferEncoding) {
    if (Buffer.isBuffer(chunk)) inflated += chunk.length;
    return push.call(this, chunk, encoding);
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  expect(inflated).toBeGreaterThan(0); // the hook saw the gunzip at work
  return inflated;
}

let tmp: string;
beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'release-archive-'))));
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A small shell build: nested folders, a dotfile, binary content and a build stamp. */
function writeShellBuild(dist: string): Record<string, Buffer> {
  const files: Record<string, Buffer> = {
    'index.html': Buffer.from('<!doctype html><div id="root"></div>'),
    'mf-manifest.json': Buffer.from('{"id":"agency_shell"}'),
    'main.3f2a9c1b7d.js': Buffer.from('console.log("shell")'),
    'assets/fonts/inter.0a1b2c3d4e.woff2': Buffer.from([0, 1, 2, 255, 254, 0]),
    'assets/logo.aaaaaaaa11.svg': Buffer.from('<svg/>'),
    '.well-known/security.txt': Buffer.from('Contact: mailto:security@example.com'),
  };
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
    fs.writeFileSync(path.join(dist, file), content);
  }
  writeBuildStamp(dist, { builtAt: new Date('2026-11-22T06:15:00.123Z'), revision: '6a9430b' });
  return files;
}

describe('packing a dist folder and reading it back', () => {
  it('gives back every file under its relative path, and the build stamp apart from them', async () => {
    const dist = path.join(tmp, 'dist');
    const files = writeShellBuild(dist);
    const read = await readReleaseArchive(await packReleaseArchive(dist), { app: 'shell', maxUnpackedBytes: LIMIT });
    expect(Object.fromEntries(read.files)).toEqual(files);
    expect(read.stamp).toEqual({ builtAt: new Date('2026-11-22T06:15:00.123Z'), revision: '6a9430b' });
  });

  it('packs regular files only, following no symbolic link out of the folder', async () => {
    const dist = path.join(tmp, 'dist');
    const files = writeShellBuild(dist);
    fs.mkdirSync(path.join(tmp, 'outside'));
    fs.writeFileSync(path.join(tmp, 'outside/secret.txt'), 'secret');
    fs.symlinkSync(path.join(tmp, 'outside/secret.txt'), path.join(dist, 'secret.txt'));
    fs.symlinkSync(path.join(tmp, 'outside'), path.join(dist, 'assets/outside'));
    const read = await readReleaseArchive(await packReleaseArchive(dist), { app: 'shell', maxUnpackedBytes: LIMIT });
    expect([...read.files.keys()].sort()).toEqual(Object.keys(files).sort());
  });

  it('reads what tar itself writes (`tar -czf - -C dist .`: `./` paths and folder entries)', async () => {
    const dist = path.join(tmp, 'dist');
    const files = writeShellBuild(dist);
    const made = spawnSync('tar', ['-czf', '-', '-C', dist, '.'], { maxBuffer: 16 * MiB });
    expect(made.status).toBe(0);
    const read = await readReleaseArchive(made.stdout, { app: 'shell', maxUnpackedBytes: LIMIT });
    expect(Object.fromEntries(read.files)).toEqual(files);
    expect(read.stamp?.revision).toBe('6a9430b');
  });

  it('reads an older plain-time stamp, and a build without a stamp', async () => {
    const plain = await readReleaseArchive(await blogBuild([{ name: '.build-stamp', content: '2026-11-22T06:15:00.123Z\n' }]), { app: 'blog', maxUnpackedBytes: LIMIT });
    expect(plain.stamp).toEqual({ builtAt: new Date('2026-11-22T06:15:00.123Z') });
    expect(plain.files.has('.build-stamp')).toBe(false);
    const unstamped = await readReleaseArchive(await blogBuild(), { app: 'blog', maxUnpackedBytes: LIMIT });
    expect(unstamped.stamp).toBeUndefined();
    expect([...unstamped.files.keys()]).toEqual(['mf-manifest.json', 'remoteEntry.js']);
  });

  it('keeps a file named like the stamp below the root as an ordinary file', async () => {
    const read = await readReleaseArchive(await blogBuild([{ name: 'nested/.build-stamp', content: 'x' }]), { app: 'blog', maxUnpackedBytes: LIMIT });
    expect(read.files.get('nested/.build-stamp')?.toString()).toBe('x');
    expect(read.stamp).toBeUndefined();
  });
});

describe('refusing an archive', () => {
  it('refuses what is not gzip-compressed, or is corrupt', async () => {
    const notGzip = { statusCode: 400, message: expect.stringContaining('not a gzip-compressed tar archive') };
    expect(await refusal(Buffer.from('PK\u0003\u0004 a zip file'))).toEqual(notGzip);
    expect(await refusal(Buffer.alloc(0))).toEqual(notGzip);
    const archive = await blogBuild();
    expect(await refusal(archive.subarray(0, archive.length - 20))).toEqual(notGzip);
  });

  it('refuses a plain (uncompressed) tar', async () => {
    const plainTar = await tarball([{ name: 'mf-manifest.json', content: '{}' }], { gzip: false });
    expect(await refusal(plainTar)).toEqual({ statusCode: 400, message: expect.stringContaining('not a gzip-compressed tar archive') });
  });

  it('refuses gzip-compressed data that is not a tar', async () => {
    expect(await refusal(zlib.gzipSync(Buffer.from('just some text, not a tar archive '.repeat(40))))).toEqual({
      statusCode: 400,
      message: expect.stringContaining('not a gzip-compressed tar archive'),
    });
  });

  it.each([
    ['../x', 'goes up a folder'],
    ['assets/../../x', 'goes up a folder'],
    ['/etc/passwd', 'is absolute'],
    ['assets\\..\\x', 'backslash'],
    ['assets//x.js', 'empty or "." segment'],
    ['assets/./x.js', 'empty or "." segment'],
  ])('refuses an entry at %s: it escapes the release folder', async (name, why) => {
    const { statusCode, message } = await refusal(await blogBuild([{ name, content: 'x' }]));
    expect(statusCode).toBe(400);
    expect(message).toContain(`entry ${JSON.stringify(name)} escapes the release folder`);
    expect(message).toContain(why);
  });

  it('refuses a file in place of the root folder (`./`)', async () => {
    expect(await refusal(await blogBuild([{ name: './', type: 'symlink', linkname: '/' }]))).toEqual({
      statusCode: 400,
      message: 'the release archive\'s entry "./" names the release folder itself but is not a folder',
    });
  });

  it('refuses a symbolic link, naming it', async () => {
    const archive = await blogBuild([{ name: 'assets/passwd', type: 'symlink', linkname: '/etc/passwd' }]);
    expect(await refusal(archive)).toEqual({
      statusCode: 400,
      message: 'the release archive\'s entry "assets/passwd" is a symbolic link: a release holds regular files and folders only',
    });
  });

  it('refuses a hard link, naming it', async () => {
    const archive = await blogBuild([{ name: 'copy.js', type: 'link', linkname: 'remoteEntry.js' }]);
    expect(await refusal(archive)).toEqual({
      statusCode: 400,
      message: 'the release archive\'s entry "copy.js" is a hard link: a release holds regular files and folders only',
    });
  });

  it('refuses a device', async () => {
    const archive = await blogBuild([{ name: 'null', type: 'character-device', devmajor: 1, devminor: 3 }]);
    expect(await refusal(archive)).toEqual({ statusCode: 400, message: expect.stringContaining('"null" is a character device') });
  });

  it('refuses a path given twice, and a path that is both a file and a folder', async () => {
    const twice = await blogBuild([{ name: 'remoteEntry.js', content: 'var evil;' }]);
    expect(await refusal(twice)).toEqual({ statusCode: 400, message: 'the release archive holds "remoteEntry.js" twice: each path may appear once' });
    const sameAfterDot = await blogBuild([{ name: './remoteEntry.js', content: 'var evil;' }]);
    expect((await refusal(sameAfterDot)).message).toContain('"remoteEntry.js" twice');
    const fileAndFolder = await blogBuild([{ name: 'remoteEntry.js/x.js', content: 'x' }]);
    expect(await refusal(fileAndFolder)).toEqual({ statusCode: 400, message: 'the release archive holds "remoteEntry.js" both as a file and as a folder' });
  });

  it("refuses a remote's build without mf-manifest.json at its root", async () => {
    const archive = await tarball([{ name: 'remoteEntry.js', content: 'var x;' }]);
    expect(await refusal(archive, 'blog')).toEqual({ statusCode: 400, message: "a blog build needs mf-manifest.json at its root: is this the app's dist folder?" });
  });

  it("refuses a shell build without index.html at its root, pointing at one archived a folder too deep", async () => {
    const archive = await tarball([
      { name: 'dist/index.html', content: '<!doctype html>' },
      { name: 'mf-manifest.json', content: '{}' },
    ]);
    expect(await refusal(archive, 'shell')).toEqual({
      statusCode: 400,
      message: "a shell build needs index.html at its root: is this the app's dist folder? (it has dist/index.html: archive the folder's contents, not the folder itself)",
    });
  });

  it('refuses (413) a file larger than the limit before inflating it', async () => {
    const archive = await blogBuild([{ name: 'big.bin', content: Buffer.alloc(64 * MiB) }]);
    expect(archive.length).toBeLessThan(MiB);
    let refused: { statusCode: number; message: string } | undefined;
    const inflated = await inflatedBytesDuring(async () => (refused = await refusal(archive, 'blog', MiB)));
    expect(refused).toEqual({ statusCode: 413, message: 'the release archive unpacks to more than 1,048,576 bytes, the most a release may hold' });
    expect(inflated).toBeLessThan(2 * MiB);
  });

  it('refuses (413) a gzip bomb past the end of the tar, inflating no more than the limit and a chunk', async () => {
    const archive = await tarball([{ name: 'mf-manifest.json', content: '{}' }], { trailing: Buffer.alloc(64 * MiB) });
    expect(archive.length).toBeLessThan(MiB);
    let refused: { statusCode: number; message: string } | undefined;
    const inflated = await inflatedBytesDuring(async () => (refused = await refusal(archive, 'blog', MiB)));
    expect(refused?.statusCode).toBe(413);
    expect(inflated).toBeLessThan(MiB + 256 * 1024);
  });

  it('refuses (413) many small files that together pass the limit', async () => {
    const files = Array.from({ length: 40 }, (_, index) => ({ name: `chunk-${index}.js`, content: Buffer.alloc(64 * 1024, 'a') }));
    expect((await refusal(await blogBuild(files), 'blog', MiB)).statusCode).toBe(413);
  });

  it('refuses (413) more files than allowed', async () => {
    const archive = await blogBuild(Array.from({ length: 5 }, (_, index) => ({ name: `f${index}.js`, content: '' })));
    await expect(readReleaseArchive(archive, { app: 'blog', maxUnpackedBytes: LIMIT, maxFiles: 6 })).rejects.toMatchObject({
      statusCode: 413,
      message: 'the release archive holds more than 6 files and folders',
    });
    await expect(readReleaseArchive(archive, { app: 'blog', maxUnpackedBytes: LIMIT, maxFiles: 7 })).resolves.toBeDefined();
  });
});

describe('the content type of an upload', () => {
  it.each(['application/gzip', 'application/x-gzip', 'Application/GZIP; charset=binary'])('accepts %s', (type) => {
    expect(() => checkReleaseArchiveType(type)).not.toThrow();
  });

  it('refuses (415) any other type, or none', () => {
    expect(RELEASE_ARCHIVE_TYPES).toEqual(['application/gzip', 'application/x-gzip']);
    expect(() => checkReleaseArchiveType('application/zip')).toThrow(
      expect.objectContaining({
        statusCode: 415,
        message: "a release archive (a .tar.gz of the app's dist folder) must be sent as application/gzip or application/x-gzip, not application/zip",
      }),
    );
    expect(() => checkReleaseArchiveType(undefined)).toThrow(expect.objectContaining({ statusCode: 415, message: expect.stringContaining('with a Content-Type') }));
  });
});
