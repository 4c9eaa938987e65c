import { REMOTE_NAMES } from '@agency/shared';
import fs from 'node:fs';
import path from 'node:path';
import { formatReleaseResult } from '../../../src/delivery/cli/release-text';
import { REPO_ROOT } from '../../../src/platform/config';
import { RELEASE_MANIFEST } from '../../../src/delivery/artifacts/release-files';
import { readBuildFolder } from '../../../src/delivery/releases/build-folder';
import { list, promote, publish, RefusedError, rollback, type ReleaseContext } from '../../../src/delivery/releases/commands';
import { UPLOAD_LEASE_MS } from '../../../src/delivery/releases/publish';
import { pruneReleases, SKEW_WINDOW_MS } from '../../../src/delivery/releases/prune';
import { gitRevision, releaseId } from '../../../src/delivery/releases/release-id';
import { loadAppReleases } from '../../../src/delivery/releases/release-repository';
import { createReleaseFixture, fixtureFiles, publishFixture, type FixtureBuild, type ReleaseFixture } from '../../helpers/releases';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { writeBuildStamp } = require('@agency/shared/webpack/build-stamp.js') as { writeBuildStamp(dist: string, stamp: { revision: string }): void };

// The release model in process: publish, list, rollback, promote, pruning, ids and the
// compatibility gate, on a real database and a file artifact store (cli/release.test.ts runs the
// real command).

const HOUR = 3_600_000;
const ACTOR = 'cli:test@fixture';
const ISO_TIME = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

let fixture: ReleaseFixture;
beforeEach(async () => {
  fixture = await createReleaseFixture();
});
afterEach(() => fixture.cleanup());

const later = (ms: number) => fixture.later(ms);

/** Publishes a fixture build and returns the new current release id. */
const release = (app: string, build: FixtureBuild = {}, keep?: number) => publishFixture(fixture, app, build, keep);

const state = (app: string) => loadAppReleases(fixture.db, app);
const currentId = async (app: string) => (await state(app)).current?.id;
const history = async (app: string) => (await state(app)).history;
const keptIds = async (app: string) => (await state(app)).releases.map((kept) => kept.id);
/** `<release> <action>` of the app's events, oldest first. */
const actions = async (app: string) => (await state(app)).events.map((event) => `${event.release} ${event.action}`);
/** The keys the artifact store holds under a prefix. */
const stored = (prefix: string) => fixture.context.store.list(prefix);

