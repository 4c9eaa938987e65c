import fs from 'node:fs';
import path from 'node:path';
import { SourceMapGenerator } from 'source-map';
import { distDir } from '../../../src/delivery/releases/apps';
import { ReleaseReader } from '../../../src/delivery/releases/reader';
import { openReleaseStorage } from '../../../src/delivery/releases/release-storage';
import { createSourceLocator, repoPath, stackFrames } from '../../../src/delivery/health/source-locations';
import { createReleaseFixture, publishFixture, type ReleaseFixture } from '../../helpers/releases';

// Stack traces from visitors' browsers mapped to the original source with a release's hidden
// source maps: real maps (made with the source-map package, as webpack does) in releases the
// release commands stored, read from the artifact store's folders as a server reads them.

const ORIGIN = 'http://127.0.0.1:8080';
const CHUNK = 'chunk.0123abcd45.js';
const SHELL_MAIN = 'main.3f2a9c1b7d.js';

const TEASER = 'webpack://agency_blog/./src/features/blog-teaser/BlogTeaser.tsx';
const REACT_DOM = 'webpack://agency_blog/../node_modules/react-dom/cjs/react-dom-client.production.js';
const SHARED = 'webpack://agency_blog/../shared/src/x.ts';

/**
 * One minified line: columns 0–19 come from React DOM, 20–59 from BlogTeaser.tsx (line 14,
 * column 10, counted from 0), 60 on from shared code.
 */
function blogMap(): string {
  const generator = new SourceMapGenerator({ file: CHUNK });
  generator.addMapping({ generated: { line: 1, column: 0 }, original: { line: 120, column: 4 }, source: REACT_DOM });
  generator.addMapping({ generated: { line: 1, column: 20 }, original: { line: 14, column: 10 }, source: TEASER, name: 'Teaser' });
  generator.addMapping({ generated: { line: 1, column: 60 }, original: { line: 3, column: 2 }, source: SHARED });
  return generator.toString();
}

function shellMap(): string {
  const generator = new SourceMapGenerator({ file: SHELL_MAIN });
  generator.addMapping({ generated: { line: 2, column: 100 }, original: { line: 41, column: 6 }, source: 'webpack://agency_shell/./src/app/App.tsx' });
  return generator.toString();
}

let fixture: ReleaseFixture;
let blog = '';
let shell = '';
let locator: ReturnType<typeof createSourceLocator>;

beforeAll(async () => {
  fixture = await createReleaseFixture();
  const minified = `(()=>{"use strict";function Teaser(){throw new Error("x")}Teaser()})();`;
  blog = await publishFixture(fixture, 'blog', { label: 'mapped', files: { [CHUNK]: minified, [`${CHUNK}.map`]: blogMap() } });
  shell = await publishFixture(fixture, 'shell', { label: 'mapped', files: { [SHELL_MAIN]: 'x\ny', [`${SHELL_MAIN}.map`]: shellMap() } });
  // The blog's build folder (what an unreleased blog serves) has the same map.
  fs.writeFileSync(path.join(distDir(fixture.staticRoot, 'blog'), `${CHUNK}.map`), blogMap());
  const { cache } = openReleaseStorage({ ...fixture.config, s3: { region: 'us-east-1', forcePathStyle: false } });
  const releases = new ReleaseReader(fixture.db, cache);
  locator = createSourceLocator({ staticRoot: fixture.staticRoot, releasesOf: (app) => releases.get(app) });
});

afterAll(async () => {
  locator?.close();
  await fixture?.cleanup();
});

const chunkUrl = (release = blog) => `${ORIGIN}/remotes/blog/${release}/${CHUNK}`;

