import fs from 'node:fs';
import path from 'node:path';
import type { ObjectStore } from '../../../src/platform/object-store/object-store';
import { ReleaseCache } from '../../../src/delivery/artifacts/release-files';
import { REFRESH_MS, ReleaseReader, type ReleaseFolders } from '../../../src/delivery/releases/reader';
import { createReleaseFixture, publishFixture, type FixtureBuild, type ReleaseFixture } from '../../helpers/releases';

// The server's view of the releases: it asks the database at most once per refresh interval, sees
// a change only after that, brings the releases' files here first, and keeps what it served when
// the new state cannot be read.

let fixture: ReleaseFixture;
beforeEach(async () => (fixture = await createReleaseFixture()));
afterEach(() => fixture.cleanup());

const release = (app: string, build: FixtureBuild = {}) => publishFixture(fixture, app, build);

/**
 * The release folders of the fixture's store (a local store: read in place), counting the work
 * asked of them; `breakWith` makes every read of the store throw.
 */
function countingFolders() {
  const { store } = fixture.context;
  /** When set, every read of the store throws it. */
  let broken: Error | undefined;
  const reads = <T>(read: () => Promise<T>) => (broken ? Promise.reject(broken) : read());
  const flaky: ObjectStore = {
    location: store.location,
    put: (key, body) => store.put(key, body),
    get: (key) => reads(() => store.get(key)),
    size: (key) => reads(() => store.size(key)),
    list: (prefix) => reads(() => store.list(prefix)),
    deletePrefix: (prefix) => store.deletePrefix(prefix),
    delete: (key) => store.delete(key),
    localFolder: (prefix) => store.localFolder!(prefix),
  };
  const cache = new ReleaseCache({ store: flaky, dir: path.join(fixture.scratch, 'cache') });
  const calls = { localDir: [] as string[], keepOnly: [] as string[][] };
  const folders: ReleaseFolders = {
    localDir(app, id) {
      calls.localDir.push(`${app}/${id}`);
      return cache.localDir(app, id);
    },
    keepOnly(kept) {
      calls.keepOnly.push([...kept].sort());
      return cache.keepOnly(kept);
    },
  };
  return { folders, calls, breakWith: (error: Error | undefined) => (broken = error) };
}

describe("the server's reader", () => {
  it('serves a new current release once its last read is a refresh interval (1 s) old, not before', async () => {
    let now = 0;
    const { folders } = countingFolders();
    const reader = new ReleaseReader(fixture.db, folders, () => undefined, () => now);
    const first = await release('forms');
    expect((await reader.get('forms')).current?.id).toBe(first);
    const second = await release('forms', { label: 'forms-2' });
    now += REFRESH_MS - 1;
    expect((await reader.get('forms')).current?.id).toBe(first);
    now += 1;
    const forms = await reader.get('forms');
    expect(forms.current?.id).toBe(second);
    expect(forms.previous?.id).toBe(first);
    expect(REFRESH_MS).toBeLessThanOrEqual(1000);
  });

  it("gives every kept release its files' folder on this machine: the local store's own", async () => {
    const { folders } = countingFolders();
    const reader = new ReleaseReader(fixture.db, folders);
    const first = await release('blog', { label: 'a' });
    const second = await release('blog', { label: 'b' });
    const blog = await reader.get('blog');
    expect(blog.releases.map((kept) => [kept.id, kept.dir])).toEqual([
      [second, path.join(fixture.storeDir, 'blog', second)],
      [first, path.join(fixture.storeDir, 'blog', first)],
    ]);
    expect(fs.readFileSync(path.join(blog.current!.dir, 'remoteEntry.js'), 'utf8')).toContain('// b');
    // An app without releases: nothing kept, nothing current.
    expect(await reader.get('home')).toMatchObject({ releases: [], current: undefined, candidate: undefined });
  });

  it('asks only for the revision while nothing changed, and brings only new releases here', async () => {
    let now = 0;
    const { folders, calls } = countingFolders();
    const reader = new ReleaseReader(fixture.db, folders, () => undefined, () => now);
    const first = await release('blog', { label: 'a' });
    await reader.get('blog');
    expect(calls).toEqual({ localDir: [`blog/${first}`], keepOnly: [[`blog/${first}`]] });
    // Read again and again within the interval, then after it with nothing changed: no reload.
    await Promise.all([reader.get('blog'), reader.get('home'), reader.get('blog')]);
    now += REFRESH_MS;
    await reader.get('blog');
    expect(calls.keepOnly).toHaveLength(1);

    const second = await release('blog', { label: 'b' });
    now += REFRESH_MS;
    await reader.get('blog');
    // The first release's folder is reused: its files never change.
    expect(calls.localDir).toEqual([`blog/${first}`, `blog/${second}`]);
    expect(calls.keepOnly.at(-1)).toEqual([`blog/${first}`, `blog/${second}`].sort());
  });

  it("keeps the last state and reports the error while a new release's files cannot be brought here", async () => {
    let now = 0;
    const errors: unknown[] = [];
    const { folders, breakWith } = countingFolders();
    const reader = new ReleaseReader(fixture.db, folders, (error) => errors.push(error), () => now);
    const first = await release('home');
    expect((await reader.get('home')).current?.id).toBe(first);

    const unreachable = new Error('the artifact store is unreachable');
    breakWith(unreachable);
    const second = await release('home', { label: 'home-2' });
    now += REFRESH_MS;
    expect((await reader.get('home')).current?.id).toBe(first); // re-read, failed, kept
    expect(errors).toEqual([unreachable]);
    // Not asked again within the interval.
    expect((await reader.get('home')).current?.id).toBe(first);
    expect(errors).toHaveLength(1);

    // Once the store answers again, the next refresh serves the new release.
    breakWith(undefined);
    now += REFRESH_MS;
    expect((await reader.get('home')).current?.id).toBe(second);
    expect(errors).toHaveLength(1);
  });

  it('keeps the last state and reports the error when the state in the database is unreadable', async () => {
    let now = 0;
    const errors: unknown[] = [];
    const { folders } = countingFolders();
    const reader = new ReleaseReader(fixture.db, folders, (error) => errors.push(error), () => now);
    const first = await release('home');
    const second = await release('home', { label: 'home-2' });
    expect((await reader.get('home')).current?.id).toBe(second);

    // A history that is not JSON, written by a change that moved the revision.
    await fixture.db.kysely.updateTable('release_apps').set({ history: `["${first}"` }).where('app', '=', 'home').execute();
    await fixture.db.kysely.updateTable('release_revision').set({ revision: 1000 }).where('id', '=', 1).execute();
    now += REFRESH_MS;
    expect((await reader.get('home')).current?.id).toBe(second);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toContain("The release state's history of home is not JSON");

    // A reader that never read a state serves none (every app from its dist folder).
    const fresh = new ReleaseReader(fixture.db, folders, (error) => errors.push(error), () => now);
    expect((await fresh.get('home')).current).toBeUndefined();
    expect(errors).toHaveLength(2);
  });
});
