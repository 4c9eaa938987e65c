import { PutObjectCommand } from '@aws-sdk/client-s3';
import { ObjectExistsError } from '../../../src/platform/object-store/object-store';
import { InvalidObjectKeyError } from '../../../src/platform/object-store/object-key';
import { openObjectStore, s3Client } from '../../../src/platform/object-store/open-object-store';
import { S3ObjectStore } from '../../../src/platform/object-store/s3-object-store';
import { setUpS3Server } from '../../helpers/s3-server';
import { itBehavesLikeAnObjectStore } from '../../helpers/object-store-contract';

// The S3 store: the real AWS SDK over HTTP against s3rver, a fake S3 on 127.0.0.1.

jest.setTimeout(60_000);

const s3 = setUpS3Server();

/** A store on its own prefix of the bucket, so tests do not see each other's objects. */
let stores = 0;
function newStore(): S3ObjectStore {
  return new S3ObjectStore({ bucket: s3.server.bucket, prefix: `test-${++stores}/releases`, client: s3.client });
}

describe('S3ObjectStore', () => {
  it('stores objects under its prefix and reads them back', async () => {
    const store = newStore();
    await store.put('shell/r1/index.html', Buffer.from('<html>'));
    await store.put('shell/r1/server/main.js', Buffer.from('module.exports = 1;'));
    const binary = Buffer.from(Array.from({ length: 256 }, (_, n) => n));
    await store.put('shell/r1/logo.png', binary);

    expect((await store.get('shell/r1/index.html'))?.toString()).toBe('<html>');
    expect(await store.get('shell/r1/logo.png')).toEqual(binary);
    expect(await store.size('shell/r1/server/main.js')).toBe(19);
    expect(await store.get('shell/r1/none.js')).toBeUndefined();
    expect(await store.size('shell/r1/none.js')).toBeUndefined();
    expect(store.location).toBe(`s3://${s3.server.bucket}/test-${stores}/releases`);
  });

  it('opens from an s3:// URL and the S3 settings of the environment', async () => {
    const store = openObjectStore(`s3://${s3.server.bucket}/opened`, s3.server.s3);
    await store.put('home/r1/a.js', Buffer.from('a'));
    const same = new S3ObjectStore({ bucket: s3.server.bucket, prefix: 'opened/', client: s3.client });
    expect((await same.get('home/r1/a.js'))?.toString()).toBe('a');
    expect(await newStore().list('')).toEqual([]);
  });

  itBehavesLikeAnObjectStore(() => newStore());

  it('lists and deletes past one page of 1000 keys', async () => {
    const store = newStore();
    const keys = Array.from({ length: 1003 }, (_, n) => `blog/r1/chunk-${String(n).padStart(4, '0')}.js`);
    // Straight through the client: one request per object is enough to fill the bucket.
    for (let start = 0; start < keys.length; start += 50) {
      await Promise.all(
        keys.slice(start, start + 50).map((key) => s3.client.send(new PutObjectCommand({ Bucket: s3.server.bucket, Key: store.prefix + key, Body: key }))),
      );
    }
    await store.put('blog/r2/kept.js', Buffer.from('kept'));
    expect(await store.list('blog/r1/')).toEqual(keys);
    await store.deletePrefix('blog/r1/');
    expect(await store.list('blog/')).toEqual(['blog/r2/kept.js']);
  });

  it('refuses to overwrite an object and leaves it unchanged', async () => {
    const store = newStore();
    await store.put('shell/r1/remoteEntry.js', Buffer.from('first'));
    await expect(store.put('shell/r1/remoteEntry.js', Buffer.from('second'))).rejects.toThrow(ObjectExistsError);
    expect((await store.get('shell/r1/remoteEntry.js'))?.toString()).toBe('first');
  });

  it('asks the server itself to refuse an existing key (If-None-Match: *)', async () => {
    const recording = s3Client(s3.server.s3);
    const headers: Record<string, string>[] = [];
    recording.middlewareStack.add(
      (next) => async (args) => {
        headers.push({ ...(args.request as { headers: Record<string, string> }).headers });
        return next(args);
      },
      { step: 'finalizeRequest' },
    );
    const store = new S3ObjectStore({ bucket: s3.server.bucket, prefix: 'conditional', client: recording });
    await store.put('shell/r1/a.js', Buffer.from('a'));
    recording.destroy();
    expect(headers.map((sent) => sent['if-none-match'])).toContain('*');
  });

  it('refuses keys that are not plain relative paths', async () => {
    const store = newStore();
    for (const key of ['', '/abs/file.js', 'shell/../../x.js', 'shell/./a.js', 'shell//a.js', 'shell/a.js/', 'shell\\a.js', 'shell/a\0.js']) {
      await expect(store.put(key, Buffer.from('x'))).rejects.toThrow(InvalidObjectKeyError);
      await expect(store.get(key)).rejects.toThrow(InvalidObjectKeyError);
      await expect(store.size(key)).rejects.toThrow(InvalidObjectKeyError);
    }
    await expect(store.list('shell')).rejects.toThrow(InvalidObjectKeyError);
    await expect(store.deletePrefix('')).rejects.toThrow(InvalidObjectKeyError);
    await expect(store.deletePrefix('../')).rejects.toThrow(InvalidObjectKeyError);
    expect(await store.list('')).toEqual([]);
  });

  it('reports a missing bucket as an error, not as a missing object', async () => {
    const store = new S3ObjectStore({ bucket: 'no-such-bucket', prefix: '', client: s3.client });
    await expect(store.get('shell/r1/a.js')).rejects.toThrow();
    await expect(store.list('shell/')).rejects.toThrow();
  });
});
