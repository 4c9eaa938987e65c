import fs from 'node:fs';
import path from 'node:path';
import { PAGE_CACHE_CONTROL } from '../../../src/site/pages/serve-page';
import { publish, RefusedError, rollback } from '../../../src/delivery/releases/commands';
import { SKEW_WINDOW_MS } from '../../../src/delivery/releases/prune';
import { startTestApp } from '../../helpers/app';
import { eventually } from '../../helpers/eventually';
import { setUpReleaseSuite, type FixtureBuild } from '../../helpers/releases';
import { formatReleaseResult } from '../../../src/delivery/cli/release-text';

// The all-in-one server with published releases: what /remotes.json says, which files are served
// from which release, and that a new current release shows without a restart. (How soon is the
// reader's refresh interval, pinned with a fake clock in releases.test.ts; here the waits are
// generous bounds, not timings.)

const IMMUTABLE = 'public, max-age=31536000, immutable';

const suite = setUpReleaseSuite();

interface Document {
  shell: { release: string };
  remotes: Record<string, { entry: string; release: string }>;
}

const remotesJson = async () => (await suite.ctx.request('GET', '/remotes.json')).json<Document>();

/** Publishes a build and waits for the server to name it current; returns its id. */
async function releaseAndWait(app: string, build: string | FixtureBuild, keep?: number): Promise<string> {
  const output = await publish(suite.fixture.context, app, await suite.fixture.buildOf(app, typeof build === 'string' ? { label: build } : build), keep);
  const id = /release (\S+) is now current/.exec(formatReleaseResult(output).join('\n'))?.[1] ?? '';
  const current = async () => {
    const document = await remotesJson();
    return (app === 'shell' ? document.shell.release : document.remotes[app]?.release) === id;
  };
  await eventually(`release ${id} of ${app} to become current`, current, (isCurrent) => isCurrent);
  return id;
}

const page = async (url: string) => (await suite.ctx.request('GET', url, { headers: { accept: 'text/html' } })).body;

