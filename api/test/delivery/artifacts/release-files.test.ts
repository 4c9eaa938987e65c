import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { ObjectStore } from '../../../src/platform/object-store/object-store';
import { FileObjectStore } from '../../../src/platform/object-store/file-object-store';
import {
  contentDigest,
  readReleaseManifest,
  RELEASE_MANIFEST,
  ReleaseCache,
  ReleaseNotInStoreError,
  storeReleaseFiles,
} from '../../../src/delivery/artifacts/release-files';
import { S3ObjectStore } from '../../../src/platform/object-store/s3-object-store';
import { setUpS3Server } from '../../helpers/s3-server';

// Storing a release's files with a manifest written last, and the cache that brings a stored
// release onto this machine: on a local folder, and over HTTP against s3rver.

jest.setTimeout(60_000);

/** A small built app: the kinds of files a release holds. */
function releaseFiles(label = 'a'): Map<string, Buffer> {
  return new Map([
    ['mf-manifest.json', Buffer.from(JSON.stringify({ id: 'blog', label }))],
    ['remoteEntry.js', Buffer.from(`var blog = "${label}";`)],
    ['static/js/812.3f9a1c.js', Buffer.from('chunk '.repeat(5000))],
    ['static/js/812.3f9a1c.js.map', Buffer.from('{"version":3}')],
    ['server/remoteEntry.js', Buffer.from('module.exports = {};')],
    ['images/logo.png', Buffer.from(Array.from({ length: 256 }, (_, n) => n))],
  ]);
}

/** The calls a store gets, in order, and hooks to change what it stores. */
interface RecordingStore extends ObjectStore {
  calls: string[];
}

/** Wraps a store (never offering its local folder, so a cache downloads from it). */
function recordingStore(inner: ObjectStore, onPut: (key: string, body: Buffer) => Buffer = (_key, body) => body): RecordingStore {
  const calls: string[] = [];
  return {
    calls,
    location: inner.location,
    put: (key, body) => (calls.push(`put ${key}`), inner.put(key, onPut(key, body))),
    get: (key) => (calls.push(`get ${key}`), inner.get(key)),
    size: (key) => (calls.push(`size ${key}`), inner.size(key)),
    list: (prefix) => inner.list(prefix),
    delete: (key) => inner.delete(key),
    deletePrefix: (prefix) => inner.deletePrefix(prefix),
  };
}

/** Every file under a folder, by `/`-separated path. */
function readTree(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const file = path.join(entry.parentPath, entry.name);
      files.set(path.relative(dir, file).split(path.sep).join('/'), fs.readFileSync(file));
    }
  }
  return files;
}