describe('publishing', () => {
  it('stores the build as an immutable release in the artifact store that becomes current', async () => {
    const dist = fixture.build('blog', { stamp: '2026-11-22T06:15:00.123Z' });
    const output = await publish(fixture.context, 'blog', await readBuildFolder(dist));
    const id = (await currentId('blog')) ?? '';
    expect(id).toMatch(/^1\.0\.0-([0-9a-f]{7,}(-dirty)?|unknown)-20261122T061500Z$/);
    expect(output).toMatchObject({ kind: 'publish', app: 'blog', build: { release: { id }, created: true, source: dist }, alreadyCurrent: false, pruned: [] });
    expect(formatReleaseResult(output)).toEqual([`Published blog release ${id} from ${dist}`, `blog release ${id} is now current`]);

    // Its files are in the store under <app>/<id>/, with the manifest written last, and nothing else.
    const files = Object.entries(fixtureFiles('blog', { stamp: 'x' })).filter(([name]) => name !== '.build-stamp');
    expect(await stored('blog/')).toEqual([...files.map(([name]) => `blog/${id}/${name}`), `blog/${id}/${RELEASE_MANIFEST}`].sort());
    const dir = path.join(fixture.storeDir, 'blog', id);
    expect(fs.readFileSync(path.join(dir, 'chunk.0123abcd45.js'), 'utf8')).toBe('chunk("v1")');
    expect(fs.existsSync(path.join(dir, '.build-stamp'))).toBe(false);
    expect(fs.readdirSync(fixture.storeDir)).toEqual(['blog']);

    // Its record, in the database.
    const { releases } = await state('blog');
    expect(releases).toEqual([
      {
        id,
        app: 'blog',
        version: '1.0.0',
        revision: expect.stringMatching(/^([0-9a-f]{7,}(-dirty)?|unknown)$/),
        builtAt: '2026-11-22T06:15:00.123Z',
        publishedAt: expect.stringMatching(/^2026-01-01T/),
        publishedBy: ACTOR,
        digest: expect.stringMatching(/^[0-9a-f]{64}$/),
        fileCount: files.length,
        totalBytes: files.reduce((sum, [, content]) => sum + Buffer.byteLength(content), 0),
      },
    ]);
    expect(await history('blog')).toEqual([id]);
    expect((await state('blog')).events).toEqual([{ at: ISO_TIME, release: id, action: 'published', reason: `published from ${dist} and made current`, actor: ACTOR }]);

    const listing = formatReleaseResult(await list(fixture.context, 'blog'));
    expect(listing[0]).toBe('blog releases, newest first (* = current):');
    expect(listing[2]).toMatch(new RegExp(`^\\* ${id.replace(/\./g, '\\.')} +2026-11-22T06:15:00.123Z +\\S+ +2026-01-01T\\S+ +current$`));
  });

  it('never overwrites a release: the same id with other content gets a suffix, the same build is reused', async () => {
    const stamp = '2026-11-22T06:15:00.000Z';
    const first = await release('home', { stamp, label: 'v1' });
    const second = await release('home', { stamp, label: 'v2' });
    expect(second).toBe(`${first}-2`);
    expect((await fixture.context.store.get(`home/${first}/remoteEntry.js`))?.toString()).toContain('v1');
    expect((await fixture.context.store.get(`home/${second}/remoteEntry.js`))?.toString()).toContain('v2');

    // Publishing the first build again makes its existing release current; nothing is stored over it.
    const dist = fixture.build('home', { stamp, label: 'v1' });
    const output = await publish(fixture.context, 'home', await readBuildFolder(dist));
    expect(output).toMatchObject({ build: { release: { id: first }, created: false, source: dist }, alreadyCurrent: false });
    expect(formatReleaseResult(output)).toEqual([`home release ${first} already holds this build`, `home release ${first} is now current`]);
    expect(await history('home')).toEqual([first, second, first]);
    expect(await keptIds('home')).toHaveLength(2);
    expect((await stored('home/')).filter((key) => key.endsWith(RELEASE_MANIFEST))).toHaveLength(2);

    // Once more: it is current already, nothing is recorded.
    const before = (await state('home')).state;
    const again = await publish(fixture.context, 'home', await fixture.buildOf('home', { stamp, label: 'v1' }));
    expect(again).toMatchObject({ alreadyCurrent: true, pruned: [] });
    expect(formatReleaseResult(again)).toEqual([`home release ${first} already holds this build`, `${first} is already the current home release`]);
    expect((await state('home')).state).toEqual(before);
  });

  it("takes the id's version and revision from the build, not the checkout", async () => {
    // A CI artifact: its manifest names the app's version, its stamp the revision it was built from.
    const stamp = JSON.stringify({ builtAt: '2026-11-22T06:15:00.000Z', revision: '0badc0d-dirty' });
    const id = await release('blog', { stamp, buildVersion: '2.5.0' });
    expect(id).toBe('2.5.0-0badc0d-dirty-20261122T061500Z');
    expect((await state('blog')).current).toMatchObject({ version: '2.5.0', revision: '0badc0d-dirty', builtAt: '2026-11-22T06:15:00.000Z' });
    // A changed copy of that build (its stamp copied along) still gets a release of its own.
    expect(await release('blog', { stamp, buildVersion: '2.5.0', label: 'v2' })).toBe(`${id}-2`);
    expect(await release('shell', { stamp, buildVersion: '3.0.0' })).toBe('3.0.0-0badc0d-dirty-20261122T061500Z');
    // Without them: the checkout's package.json version and revision.
    const fallback = await release('home', { stamp: JSON.stringify({ builtAt: '2026-11-22T06:15:00.000Z' }) });
    expect(fallback).toBe(releaseId('1.0.0', gitRevision(REPO_ROOT), new Date('2026-11-22T06:15:00.000Z')));
  });

  it('reads the stamp scripts/build-if-stale.mjs writes', async () => {
    const dist = fixture.build('forms');
    writeBuildStamp(dist, { revision: gitRevision(REPO_ROOT) });
    const stamp = JSON.parse(fs.readFileSync(path.join(dist, '.build-stamp'), 'utf8')) as { builtAt: string; revision: string };
    expect(stamp).toEqual({ builtAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), revision: gitRevision(REPO_ROOT) });
    await publish(fixture.context, 'forms', await readBuildFolder(dist));
    expect(await currentId('forms')).toBe(releaseId('1.0.0', stamp.revision, new Date(stamp.builtAt)));
  });

  it('refuses a build that is not one of the app, and a folder that does not exist', async () => {
    await expect(publish(fixture.context, 'shell', await fixture.buildOf('blog'))).rejects.toThrow('A shell build needs index.html at its root.');
    expect(await currentId('shell')).toBeUndefined();
    expect(await keptIds('shell')).toEqual([]);
    expect(await stored('')).toEqual([]);
    const missing = path.join(fixture.scratch, 'nope');
    await expect(readBuildFolder(missing)).rejects.toThrow(`${missing} does not exist: build the app first, or name its build with --dist`);
  });
});