describe('remotes with releases', () => {
  let first: string;

  it('switches /remotes.json to a new current release without a restart', async () => {
    expect((await remotesJson()).remotes.blog).toEqual({ entry: '/remotes/blog/mf-manifest.json', release: 'dist' });
    first = await releaseAndWait('blog', 'b1');
    expect(await remotesJson()).toEqual({
      shell: { release: 'dist' },
      remotes: {
        home: { entry: '/remotes/home/mf-manifest.json', release: 'dist' },
        blog: { entry: `/remotes/blog/${first}/mf-manifest.json`, release: first },
        forms: { entry: '/remotes/forms/mf-manifest.json', release: 'dist' },
        staff: { entry: '/remotes/staff/mf-manifest.json', release: 'dist' },
      },
    });
  });

  it('serves every file of a release immutable, with CORS; the dist folder stays served as before', async () => {
    for (const file of ['mf-manifest.json', 'remoteEntry.js', 'chunk.0123abcd45.js', 'assets/logo.bbbbbbbb22.svg']) {
      const response = await suite.ctx.request('GET', `/remotes/blog/${first}/${file}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe(IMMUTABLE);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
    }
    expect((await suite.ctx.request('GET', `/remotes/blog/${first}/remoteEntry.js`)).body).toContain('b1');
    const dist = await suite.ctx.request('GET', '/remotes/blog/remoteEntry.js');
    expect(dist.body).toContain('dist');
    expect(dist.headers['cache-control']).toBe('no-cache');
    // The store keeps the release's manifest beside its files: served from there, but never sent (below).
    expect(fs.existsSync(path.join(suite.fixture.storeDir, 'blog', first, 'release-manifest.json'))).toBe(true);
  });

  it('keeps serving an older release after a new one, and answers 404 once it is pruned', async () => {
    const second = await releaseAndWait('blog', 'b2');
    const old = await suite.ctx.request('GET', `/remotes/blog/${first}/remoteEntry.js`);
    expect([old.statusCode, old.headers['cache-control']]).toEqual([200, IMMUTABLE]);
    expect(old.body).toContain('b1');
    // keep 1: the newest and the previous one stay; the first stopped being current moments ago,
    // within the skew window (pages opened before still load its files), so it stays too.
    const third = await releaseAndWait('blog', 'b3', 1);
    expect((await suite.ctx.request('GET', `/remotes/blog/${first}/remoteEntry.js`)).statusCode).toBe(200);
    // Past the skew window (the fixture's clock moved on), the next publish prunes both older ones.
    const clock = suite.fixture.context.now!;
    suite.fixture.context.now = () => new Date(clock().getTime() + SKEW_WINDOW_MS + 3_600_000);
    await releaseAndWait('blog', 'b4', 1);
    for (const gone of [first, second]) {
      const pruned = await suite.ctx.request('GET', `/remotes/blog/${gone}/remoteEntry.js`);
      expect([pruned.statusCode, pruned.headers['cache-control']]).toEqual([404, 'no-store']);
      expect(pruned.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Ресурс не знайдено' } });
    }
    // The previous release stays for a rollback.
    expect((await suite.ctx.request('GET', `/remotes/blog/${third}/remoteEntry.js`)).statusCode).toBe(200);
    // Gone from the store too, not only from what is served.
    expect(fs.existsSync(path.join(suite.fixture.storeDir, 'blog', first))).toBe(false);
    expect(fs.existsSync(path.join(suite.fixture.storeDir, 'blog', third))).toBe(true);
  });

  it.each([
    '/remotes/blog/ID/../../../site/secret.txt',
    // Ways back into the same release folder: found only if the path were resolved.
    '/remotes/blog/ID/%2e%2e/ID/remoteEntry.js',
    '/remotes/blog/ID/..%2fID%2fremoteEntry.js',
    '/remotes/home/ID/remoteEntry.js',
    '/remotes/blog/ID',
    // The release's manifest in the store (its files' sizes and hashes) is not a file of the build.
    '/remotes/blog/ID/release-manifest.json',
    '/remotes/blog/ID/%72elease-manifest.json',
  ])(
    'refuses %s',
    async (url) => {
      const { remotes } = await remotesJson();
      expect((await suite.ctx.request('GET', url.replaceAll('ID', remotes.blog?.release ?? ''))).statusCode).toBe(404);
    },
  );
});

describe('a refused shell release', () => {
  it('is never served at / or for unhashed names; its content-hashed files are only a fallback', async () => {
    // The blog's current release requires React ^19.3.1: a shell providing React 18 is refused, and kept.
    const build = { label: 'refused', versions: { react: '18.3.1', 'react-dom': '18.3.1' }, files: { 'notes.txt': 'refused' } };
    await expect(publish(suite.fixture.context, 'shell', await suite.fixture.buildOf('shell', build))).rejects.toThrow(RefusedError);
    // Once the server lists the kept release, its hashed files are found (after dist's)…
    await eventually('the refused file served', async () => (await suite.ctx.request('GET', '/only-refused.0a1b2c3d4e.js')).statusCode, (status) => status === 200);
    expect((await remotesJson()).shell.release).toBe('dist');
    // …but the page, its entry files and unhashed names are shell/dist's, as for client routes.
    expect(await page('/')).toContain('data-build="dist"');
    expect(await page('/index.html')).toContain('data-build="dist"');
    expect(await page('/blog/1')).toContain('data-build="dist"');
    expect((await suite.ctx.request('GET', '/mf-manifest.json')).body).toContain('"version":"19.3.1"');
    expect((await suite.ctx.request('GET', '/notes.txt')).statusCode).toBe(404);
    expect((await suite.ctx.request('GET', '/main.3f2a9c1b7d.js')).body).toContain('shell dist');
  });
});

describe('the shell with releases', () => {
  it('serves / and client routes from the current release, older files from older releases, then dist', async () => {
    expect(await page('/')).toContain('data-build="dist"');
    const s1 = await releaseAndWait('shell', { label: 's1', files: { 'notes.txt': 's1' } });
    expect(await page('/')).toContain('data-build="s1"');
    expect(await page('/blog/3')).toContain('data-build="s1"');
    expect((await suite.ctx.request('GET', '/notes.txt')).body).toBe('s1');
    await releaseAndWait('shell', 's2');
    expect(await page('/')).toContain('data-build="s2"');
    expect(await page('/about')).toContain('data-build="s2"');
    // An unhashed name comes from the current release only, never an older one.
    expect((await suite.ctx.request('GET', '/notes.txt')).statusCode).toBe(404);
    // The same name in several releases: the current one wins.
    expect((await suite.ctx.request('GET', '/main.3f2a9c1b7d.js')).body).toContain('s2');
    // A page opened before the deploy still finds its lazy chunks…
    const lazy = await suite.ctx.request('GET', '/only-s1.0a1b2c3d4e.js');
    expect([lazy.statusCode, lazy.headers['cache-control']]).toEqual([200, IMMUTABLE]);
    // …and files only shell/dist has are still found last.
    expect((await suite.ctx.request('GET', '/only-dist.0a1b2c3d4e.js')).statusCode).toBe(200);
    expect((await suite.ctx.request('GET', '/index.html')).headers['cache-control']).toBe(PAGE_CACHE_CONTROL);
    expect((await suite.ctx.request('GET', '/only-s1.0a1b2c3d4e.js')).headers['access-control-allow-origin']).toBeUndefined();

    await rollback(suite.fixture.context, 'shell');
    await eventually('the rollback to reach the server', async () => (await remotesJson()).shell.release, (release) => release === s1);
    expect(await page('/')).toContain('data-build="s1"');
  });
});

describe('a remote with a release but a REMOTE_*_URL override', () => {
  it('answers the override as external', async () => {
    // Another server on the same database and store, with the override.
    const other = await startTestApp({ ...suite.fixture.config, remoteUrls: { blog: 'https://cdn.example/blog/mf-manifest.json' } }, suite.fixture.testDb);
    try {
      const document = (await other.request('GET', '/remotes.json')).json<Document>();
      expect(document.remotes.blog).toEqual({ entry: 'https://cdn.example/blog/mf-manifest.json', release: 'external' });
      expect(document.shell.release).toMatch(/^1\.0\.0-/);
    } finally {
      await other.close();
    }
  });
});

describe('source maps in releases', () => {
  it('are copied with the build but never served, from a release or the shell fallback', async () => {
    const map = JSON.stringify({ version: 3, sources: ['src/secret.ts'], sourcesContent: ['const secret = 1;'], mappings: 'AAAA' });
    const blog = await releaseAndWait('blog', { label: 'maps', files: { 'chunk.0123abcd45.js.map': map, 'remoteEntry.js.map': map } });
    await releaseAndWait('shell', { label: 'maps', files: { 'only-maps.0a1b2c3d4e.js.map': map } });
    await releaseAndWait('shell', { label: 'maps2', files: { 'main.3f2a9c1b7d.js.map': map } });
    const urls = [
      `/remotes/blog/${blog}/chunk.0123abcd45.js.map`,
      `/remotes/blog/${blog}/remoteEntry.js.map`,
      // The current shell release; a kept older one (where its hashed bundle is still found).
      '/main.3f2a9c1b7d.js.map',
      '/only-maps.0a1b2c3d4e.js.map',
    ];
    for (const url of [...urls, '/release-manifest.json']) {
      const response = await suite.ctx.request('GET', url, { headers: { accept: '*/*' } });
      expect([url, response.statusCode, response.headers['cache-control']]).toEqual([url, 404, 'no-store']);
      expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Ресурс не знайдено' } });
    }
    // What they map is served as before.
    expect((await suite.ctx.request('GET', `/remotes/blog/${blog}/chunk.0123abcd45.js`)).statusCode).toBe(200);
    expect((await suite.ctx.request('GET', '/main.3f2a9c1b7d.js')).body).toContain('maps2');
    expect((await suite.ctx.request('GET', '/only-maps.0a1b2c3d4e.js')).statusCode).toBe(200);
  });
});
