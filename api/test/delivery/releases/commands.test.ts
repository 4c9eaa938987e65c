import fs from 'node:fs';
import path from 'node:path';
import { formatReleaseResult } from '../../../src/cli/release-text';
import { REPO_ROOT } from '../../../src/config';
import { list, promote, publish, RefusedError, rollback } from '../../../src/delivery/releases/commands';
import { gitRevision, releaseId } from '../../../src/delivery/releases/release-id';
import { readState } from '../../../src/delivery/releases/state';
import { appReleasesDir, loadAppReleases } from '../../../src/delivery/releases/store';
import { createReleaseFixture, publishFixture, type FixtureBuild, type ReleaseFixture } from '../../helpers/releases';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { writeBuildStamp } = require('@agency/shared/webpack/build-stamp.js') as { writeBuildStamp(dist: string, stamp: { revision: string }): void };

// The release model in process: publish, list, rollback, promote, pruning, ids and the
// compatibility gate, on temp folders (release-cli.test.ts runs the real command).

let fixture: ReleaseFixture;
beforeEach(() => (fixture = createReleaseFixture()));
afterEach(() => fixture.cleanup());

/** Publishes a fixture build and returns the new current release id. */
const release = (app: string, build: FixtureBuild = {}, keep?: number) => publishFixture(fixture, app, build, keep);

const currentId = async (app: string) => (await loadAppReleases(fixture.releasesDir, app)).current?.id;
const history = async (app: string) => (await readState(appReleasesDir(fixture.releasesDir, app))).history;

describe('publishing', () => {
  it('copies the build into an immutable release folder that becomes current', async () => {
    const dist = fixture.build('blog', { stamp: '2026-11-22T06:15:00.123Z' });
    const output = await publish(fixture.context, 'blog', dist);
    const id = (await currentId('blog')) ?? '';
    expect(id).toMatch(/^1\.0\.0-([0-9a-f]{7,}(-dirty)?|unknown)-20261122T061500Z$/);
    expect(output).toMatchObject({ kind: 'publish', app: 'blog', build: { release: { id }, created: true, dist }, alreadyCurrent: false, pruned: [] });
    expect(formatReleaseResult(output)).toEqual([`Published blog release ${id} from ${dist}`, `blog release ${id} is now current`]);
    const dir = path.join(fixture.releasesDir, 'blog', id);
    expect(fs.readFileSync(path.join(dir, 'chunk.0123abcd45.js'), 'utf8')).toBe('chunk("v1")');
    expect(fs.existsSync(path.join(dir, 'assets/logo.aaaaaaaa11.svg'))).toBe(true);
    expect(fs.existsSync(path.join(dir, '.build-stamp'))).toBe(false);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'release.json'), 'utf8'))).toEqual({
      id,
      app: 'blog',
      version: '1.0.0',
      revision: expect.stringMatching(/^([0-9a-f]{7,}(-dirty)?|unknown)$/),
      builtAt: '2026-11-22T06:15:00.123Z',
      publishedAt: expect.stringMatching(/^2026-01-01T/),
    });
    expect(await history('blog')).toEqual([id]);
    // No temp folders or lock left behind.
    expect(fs.readdirSync(path.join(fixture.releasesDir, 'blog')).sort()).toEqual([id, 'state.json']);

    const listing = formatReleaseResult(await list(fixture.context, 'blog'));
    expect(listing[0]).toBe('blog releases, newest first (* = current):');
    expect(listing[2]).toMatch(new RegExp(`^\\* ${id.replace(/\./g, '\\.')} +2026-11-22T06:15:00.123Z +\\S+ +2026-01-01T\\S+ +current$`));
  });

  it('never overwrites a release: the same id with other content gets a suffix, the same build is reused', async () => {
    const stamp = '2026-11-22T06:15:00.000Z';
    const first = await release('home', { stamp, label: 'v1' });
    const second = await release('home', { stamp, label: 'v2' });
    expect(second).toBe(`${first}-2`);
    expect(fs.readFileSync(path.join(fixture.releasesDir, 'home', first, 'remoteEntry.js'), 'utf8')).toContain('v1');
    expect(fs.readFileSync(path.join(fixture.releasesDir, 'home', second, 'remoteEntry.js'), 'utf8')).toContain('v2');

    // Publishing the first build again makes its existing release current; nothing is copied over it.
    const output = await publish(fixture.context, 'home', fixture.build('home', { stamp, label: 'v1' }));
    expect(output).toMatchObject({ build: { release: { id: first }, created: false }, alreadyCurrent: false });
    expect(formatReleaseResult(output)).toEqual([`home release ${first} already holds this build`, `home release ${first} is now current`]);
    expect(await history('home')).toEqual([first, second, first]);
    expect((await loadAppReleases(fixture.releasesDir, 'home')).releases).toHaveLength(2);
  });

  it("takes the id's version and revision from the build, not the checkout", async () => {
    // A CI artifact: its manifest names the app's version, its stamp the revision it was built from.
    const stamp = JSON.stringify({ builtAt: '2026-11-22T06:15:00.000Z', revision: '0badc0d-dirty' });
    const id = await release('blog', { stamp, buildVersion: '2.5.0' });
    expect(id).toBe('2.5.0-0badc0d-dirty-20261122T061500Z');
    expect(JSON.parse(fs.readFileSync(path.join(fixture.releasesDir, 'blog', id, 'release.json'), 'utf8'))).toMatchObject({
      version: '2.5.0',
      revision: '0badc0d-dirty',
      builtAt: '2026-11-22T06:15:00.000Z',
    });
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
    await publish(fixture.context, 'forms', dist);
    expect(await currentId('forms')).toBe(releaseId('1.0.0', stamp.revision, new Date(stamp.builtAt)));
  });

  it('refuses a folder that is not a build of the app', async () => {
    await expect(publish(fixture.context, 'shell', fixture.build('blog'))).rejects.toThrow(/index\.html does not exist/);
    expect(await currentId('shell')).toBeUndefined();
  });
});

