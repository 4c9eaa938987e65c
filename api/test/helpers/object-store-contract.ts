import type { ObjectStore } from '../../src/platform/object-store/object-store';

/** What every object store does alike (a folder, S3): run inside each store's own `describe`. */
export function itBehavesLikeAnObjectStore(newStore: () => ObjectStore): void {
  it('lists the keys under a prefix, sorted, and deletes them', async () => {
    const store = newStore();
    for (const key of ['blog/r1/b.js', 'blog/r1/a/z.js', 'blog/r10/a.js', 'blog/r1/a.js']) await store.put(key, Buffer.from(key));
    expect(await store.list('blog/r1/')).toEqual(['blog/r1/a.js', 'blog/r1/a/z.js', 'blog/r1/b.js']);
    expect(await store.list('')).toHaveLength(4);
    expect(await store.list('home/')).toEqual([]);

    await store.deletePrefix('blog/r1/');
    expect(await store.list('blog/')).toEqual(['blog/r10/a.js']);
    await store.deletePrefix('blog/none/');
  });

  it('deletes one object, and a missing one without complaint', async () => {
    const store = newStore();
    for (const key of ['wal/000000010000000000000001', 'wal/000000010000000000000002']) await store.put(key, Buffer.from(key));
    await store.delete('wal/000000010000000000000001');
    await store.delete('wal/000000010000000000000009');
    expect(await store.list('wal/')).toEqual(['wal/000000010000000000000002']);
    expect(await store.get('wal/000000010000000000000001')).toBeUndefined();
  });
}
