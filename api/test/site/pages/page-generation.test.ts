import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EXTERNAL_RELEASE, REMOTE_NAMES, UNRELEASED, type RemoteName, type RemotesDocument } from '@agency/shared';
import { BUILD_FILES } from '../../../src/site/pages/build-files';
import { createPageGeneration } from '../../../src/site/pages/page-generation';
import { distDir, entryFile, SHELL, type AppName } from '../../../src/delivery/releases/apps';
import { REFRESH_MS } from '../../../src/delivery/releases/reader';
import { eventually } from '../../helpers/eventually';

const ORIGIN = 'https://khvylia.example';
const WRITTEN_FIRST = new Date('2024-03-01T10:00:00Z');
const WRITTEN_AGAIN = new Date('2024-03-02T10:00:00Z');

let tmp: string;
beforeAll(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'page-generation-'))));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A new empty folder under the test's temporary folder. */
function folder(name: string): string {
  return fs.mkdtempSync(path.join(tmp, `${name}-`));
}

/** The remotes document with the given release per app; every other app on a published release. */
function remotesDocument(releases: Partial<Record<AppName, string>> = {}): RemotesDocument {
  const remotes = Object.fromEntries(
    REMOTE_NAMES.map((name) => [name, { entry: `/remotes/${name}/mf-manifest.json`, release: releases[name] ?? `${name}-20240301-100000-0000000` }]),
  ) as Record<RemoteName, { entry: string; release: string }>;
  return { shell: { release: releases[SHELL] ?? 'shell-20240301-100000-0000000' }, remotes };
}

/** Writes a build's server bundle and entry file into `dir`, both modified at `mtime`. */
function writeBuild(dir: string, app: AppName, label: string, mtime = WRITTEN_FIRST): void {
  for (const file of [BUILD_FILES.SERVER_BUNDLE_FILE, entryFile(app)]) writeFile(path.join(dir, file), `${label} ${file}`, mtime);
}

function writeFile(file: string, text: string, mtime: Date): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  fs.utimesSync(file, mtime, mtime);
}

/**
 * The key once the folders have been looked at again: the first request past the interval starts
 * the look in the background and is answered with the last one; the new key follows.
 */
function lookedAgain(key: () => Promise<string>, before: string): Promise<string> {
  return eventually('a new key after the folders were looked at again', key, (current) => current !== before, 2000);
}

/** A generation over inputs the test changes, with a clock the test moves. */
function setUp({ staticRoot = folder('static'), remoteBuildsDir, origin = ORIGIN }: { staticRoot?: string; remoteBuildsDir?: string; origin?: string } = {}) {
  const state = { document: remotesDocument(), revision: 7 as number | undefined, now: new Date(2025, 5, 15, 12).getTime() };
  const generation = createPageGeneration({
    remotesDocument: async () => state.document,
    contentRevision: async () => state.revision,
    origin,
    staticRoot,
    remoteBuildsDir,
    now: () => state.now,
  });
  return {
    state,
    staticRoot,
    generation,
    key: async () => (await generation()).key,
    advance: (ms: number) => (state.now += ms),
  };
}