describe('rollback and promote', () => {
  it('rolls back to the previous release, and no further than the first', async () => {
    const first = await release('forms', { label: 'v1' });
    const second = await release('forms', { label: 'v2' });
    const rolledBack = await rollback(fixture.context, 'forms');
    expect(rolledBack).toMatchObject({ kind: 'rollback', app: 'forms', from: { id: second }, to: { id: first }, candidate: false });
    expect(formatReleaseResult(rolledBack)).toEqual([`Rolled back forms: release ${first} is now current (was ${second})`]);
    expect(await currentId('forms')).toBe(first);
    expect(await history('forms')).toEqual([first]);
    expect((await state('forms')).events.at(-1)).toEqual({ at: ISO_TIME, release: second, action: 'rolled_back', reason: `rolled back by hand to ${first}`, actor: ACTOR });
    await expect(rollback(fixture.context, 'forms')).rejects.toThrow(`forms has no previous release to roll back to; the current release stays ${first}.`);
    await expect(rollback(fixture.context, 'blog')).rejects.toThrow(new RefusedError('blog has no current release; it is served from mfe-blog/dist.'));
    // The rolled-back release is kept, and no longer current since the rollback; the first is current again.
    const kept = (await state('forms')).releases;
    expect(kept.find((entry) => entry.id === second)?.currentUntil).toEqual(ISO_TIME);
    expect(kept.find((entry) => entry.id === first)?.currentUntil).toBeUndefined();
  });

  it('promotes any kept release', async () => {
    const [a, b, c] = [await release('blog', { label: 'a' }), await release('blog', { label: 'b' }), await release('blog', { label: 'c' })];
    const promoted = await promote(fixture.context, 'blog', a);
    expect(promoted).toMatchObject({ kind: 'promote', release: { id: a }, alreadyCurrent: false, from: { id: c } });
    expect(formatReleaseResult(promoted)).toEqual([`blog release ${a} is now current (was ${c})`]);
    expect(await history('blog')).toEqual([a, b, c, a]);
    expect((await state('blog')).events.at(-1)).toEqual({ at: ISO_TIME, release: a, action: 'promoted', reason: 'promoted by hand', actor: ACTOR });
    const revision = (await state('blog')).state.revision;
    const again = await promote(fixture.context, 'blog', a);
    expect(again).toMatchObject({ release: { id: a }, alreadyCurrent: true });
    expect(formatReleaseResult(again)).toEqual([`${a} is already the current blog release`]);
    expect((await state('blog')).state.revision).toBe(revision);
    await expect(promote(fixture.context, 'blog', 'nope')).rejects.toThrow(/There is no blog release nope\. Kept releases: /);
    // A rollback undoes the promotion.
    await rollback(fixture.context, 'blog');
    expect(await currentId('blog')).toBe(c);
  });
});