describe('createSourceLocator', () => {
  it('maps a Chromium stack to the original file, line and column, from the repository root', async () => {
    const stack = `Error: x\n    at Teaser (${chunkUrl()}:1:25)\n    at renderWithHooks (${chunkUrl()}:1:3)`;
    expect(await locator('blog', blog, stack)).toBe('mfe-blog/src/features/blog-teaser/BlogTeaser.tsx:14:11');
  });

  it('reads Firefox stacks too', async () => {
    expect(await locator('blog', blog, `Teaser@${chunkUrl()}:1:21\n@${chunkUrl()}:1:1`)).toBe('mfe-blog/src/features/blog-teaser/BlogTeaser.tsx:14:11');
  });

  it('skips frames in libraries for the first one in the site’s own code', async () => {
    const stack = `Error: x\n    at ie (${chunkUrl()}:1:5)\n    at Teaser (${chunkUrl()}:1:25)`;
    expect(await locator('blog', blog, stack)).toBe('mfe-blog/src/features/blog-teaser/BlogTeaser.tsx:14:11');
  });

  it('gives the top library frame when no frame is in the site’s own code', async () => {
    const stack = `Error: x\n    at ie (${chunkUrl()}:1:5)\n    at ue (${chunkUrl()}:1:9)`;
    expect(await locator('blog', blog, stack)).toBe('node_modules/react-dom/cjs/react-dom-client.production.js:120:5');
  });

  it('maps the shared workspace’s sources (../shared/…) to shared/…', async () => {
    expect(await locator('blog', blog, `Error: x\n    at y (${chunkUrl()}:1:70)`)).toBe('shared/src/x.ts:3:3');
  });

  it('maps an unreleased remote’s files through its build folder', async () => {
    const stack = `Error: x\n    at Teaser (${ORIGIN}/remotes/blog/${CHUNK}:1:25)`;
    expect(await locator('blog', 'dist', stack)).toBe('mfe-blog/src/features/blog-teaser/BlogTeaser.tsx:14:11');
  });

  it('maps the shell’s files, served from the site root, through its releases', async () => {
    const stack = `TypeError: x\n    at App (${ORIGIN}/${SHELL_MAIN}:2:101)`;
    expect(await locator('shell', shell, stack)).toBe('shell/src/app/App.tsx:41:7');
    // A remote's error can pass through the shell's code.
    expect(await locator('blog', blog, stack)).toBe('shell/src/app/App.tsx:41:7');
  });

  it.each([
    ['a file without a source map', `Error: x\n    at f (${ORIGIN}/remotes/blog/${blog}/remoteEntry.js:1:25)`],
    ['a file that does not exist', `Error: x\n    at f (${ORIGIN}/remotes/blog/${blog}/missing.0a1b2c3d4e.js:1:25)`],
    ['a release that is not kept', `Error: x\n    at f (${ORIGIN}/remotes/blog/1.0.0-gone-20200101T000000Z/other.js:1:25)`],
    ['an unknown remote', `Error: x\n    at f (${ORIGIN}/remotes/admin/${CHUNK}:1:25)`],
    ['a line the map does not cover', `Error: x\n    at f (${chunkUrl()}:9:25)`],
    ['a stack without frames', 'Error: x'],
    ['no stack at all', ''],
    ['a hidden file', `Error: x\n    at f (${ORIGIN}/remotes/blog/.state/${CHUNK}:1:25)`],
  ])('gives null for %s', async (_label, stack) => {
    expect(await locator('blog', blog, stack)).toBeNull();
  });

  it('never reads a map outside the release and build folders', async () => {
    // Maps in the artifact store's folders above the release's, which a path in a stack could try to reach.
    expect(path.basename(fixture.storeDir)).toBe('store');
    fs.writeFileSync(path.join(fixture.storeDir, `${CHUNK}.map`), blogMap());
    fs.writeFileSync(path.join(fixture.storeDir, 'blog', `${CHUNK}.map`), blogMap());
    for (const stack of [
      `Error: x\n    at f (${ORIGIN}/remotes/blog/${blog}/../../${CHUNK}:1:25)`,
      `Error: x\n    at f (${ORIGIN}/remotes/blog/${blog}/%2e%2e/%2e%2e/${CHUNK}:1:25)`,
      `Error: x\n    at f (${ORIGIN}/remotes/blog/%2e%2e/%2e%2e/%2e%2e/store/${CHUNK}:1:25)`,
    ]) {
      expect(await locator('blog', blog, stack)).toBeNull();
    }
  });
});

describe('stackFrames', () => {
  it('lists every url:line:column, top first, in both browsers’ formats', () => {
    const stack = `TypeError: a\n    at f (${chunkUrl()}:1:25)\n    at ${ORIGIN}/${SHELL_MAIN}:2:101\ng@${ORIGIN}/x.js:3:4`;
    expect(stackFrames(stack)).toEqual([
      { url: chunkUrl(), line: 1, column: 25 },
      { url: `${ORIGIN}/${SHELL_MAIN}`, line: 2, column: 101 },
      { url: `${ORIGIN}/x.js`, line: 3, column: 4 },
    ]);
  });
});

describe('repoPath', () => {
  it.each([
    ['blog', TEASER, 'mfe-blog/src/features/blog-teaser/BlogTeaser.tsx'],
    ['blog', SHARED, 'shared/src/x.ts'],
    ['blog', REACT_DOM, 'node_modules/react-dom/cjs/react-dom-client.production.js'],
    ['shell', 'webpack://agency_shell/./src/app/App.tsx?abc1', 'shell/src/app/App.tsx'],
    ['home', 'webpack://agency_home/../../outside.ts', 'outside.ts'],
  ])('%s: %s → %s', (app, source, expected) => {
    expect(repoPath(app, source)).toBe(expected);
  });
});
