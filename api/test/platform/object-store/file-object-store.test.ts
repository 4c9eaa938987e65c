import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ObjectExistsError } from '../../../src/platform/object-store/object-store';
import { FileObjectStore } from '../../../src/platform/object-store/file-object-store';
import { InvalidObjectKeyError } from '../../../src/platform/object-store/object-key';
import { openObjectStore, s3Client } from '../../../src/platform/object-store/open-object-store';
import { S3ObjectStore } from '../../../src/platform/object-store/s3-object-store';
import { itBehavesLikeAnObjectStore } from '../../helpers/object-store-contract';
import { loadDeliveryConfig } from '../../../src/platform/config';

/** S3 settings of a site that names no S3 store. */
const NO_S3 = loadDeliveryConfig({}).s3;

// The local-folder store, on a temp folder, and how RELEASE_STORE values open a store.

let dir: string;
let store: FileObjectStore;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'file-store-'));
  store = new FileObjectStore(dir);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const BAD_KEYS = ['', '/abs/file.js', 'shell/../../etc/passwd', 'shell/./a.js', 'shell//a.js', 'shell/a.js/', 'shell\\a.js', 'shell/a\0.js', '..'];

describe('FileObjectStore', () => {
  it('stores objects as files under its folder and reads them back', async () => {
    await store.put('shell/r1/index.html', Buffer.from('<html>'));
    await store.put('shell/r1/server/main.js', Buffer.from('module.exports = 1;'));
    await store.put('shell/r2/index.html', Buffer.from('two'));

    expect(fs.readFileSync(path.join(dir, 'shell', 'r1', 'server', 'main.js'), 'utf8')).toBe('module.exports = 1;');
    expect((await store.get('shell/r1/index.html'))?.toString()).toBe('<html>');
    expect(await store.size('shell/r1/server/main.js')).toBe(19);
    expect(await store.get('shell/r1/none.js')).toBeUndefined();
    expect(await store.size('shell/r1/none.js')).toBeUndefined();
    // A folder is no object.
    expect(await store.get('shell/r1')).toBeUndefined();
    expect(await store.size('shell/r1')).toBeUndefined();
    expect(store.location).toBe(`file:${dir}`);
  });

  itBehavesLikeAnObjectStore(() => store);

  it('refuses to overwrite an object and leaves it unchanged, with no temporary file behind', async () => {
    await store.put('shell/r1/remoteEntry.js', Buffer.from('first'));
    await expect(store.put('shell/r1/remoteEntry.js', Buffer.from('second'))).rejects.toThrow(ObjectExistsError);
    expect((await store.get('shell/r1/remoteEntry.js'))?.toString()).toBe('first');
    expect(fs.readdirSync(path.join(dir, 'shell', 'r1'))).toEqual(['remoteEntry.js']);
  });

  it('lets one of several simultaneous puts of a key win, whole', async () => {
    const bodies = Array.from({ length: 10 }, (_, n) => Buffer.alloc(100_000, n));
    const outcomes = await Promise.allSettled(bodies.map((body) => store.put('shell/r1/chunk.js', body)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const stored = await store.get('shell/r1/chunk.js');
    expect(bodies.some((body) => stored?.equals(body))).toBe(true);
    expect(await store.list('shell/')).toEqual(['shell/r1/chunk.js']);
  });

  it('refuses keys that are not plain relative paths', async () => {
    for (const key of BAD_KEYS) {
      await expect(store.put(key, Buffer.from('x'))).rejects.toThrow(InvalidObjectKeyError);
      await expect(store.get(key)).rejects.toThrow(InvalidObjectKeyError);
      await expect(store.size(key)).rejects.toThrow(InvalidObjectKeyError);
    }
    await expect(store.list('shell')).rejects.toThrow(InvalidObjectKeyError);
    await expect(store.list('../')).rejects.toThrow(InvalidObjectKeyError);
    await expect(store.deletePrefix('')).rejects.toThrow(InvalidObjectKeyError);
    await expect(store.deletePrefix('/')).rejects.toThrow(InvalidObjectKeyError);
    expect(() => store.localFolder('../')).toThrow(InvalidObjectKeyError);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('gives the folder of a prefix for reading in place', () => {
    expect(store.localFolder('blog/r1/')).toBe(path.join(dir, 'blog', 'r1'));
  });
});

describe('openObjectStore', () => {
  it('opens file: stores, relative folders from the base folder', () => {
    expect(openObjectStore('file:/srv/releases', NO_S3).location).toBe(`file:${path.resolve('/srv/releases')}`);
    expect(openObjectStore('file:///srv/releases', NO_S3).location).toBe(`file:${path.resolve('/srv/releases')}`);
    expect(openObjectStore('file:data/releases', NO_S3, '/opt/site').location).toBe(`file:${path.resolve('/opt/site/data/releases')}`);
    expect(openObjectStore('file:./data/releases', NO_S3, '/opt/site')).toBeInstanceOf(FileObjectStore);
  });

  it('opens s3:// stores', () => {
    const store = openObjectStore('s3://site-releases/prod/releases/', NO_S3);
    expect(store).toBeInstanceOf(S3ObjectStore);
    expect(store.location).toBe('s3://site-releases/prod/releases');
    expect((store as S3ObjectStore).prefix).toBe('prod/releases/');
    expect(store.localFolder).toBeUndefined();
    expect(openObjectStore('s3://site-releases', NO_S3).location).toBe('s3://site-releases/');
  });

  it('takes the S3 client settings from the configuration', async () => {
    const compatible = s3Client(loadDeliveryConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000', AWS_ACCESS_KEY_ID: 'key', AWS_SECRET_ACCESS_KEY: 'secret' }).s3);
    expect(await compatible.config.region()).toBe('us-east-1');
    expect(compatible.config.forcePathStyle).toBe(true);
    expect((await compatible.config.credentials()).accessKeyId).toBe('key');
    expect((await compatible.config.endpoint?.())?.hostname).toBe('127.0.0.1');

    const aws = s3Client(loadDeliveryConfig({ AWS_REGION: 'eu-central-1' }).s3);
    expect(await aws.config.region()).toBe('eu-central-1');
    expect(aws.config.forcePathStyle).toBe(false);
    expect(s3Client(loadDeliveryConfig({ S3_ENDPOINT: 'https://s3.example', S3_FORCE_PATH_STYLE: 'false' }).s3).config.forcePathStyle).toBe(false);
    expect(s3Client(loadDeliveryConfig({ S3_FORCE_PATH_STYLE: '1' }).s3).config.forcePathStyle).toBe(true);
  });

  it('refuses anything else with the forms it takes', () => {
    const forms = 'RELEASE_STORE must be file:<dir> or s3://<bucket>/<prefix>';
    for (const url of ['', '/srv/releases', 'http://bucket/x', 's3:/bucket', 'file:', 's3://Bad_Bucket/x', 's3://bucket/a/../b']) {
      expect(() => openObjectStore(url, NO_S3)).toThrow(forms);
    }
    expect(() => loadDeliveryConfig({ S3_ENDPOINT: 'localhost:9000' })).toThrow('S3_ENDPOINT must be an http(s) URL');
    expect(() => loadDeliveryConfig({ S3_FORCE_PATH_STYLE: 'yes' })).toThrow('S3_FORCE_PATH_STYLE must be true or false');
  });
});