describe('pruning', () => {
  it('keeps the N newest and never deletes the current or the previous release', async () => {
    const ids = [];
    for (const label of ['a', 'b', 'c']) ids.push(await release('home', { label }));
    const [a, b, c] = ids as [string, string, string];
    await rollback(fixture.context, 'home'); // current b, previous a
    expect(await currentId('home')).toBe(b);
    // Past the skew window of a and c, keep 1: the newest (d) plus current d and previous b; a and c go.
    later(SKEW_WINDOW_MS + HOUR);
    const d = await release('home', { label: 'd' }, 1);
    expect(await keptIds('home')).toEqual([d, b]);
    for (const gone of [a, c]) expect(await stored(`home/${gone}/`)).toEqual([]);
    expect(await stored(`home/${b}/`)).toContain(`home/${b}/${RELEASE_MANIFEST}`);
    expect(await history('home')).toEqual([b, d]);
    expect((await state('home')).events.filter((event) => event.action === 'pruned')).toEqual(
      [c, a].map((gone) => ({ at: ISO_TIME, release: gone, action: 'pruned', reason: 'older than the 1 newest releases kept', actor: ACTOR })),
    );
    await rollback(fixture.context, 'home');
    expect(await currentId('home')).toBe(b);
  });

  it('keeps RELEASES_KEEP (the context default) releases', async () => {
    const context: ReleaseContext = { ...fixture.context, keep: 2 };
    for (const label of ['a', 'b', 'c', 'd']) {
      later(SKEW_WINDOW_MS + HOUR);
      await publish(context, 'forms', await fixture.buildOf('forms', { label }));
    }
    expect(await keptIds('forms')).toHaveLength(2);
  });

  it('keeps a release that stopped being current within the skew window (24 h)', async () => {
    const [a, b, c] = [await release('blog', { label: 'a' }), await release('blog', { label: 'b' }), await release('blog', { label: 'c' })];
    const releases = (await state('blog')).releases;
    const byId = (id: string) => releases.find((kept) => kept.id === id);
    // a stopped being current when b was published, b when c was; c is current.
    expect(byId(c)?.currentUntil).toBeUndefined();
    const stoppedAt = Date.parse(byId(a)?.currentUntil ?? '');
    expect(stoppedAt).toBeGreaterThan(Date.parse(byId(a)!.publishedAt));
    expect(Date.parse(byId(b)?.currentUntil ?? '')).toBeGreaterThan(stoppedAt);
    expect(SKEW_WINDOW_MS).toBe(24 * HOUR);

    // keep 1 keeps c (newest, current) and b (previous); a only for the skew window.
    const prune = (at: number) => pruneReleases(fixture.db, fixture.context.store, 'blog', 1, ACTOR, at);
    expect(await prune(stoppedAt + 23 * HOUR)).toEqual([]);
    expect(await keptIds('blog')).toEqual([c, b, a]);
    expect((await prune(stoppedAt + 25 * HOUR)).map((gone) => gone.id)).toEqual([a]);
    expect(await keptIds('blog')).toEqual([c, b]);
    expect(await stored(`blog/${a}/`)).toEqual([]);
  });

  it('deletes the files from the store only after the record forgot the release', async () => {
    const a = await release('blog', { label: 'a' });
    later(SKEW_WINDOW_MS + HOUR);
    await release('blog', { label: 'b' });
    later(SKEW_WINDOW_MS + HOUR);
    await release('blog', { label: 'c' });
    const { store } = fixture.context;
    // What the record says of a, and whether its files are still there, when its files are deleted.
    const seen: { prefix: string; rows: number; listed: boolean; files: number }[] = [];
    const deletePrefix = store.deletePrefix.bind(store);
    const spy = jest.spyOn(store, 'deletePrefix').mockImplementation(async (prefix) => {
      const rows = await fixture.db.kysely.selectFrom('releases').select('id').where('app', '=', 'blog').where('id', '=', a).execute();
      seen.push({ prefix, rows: rows.length, listed: (await keptIds('blog')).includes(a), files: (await stored(`blog/${a}/`)).length });
      return deletePrefix(prefix);
    });
    try {
      expect((await pruneReleases(fixture.db, store, 'blog', 1, ACTOR, fixture.time())).map((gone) => gone.id)).toEqual([a]);
    } finally {
      spy.mockRestore();
    }
    expect(seen).toEqual([{ prefix: `blog/${a}/`, rows: 0, listed: false, files: expect.any(Number) as number }]);
    expect(seen[0]?.files).toBeGreaterThan(0);
    expect(await stored(`blog/${a}/`)).toEqual([]);
  });

  it('removes an upload that crashed (its id taken longer than an upload may take), and leaves a running one alone', async () => {
    const current = await release('blog', { label: 'a' });
    const upload = (id: string, publishedAt: Date) =>
      fixture.db.kysely
        .insertInto('releases')
        .values({
          app: 'blog',
          id,
          status: 'uploading',
          version: '1.0.0',
          revision: 'abc1234',
          built_at: publishedAt.toISOString(),
          published_at: publishedAt.toISOString(),
          digest: 'd'.repeat(64),
          file_count: 1,
          total_bytes: 1,
          published_by: ACTOR,
        })
        .execute();
    const now = fixture.time();
    await upload('crashed', new Date(now - UPLOAD_LEASE_MS - 1000));
    await upload('running', new Date(now - 1000));
    for (const id of ['crashed', 'running']) await fixture.context.store.put(`blog/${id}/remoteEntry.js`, Buffer.from('half'));
    // Neither was ever a release: not listed, not pruned as one.
    expect(await keptIds('blog')).toEqual([current]);
    expect(await pruneReleases(fixture.db, fixture.context.store, 'blog', 5, ACTOR, now)).toEqual([]);
    const rows = await fixture.db.kysely.selectFrom('releases').select(['id', 'status']).where('app', '=', 'blog').orderBy('id').execute();
    expect(rows).toEqual([
      { id: current, status: 'stored' },
      { id: 'running', status: 'uploading' },
    ]);
    expect(await stored('blog/crashed/')).toEqual([]);
    expect(await stored('blog/running/')).toEqual(['blog/running/remoteEntry.js']);
  });
});

