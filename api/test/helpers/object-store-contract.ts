import type { ObjectStore } from '../../src/platform/object-store/object-store';

/** What every artifact store does alike (a folder, S3): run inside each store's own `describe`. */
export function itBehavesLikeAnArtifactStore(newStore: () => ObjectStore): void {
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
}