describe('rollback and promote', () => {
  it('rolls back to the previous release, and no further than the first', async () => {
    const first = await release('forms', { label: 'v1' });
    const second = await release('forms', { label: 'v2' });
    const rolledBack = await rollback(fixture.context, 'forms');
    expect(rolledBack).toMatchObject({ kind: 'rollback', app: 'forms', from: { id: second }, to: { id: first } });
    expect(formatReleaseResult(rolledBack)).toEqual([`Rolled back forms: release ${first} is now current (was ${second})`]);
    expect(await currentId('forms')).toBe(first);
    expect(await history('forms')).toEqual([first]);
    await expect(rollback(fixture.context, 'forms')).rejects.toThrow(`forms has no previous release to roll back to; the current release stays ${first}.`);
    await expect(rollback(fixture.context, 'blog')).rejects.toThrow(RefusedError);
  });

  it('promotes any kept release', async () => {
    const [a, b, c] = [await release('blog', { label: 'a' }), await release('blog', { label: 'b' }), await release('blog', { label: 'c' })];
    const promoted = await promote(fixture.context, 'blog', a);
    expect(promoted).toMatchObject({ kind: 'promote', release: { id: a }, alreadyCurrent: false, from: { id: c } });
    expect(formatReleaseResult(promoted)).toEqual([`blog release ${a} is now current (was ${c})`]);
    expect(await history('blog')).toEqual([a, b, c, a]);
    const again = await promote(fixture.context, 'blog', a);
    expect(again).toMatchObject({ release: { id: a }, alreadyCurrent: true });
    expect(formatReleaseResult(again)).toEqual([`${a} is already the current blog release`]);
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
    const [a, b, c] = ids;
    await rollback(fixture.context, 'home'); // current b, previous a
    expect(await currentId('home')).toBe(b);
    // keep 1: the newest (d) plus current d and previous b; a and c go.
    const d = await release('home', { label: 'd' }, 1);
    const kept = (await loadAppReleases(fixture.releasesDir, 'home')).releases.map((release) => release.id);
    expect(kept).toEqual([d, b]);
    for (const gone of [a, c]) expect(fs.existsSync(path.join(fixture.releasesDir, 'home', gone ?? ''))).toBe(false);
    expect(await history('home')).toEqual([b, d]);
    await rollback(fixture.context, 'home');
    expect(await currentId('home')).toBe(b);
  });

  it('keeps RELEASES_KEEP (the context default) releases', async () => {
    const context = { ...fixture.context, keep: 2 };
    for (const label of ['a', 'b', 'c', 'd']) await publish(context, 'forms', fixture.build('forms', { label }));
    expect((await loadAppReleases(fixture.releasesDir, 'forms')).releases).toHaveLength(2);
  });
});

describe('compatibility gate', () => {
  it('refuses a remote that needs a singleton version the current shell does not provide', async () => {
    const good = await release('blog', { label: 'good' });
    const attempt = publish(fixture.context, 'blog', fixture.build('blog', { label: 'bad', required: { 'react-dom': '^99.0.0' } }));
    await expect(attempt).rejects.toThrow(RefusedError);
    const message = await attempt.catch((error: Error) => error.message);
    expect(message).toMatch(
      new RegExp(
        `^Refused: blog release \\S+ needs react-dom \\^99\\.0\\.0, but the current shell \\(release dist\\) provides react-dom 19\\.3\\.1\\. ` +
          `The current blog release stays ${good.replace(/\./g, '\\.')}\\.`,
      ),
    );
    expect(await currentId('blog')).toBe(good);
    // The refused release is kept for a later --promote, which the gate refuses too.
    const refused = (await loadAppReleases(fixture.releasesDir, 'blog')).releases.find((release) => release.id !== good);
    await expect(promote(fixture.context, 'blog', refused?.id ?? '')).rejects.toThrow(/needs react-dom \^99\.0\.0/);
  });

  it('refuses a shell that provides a version a current remote does not accept', async () => {
    await release('home', { required: { react: '^19.0.0' } });
    const attempt = publish(fixture.context, 'shell', fixture.build('shell', { versions: { react: '18.3.1', 'react-dom': '18.3.1' } }));
    await expect(attempt).rejects.toThrow(
      /^Refused: shell release \S+ provides react 18\.3\.1, but the current home \(release 1\.0\.0-\S+\) needs react \^19\.0\.0\. The current shell release stays dist\./,
    );
    expect(await currentId('shell')).toBeUndefined();
    // Remotes loaded from elsewhere are not checked: their builds are unknown here.
    const external = { home: 'https://a.example/m.json', blog: 'https://b.example/m.json', forms: 'https://c.example/m.json' };
    await publish({ ...fixture.context, remoteUrls: external }, 'shell', fixture.build('shell', { versions: { react: '18.3.1' } }));
    expect(await currentId('shell')).toBeDefined();
  });

  it('checks rollbacks too', async () => {
    // Shell b provides React 19.4, and a blog built against it requires ^19.4.0: shell a is too old.
    const next = { react: '19.4.0', 'react-dom': '19.4.0' };
    await release('shell', { label: 'a' });
    await release('shell', { label: 'b', versions: next });
    await release('blog', { label: 'b', versions: next });
    await expect(rollback(fixture.context, 'shell')).rejects.toThrow(/provides react(-dom)? 19\.3\.1, but the current blog .* needs react(-dom)? \^19\.4\.0/);
  });
});