describe('compatibility gate', () => {
  it('refuses a remote that needs a singleton version the current shell does not provide', async () => {
    const good = await release('blog', { label: 'good' });
    const attempt = publish(fixture.context, 'blog', await fixture.buildOf('blog', { label: 'bad', required: { 'react-dom': '^99.0.0' } }));
    await expect(attempt).rejects.toThrow(RefusedError);
    const message = await attempt.catch((error: Error) => error.message);
    expect(message).toMatch(
      new RegExp(
        `^Refused: blog release (\\S+) needs react-dom \\^99\\.0\\.0, but the current shell \\(release dist\\) provides react-dom 19\\.3\\.1\\. ` +
          `The current blog release stays ${good.replace(/\./g, '\\.')}\\. Release \\1 is kept: make it current later with --promote \\1\\.$`,
      ),
    );
    expect(await currentId('blog')).toBe(good);
    expect(await actions('blog')).toEqual([`${good} published`]);
    // The refused release is kept for a later --promote, which the gate refuses too.
    const refused = (await keptIds('blog')).find((id) => id !== good);
    await expect(promote(fixture.context, 'blog', refused ?? '')).rejects.toThrow(/needs react-dom \^99\.0\.0/);
    expect(await currentId('blog')).toBe(good);
  });

  it('refuses a shell that provides a version a current remote does not accept', async () => {
    await release('home', { required: { react: '^19.0.0' } });
    const attempt = publish(fixture.context, 'shell', await fixture.buildOf('shell', { versions: { react: '18.3.1', 'react-dom': '18.3.1' } }));
    await expect(attempt).rejects.toThrow(
      /^Refused: shell release \S+ provides react 18\.3\.1, but the current home \(release 1\.0\.0-\S+\) needs react \^19\.0\.0\. The current shell release stays dist\./,
    );
    expect(await currentId('shell')).toBeUndefined();
    // Remotes loaded from elsewhere are not checked: their builds are unknown here.
    const external = Object.fromEntries(REMOTE_NAMES.map((name) => [name, `https://${name}.example/m.json`]));
    await publish({ ...fixture.context, remoteUrls: external }, 'shell', await fixture.buildOf('shell', { versions: { react: '18.3.1' } }));
    expect(await currentId('shell')).toBeDefined();
  });

  it('checks rollbacks too', async () => {
    // Shell b provides React 19.4, and a blog built against it requires ^19.4.0: shell a is too old.
    const next = { react: '19.4.0', 'react-dom': '19.4.0' };
    await release('shell', { label: 'a' });
    const b = await release('shell', { label: 'b', versions: next });
    await release('blog', { label: 'b', versions: next });
    await expect(rollback(fixture.context, 'shell')).rejects.toThrow(/provides react(-dom)? 19\.3\.1, but the current blog .* needs react(-dom)? \^19\.4\.0/);
    expect(await currentId('shell')).toBe(b);
  });
});