let tmp: string;
beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'release-files-'))));
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('storeReleaseFiles', () => {
  let store: FileObjectStore;
  beforeEach(() => (store = new FileObjectStore(path.join(tmp, 'store'))));

  it('stores every file and a manifest of their sizes and SHA-256', async () => {
    const files = releaseFiles();
    const stored = await storeReleaseFiles(store, 'blog', 'r1', files);

    const totalBytes = [...files.values()].reduce((sum, body) => sum + body.length, 0);
    expect(stored).toEqual({ digest: contentDigest(files), fileCount: 6, totalBytes });
    for (const [filePath, body] of files) expect(await store.get(`blog/r1/${filePath}`)).toEqual(body);
    const manifest = await readReleaseManifest(store, 'blog', 'r1');
    expect(manifest?.app).toBe('blog');
    expect(manifest?.id).toBe('r1');
    expect(manifest?.files.map((file) => file.path)).toEqual([...files.keys()].sort());
    expect(manifest?.files.find((file) => file.path === 'remoteEntry.js')).toEqual({
      path: 'remoteEntry.js',
      size: 15,
      sha256: createHash('sha256').update('var blog = "a";').digest('hex'),
    });
    expect(await readReleaseManifest(store, 'blog', 'r2')).toBeUndefined();
  });

  it('gives the same digest for the same content, in any order, and another for other content', () => {
    const files = releaseFiles();
    const reversed = new Map([...files].reverse());
    expect(contentDigest(reversed)).toBe(contentDigest(files));
    expect(contentDigest(releaseFiles('b'))).not.toBe(contentDigest(files));
    // The path is part of what is hashed: the same bytes under another name differ.
    expect(contentDigest(new Map([['a.js', Buffer.from('x')]]))).not.toBe(contentDigest(new Map([['b.js', Buffer.from('x')]])));
    expect(contentDigest(files)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('writes the manifest last, after every file is stored and read back', async () => {
    const recording = recordingStore(store);
    await storeReleaseFiles(recording, 'blog', 'r1', releaseFiles());
    const manifestPut = recording.calls.indexOf(`put blog/r1/${RELEASE_MANIFEST}`);
    expect(manifestPut).toBe(recording.calls.length - 1);
    for (const filePath of releaseFiles().keys()) {
      expect(recording.calls.indexOf(`put blog/r1/${filePath}`)).toBeLessThan(manifestPut);
      expect(recording.calls.indexOf(`get blog/r1/${filePath}`)).toBeLessThan(manifestPut);
    }
  });

  it('refuses a release whose stored bytes differ from the files, and writes no manifest', async () => {
    // Same size, other bytes: only the SHA-256 tells.
    const corrupting = recordingStore(store, (key, body) => (key === 'blog/r1/remoteEntry.js' ? Buffer.from(body.toString().toUpperCase()) : body));
    const differs = /blog\/r1\/remoteEntry\.js in file:.* has SHA-256 [0-9a-f]{64}, [0-9a-f]{64} expected/;
    await expect(storeReleaseFiles(corrupting, 'blog', 'r1', releaseFiles())).rejects.toThrow(differs);
    expect(await readReleaseManifest(store, 'blog', 'r1')).toBeUndefined();
    expect(corrupting.calls.some((call) => call.includes(RELEASE_MANIFEST))).toBe(false);

    const truncating = recordingStore(store, (key, body) => (key.endsWith('.map') ? body.subarray(1) : body));
    await expect(storeReleaseFiles(truncating, 'blog', 'r2', releaseFiles())).rejects.toThrow('blog/r2/static/js/812.3f9a1c.js.map in file:');
    expect(await store.size(`blog/r2/${RELEASE_MANIFEST}`)).toBeUndefined();
  });

  it('completes an interrupted attempt with the same files, and refuses other files under a stored release', async () => {
    const files = releaseFiles();
    await store.put('blog/r1/remoteEntry.js', files.get('remoteEntry.js') as Buffer);
    await storeReleaseFiles(store, 'blog', 'r1', files);
    // Storing the same release again changes nothing.
    await storeReleaseFiles(store, 'blog', 'r1', files);
    expect((await readReleaseManifest(store, 'blog', 'r1'))?.files).toHaveLength(6);

    // Whichever differing file is checked first (they are stored several at a time) refuses it.
    await expect(storeReleaseFiles(store, 'blog', 'r1', releaseFiles('b'))).rejects.toThrow(/^blog\/r1\/\S+ in file:\S+ has SHA-256 /);
    const extra = new Map([...files, ['extra.js', Buffer.from('1')]]);
    await expect(storeReleaseFiles(store, 'blog', 'r1', extra)).rejects.toThrow(`blog release r1 is stored already in ${store.location}, with other files`);
  });

  it('refuses file paths, app names and release ids it cannot store', async () => {
    const one = (filePath: string) => new Map([[filePath, Buffer.from('x')]]);
    await expect(storeReleaseFiles(store, 'blog', 'r1', one(RELEASE_MANIFEST))).rejects.toThrow('a release cannot contain one');
    await expect(storeReleaseFiles(store, 'blog', 'r1', one('../escape.js'))).rejects.toThrow('invalid artifact key');
    await expect(storeReleaseFiles(store, 'blog', 'r1', one('/etc/passwd'))).rejects.toThrow('invalid artifact key');
    await expect(storeReleaseFiles(store, 'blog', 'r1', new Map())).rejects.toThrow('at least one file');
    const clash = new Map([['static', Buffer.from('x')], ['static/a.js', Buffer.from('y')]]);
    await expect(storeReleaseFiles(store, 'blog', 'r1', clash)).rejects.toThrow('static is both a file and a folder');
    await expect(storeReleaseFiles(store, 'blog/x', 'r1', one('a.js'))).rejects.toThrow('must not contain "/"');
    await expect(storeReleaseFiles(store, 'blog', '..', one('a.js'))).rejects.toThrow('invalid artifact key');
    await expect(storeReleaseFiles(store, 'blog', '.partial-r1', one('a.js'))).rejects.toThrow('do not start with "."');
    expect(await store.list('')).toEqual([]);
  });
});

describe('ReleaseCache on a local store', () => {
  it('reads a stored release in place, from the store folder itself', async () => {
    const store = new FileObjectStore(path.join(tmp, 'store'));
    await storeReleaseFiles(store, 'blog', 'r1', releaseFiles());
    const cache = new ReleaseCache({ store, dir: path.join(tmp, 'cache') });

    expect(await cache.localDir('blog', 'r1')).toBe(path.join(tmp, 'store', 'blog', 'r1'));
    expect(fs.existsSync(path.join(tmp, 'cache'))).toBe(false);
    await expect(cache.localDir('blog', 'r2')).rejects.toThrow(`blog release r2 is not in the store file:${path.join(tmp, 'store')}`);
  });

  it('does not take a release without a manifest (not completely stored) for one', async () => {
    const store = new FileObjectStore(path.join(tmp, 'store'));
    await store.put('blog/r1/remoteEntry.js', Buffer.from('x'));
    const cache = new ReleaseCache({ store, dir: path.join(tmp, 'cache') });
    await expect(cache.localDir('blog', 'r1')).rejects.toThrow(ReleaseNotInStoreError);
  });
});

describe('ReleaseCache on S3', () => {
  const s3 = setUpS3Server();

  let store: S3ObjectStore;
  let stores = 0;
  let cacheDir: string;
  beforeEach(() => {
    store = new S3ObjectStore({ bucket: s3.server.bucket, prefix: `cache-test-${++stores}`, client: s3.client });
    cacheDir = path.join(tmp, 'cache');
  });

  it('downloads a stored release, checked, into <dir>/<app>/<id>', async () => {
    const files = releaseFiles();
    await storeReleaseFiles(store, 'blog', 'r1', files);
    const cache = new ReleaseCache({ store, dir: cacheDir });

    const dir = await cache.localDir('blog', 'r1');
    expect(dir).toBe(path.join(cacheDir, 'blog', 'r1'));
    const cached = readTree(dir);
    expect(new Set(cached.keys())).toEqual(new Set([...files.keys(), RELEASE_MANIFEST]));
    for (const [filePath, body] of files) expect(cached.get(filePath)).toEqual(body);
    expect(cached.get(RELEASE_MANIFEST)).toEqual(await store.get(`blog/r1/${RELEASE_MANIFEST}`));
    expect(fs.readdirSync(path.join(cacheDir, 'blog'))).toEqual(['r1']);
  });

  it('downloads a release once, for simultaneous callers, and reuses it after a restart', async () => {
    await storeReleaseFiles(store, 'blog', 'r1', releaseFiles());
    const recording = recordingStore(store);
    const cache = new ReleaseCache({ store: recording, dir: cacheDir });

    const dirs = await Promise.all(Array.from({ length: 5 }, () => cache.localDir('blog', 'r1')));
    expect(new Set(dirs)).toEqual(new Set([path.join(cacheDir, 'blog', 'r1')]));
    expect(recording.calls.filter((call) => call === `get blog/r1/${RELEASE_MANIFEST}`)).toHaveLength(1);
    expect(recording.calls.filter((call) => call === 'get blog/r1/remoteEntry.js')).toHaveLength(1);

    const afterFirst = recording.calls.length;
    await cache.localDir('blog', 'r1');
    const restarted = new ReleaseCache({ store: recording, dir: cacheDir });
    expect(await restarted.localDir('blog', 'r1')).toBe(path.join(cacheDir, 'blog', 'r1'));
    expect(recording.calls).toHaveLength(afterFirst);
  });

  it('refuses a release whose stored object was tampered with, and leaves nothing in the cache', async () => {
    await storeReleaseFiles(store, 'blog', 'r1', releaseFiles());
    // s3rver lets a plain PutObject replace the object: as a compromised or broken store would.
    await s3.client.send(new PutObjectCommand({ Bucket: s3.server.bucket, Key: `${store.prefix}blog/r1/remoteEntry.js`, Body: 'var blog = "x";' }));
    const cache = new ReleaseCache({ store, dir: cacheDir });

    await expect(cache.localDir('blog', 'r1')).rejects.toThrow(/blog\/r1\/remoteEntry\.js in s3:\/\/.* has SHA-256 [0-9a-f]{64}, [0-9a-f]{64} expected/);
    expect(fs.existsSync(path.join(cacheDir, 'blog', 'r1'))).toBe(false);
    expect(fs.readdirSync(path.join(cacheDir, 'blog'))).toEqual([]);

    // A file of another size, or one gone from the store, fails the same way.
    await storeReleaseFiles(store, 'blog', 'r2', releaseFiles());
    await s3.client.send(new PutObjectCommand({ Bucket: s3.server.bucket, Key: `${store.prefix}blog/r2/images/logo.png`, Body: 'short' }));
    await expect(cache.localDir('blog', 'r2')).rejects.toThrow(/blog\/r2\/images\/logo\.png in s3:\/\/.* has 5 bytes, 256 expected/);
    await storeReleaseFiles(store, 'blog', 'r3', releaseFiles());
    await s3.client.send(new DeleteObjectCommand({ Bucket: s3.server.bucket, Key: `${store.prefix}blog/r3/server/remoteEntry.js` }));
    await expect(cache.localDir('blog', 'r3')).rejects.toThrow(/blog\/r3\/server\/remoteEntry\.js in s3:\/\/.* is listed in the release's manifest but missing/);
    expect(fs.readdirSync(path.join(cacheDir, 'blog'))).toEqual([]);
  });

  it('refuses a manifest that names paths outside the release', async () => {
    const manifest = { app: 'blog', id: 'r1', files: [{ path: '../../escape.js', size: 1, sha256: 'a'.repeat(64) }] };
    await store.put(`blog/r1/${RELEASE_MANIFEST}`, Buffer.from(JSON.stringify(manifest)));
    const cache = new ReleaseCache({ store, dir: cacheDir });
    await expect(cache.localDir('blog', 'r1')).rejects.toThrow('the manifest of blog release r1');
    expect(fs.readdirSync(tmp)).not.toContain('escape.js');
  });

  it('says which release is not in which store', async () => {
    const cache = new ReleaseCache({ store, dir: cacheDir });
    await expect(cache.localDir('blog', 'r9')).rejects.toThrow(`blog release r9 is not in the store ${store.location}`);
    expect(fs.existsSync(path.join(cacheDir, 'blog', 'r9'))).toBe(false);
  });

  it('keeps only the releases the site keeps, and removes abandoned downloads', async () => {
    for (const [app, id] of [['blog', 'r1'], ['blog', 'r2'], ['home', 'r1']] as const) await storeReleaseFiles(store, app, id, releaseFiles(id));
    const cache = new ReleaseCache({ store, dir: cacheDir });
    for (const [app, id] of [['blog', 'r1'], ['blog', 'r2'], ['home', 'r1']]) await cache.localDir(app as string, id as string);
    const abandoned = path.join(cacheDir, 'blog', '.partial-r3-abc123');
    const recent = path.join(cacheDir, 'blog', '.partial-r4-def456');
    fs.mkdirSync(abandoned);
    fs.mkdirSync(recent);
    const longAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(abandoned, longAgo, longAgo);

    await cache.keepOnly(new Set(['blog/r2', 'shell/r7']));
    expect(fs.readdirSync(path.join(cacheDir, 'blog')).sort()).toEqual(['.partial-r4-def456', 'r2']);
    expect(fs.readdirSync(path.join(cacheDir, 'home'))).toEqual([]);

    // An evicted release comes back from the store when asked for again.
    expect(readTree(await cache.localDir('blog', 'r1')).get('remoteEntry.js')?.toString()).toBe('var blog = "r1";');
  });
});