describe('page generation', () => {
  it('gives the same key for the same inputs, and the remotes document it was given', async () => {
    const { state, generation, key } = setUp();
    const first = await generation();
    expect(first.remotes).toBe(state.document);
    expect(await key()).toBe(first.key);

    const other = setUp();
    other.state.now = state.now;
    expect(await other.key()).toBe(first.key);

    state.document = remotesDocument();
    expect(await key()).toBe(first.key);
  });

  it('gives another key when the content revision moves', async () => {
    const { state, key } = setUp();
    const keys = [await key()];
    state.revision = 8;
    keys.push(await key());
    state.revision = undefined;
    keys.push(await key());
    state.revision = 0;
    keys.push(await key());
    expect(new Set(keys).size).toBe(4);
    state.revision = 7;
    expect(await key()).toBe(keys[0]);
  });

  it.each([SHELL, ...REMOTE_NAMES])('gives another key for another release of %s', async (app) => {
    const { state, key } = setUp();
    const before = await key();
    state.document = remotesDocument({ [app]: `${app}-20240302-100000-1111111` });
    expect(await key()).not.toBe(before);
    state.document = remotesDocument();
    expect(await key()).toBe(before);
  });

  it('gives another key for another origin', async () => {
    const staticRoot = folder('static');
    const one = setUp({ staticRoot });
    const other = setUp({ staticRoot, origin: 'https://staging.khvylia.example' });
    expect(await other.key()).not.toBe(await one.key());
  });

  it.each([
    [SHELL, BUILD_FILES.SERVER_BUNDLE_FILE],
    [SHELL, entryFile(SHELL)],
    ['home', BUILD_FILES.SERVER_BUNDLE_FILE],
    ['home', entryFile('home')],
  ])('gives another key once a refresh interval has passed after %s is rebuilt in its dist folder (%s)', async (app, file) => {
    const { state, staticRoot, key, advance } = setUp();
    const dist = distDir(staticRoot, app);
    expect(path.relative(staticRoot, dist)).toBe(app === SHELL ? path.join('shell', 'dist') : path.join('mfe-home', 'dist'));
    writeBuild(dist, app, 'first');
    state.document = remotesDocument({ [app]: UNRELEASED });
    const before = await key();

    writeFile(path.join(dist, file), `second ${file}`, WRITTEN_AGAIN);
    advance(REFRESH_MS - 1);
    expect(await key()).toBe(before);
    advance(1);
    const after = await lookedAgain(key, before);
    advance(REFRESH_MS);
    expect(await key()).toBe(after);
  });

  it('gives another key once a dist folder that was missing is built', async () => {
    const { state, staticRoot, key, advance } = setUp();
    state.document = remotesDocument({ [SHELL]: UNRELEASED, blog: UNRELEASED });
    const before = await key();
    writeBuild(distDir(staticRoot, 'blog'), 'blog', 'first');
    advance(REFRESH_MS);
    await lookedAgain(key, before);
  });

  it('does not look at dist folders of apps served from a published release', async () => {
    const { staticRoot, key, advance } = setUp();
    writeBuild(distDir(staticRoot, SHELL), SHELL, 'first');
    writeBuild(distDir(staticRoot, 'forms'), 'forms', 'first');
    const before = await key();
    writeBuild(distDir(staticRoot, SHELL), SHELL, 'second', WRITTEN_AGAIN);
    writeBuild(distDir(staticRoot, 'forms'), 'forms', 'second', WRITTEN_AGAIN);
    advance(REFRESH_MS);
    expect(await key()).toBe(before);
  });

  it("gives another key once a refresh interval has passed after an external remote's build folder is switched to another build", async () => {
    const remoteBuildsDir = folder('remote-builds');
    const builds = folder('builds');
    for (const build of ['a', 'b']) writeBuild(path.join(builds, build), 'home', 'same');
    const link = distDir(remoteBuildsDir, 'home');
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(path.join(builds, 'a'), link);

    const { state, key, advance } = setUp({ remoteBuildsDir });
    state.document = remotesDocument({ home: EXTERNAL_RELEASE });
    const before = await key();

    fs.unlinkSync(link);
    fs.symlinkSync(path.join(builds, 'b'), link);
    advance(REFRESH_MS - 1);
    expect(await key()).toBe(before);
    advance(1);
    const after = await lookedAgain(key, before);

    writeFile(path.join(builds, 'b', BUILD_FILES.SERVER_BUNDLE_FILE), 'rebuilt', WRITTEN_AGAIN);
    advance(REFRESH_MS);
    await lookedAgain(key, after);
  });

  it('looks at no folder for an external remote without a remote builds folder', async () => {
    const remoteBuildsDir = folder('remote-builds');
    const builds = folder('builds');
    for (const build of ['a', 'b']) writeBuild(path.join(builds, build), 'home', build);
    const link = distDir(remoteBuildsDir, 'home');
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(path.join(builds, 'a'), link);

    const { state, staticRoot, key, advance } = setUp();
    writeBuild(distDir(staticRoot, 'home'), 'home', 'first');
    state.document = remotesDocument({ home: EXTERNAL_RELEASE });
    const before = await key();

    fs.unlinkSync(link);
    fs.symlinkSync(path.join(builds, 'b'), link);
    writeBuild(distDir(staticRoot, 'home'), 'home', 'second', WRITTEN_AGAIN);
    advance(REFRESH_MS);
    expect(await key()).toBe(before);
  });

  it('gives another key in a new year, and the same one within a year', async () => {
    const { state, key, advance } = setUp();
    state.now = new Date(2025, 11, 31, 23, 58).getTime();
    const lastDay = await key();
    advance(60_000);
    expect(await key()).toBe(lastDay);
    state.now = new Date(2026, 0, 1, 0, 1).getTime();
    expect(await key()).not.toBe(lastDay);
  });
});
