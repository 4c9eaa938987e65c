import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ContentCache } from '../../../src/site/content/content-cache';

/** A cache over a revision the test moves, with a clock the test moves. */
function setUp() {
  let revision = 1;
  let now = 0;
  let revisionReads = 0;
  const cache = new ContentCache({
    readRevision: async () => {
      revisionReads += 1;
      return revision;
    },
    revalidateMs: 1000,
    now: () => now,
  });
  return {
    cache,
    bump: () => (revision += 1),
    advance: (ms: number) => (now += ms),
    revisionReads: () => revisionReads,
  };
}

function counter(prefix: string) {
  let calls = 0;
  const load = async () => `"${prefix}${(calls += 1)}"`;
  return { load, calls: () => calls };
}

it('serializes once and serves the same body until the content revision moves', async () => {
  const { cache, bump, advance } = setUp();
  const services = counter('services');
  const first = await cache.get('services', services.load);
  advance(500);
  expect((await cache.get('services', services.load)).text).toBe(first.text);
  advance(600);
  // Checked again, unchanged: still the same body.
  expect((await cache.get('services', services.load)).text).toBe('"services1"');
  expect(services.calls()).toBe(1);

  bump();
  advance(200);
  // Within the revalidation window nothing is re-read…
  expect((await cache.get('services', services.load)).text).toBe('"services1"');
  advance(1000);
  // …after it, the moved revision drops the body.
  expect((await cache.get('services', services.load)).text).toBe('"services2"');
});

it('checks the revision at most once per window, however many requests come', async () => {
  const { cache, advance, revisionReads } = setUp();
  const load = async () => '[]';
  await Promise.all(Array.from({ length: 50 }, () => cache.get('blog:50', load)));
  for (let index = 0; index < 20; index += 1) {
    advance(40);
    await cache.get('blog:50', load);
  }
  expect(revisionReads()).toBe(1);
});

it('does not keep a body loaded across an invalidation, nor a missing or failed one', async () => {
  const { cache, bump, advance } = setUp();
  await cache.get('services', async () => '[]');
  let release!: () => void;
  const slow = new Promise<void>((resolve) => (release = resolve));
  const stale = cache.get('post:1', async () => {
    await slow;
    return '"old"';
  });
  bump();
  advance(1000);
  await cache.get('other', async () => '"x"'); // revalidates: a new map
  release();
  expect((await stale).text).toBe('"old"');
  expect((await cache.get('post:1', async () => '"new"')).text).toBe('"new"');

  expect(await cache.get('post:404', async () => undefined)).toBeUndefined();
  expect((await cache.get('post:404', async () => '"published since"')).text).toBe('"published since"');

  await expect(cache.get('blog:3', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
  expect((await cache.get('blog:3', async () => '"back"')).text).toBe('"back"');
});

it('gives a strong ETag of the body and brotli and gzip forms of it', async () => {
  const { cache } = setUp();
  const json = JSON.stringify({ title: 'Стаття', text: 'текст '.repeat(200) });
  const body = await cache.get('post:2', async () => json);
  expect(body.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
  expect(brotliDecompressSync(body.encoded('br')).toString('utf8')).toBe(json);
  expect(gunzipSync(body.encoded('gzip')).toString('utf8')).toBe(json);
  expect(body.encoded('br').length).toBeLessThan(Buffer.byteLength(json) / 4);
});
