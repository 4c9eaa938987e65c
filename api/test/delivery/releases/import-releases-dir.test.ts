import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { RELEASE_MANIFEST, readReleaseManifest } from '../../../src/delivery/artifacts/release-files';
import { publish } from '../../../src/delivery/releases/commands';
import { IMPORT_ACTOR, importReleasesDir } from '../../../src/delivery/releases/import-releases-dir';
import { BUILD_STAMP } from '../../../src/delivery/releases/release-id';
import { loadAppReleases, readReleasesRevision } from '../../../src/delivery/releases/release-repository';
import type { Candidate } from '../../../src/delivery/releases/state';
import { startTestApp } from '../../helpers/app';
import { eventually } from '../../helpers/eventually';
import { createReleaseFixture, fixtureFiles, writeBuild, type FixtureBuild, type ReleaseFixture } from '../../helpers/releases';

// The one-time import of a RELEASES_DIR (where releases lived before the database and the artifact
// store held them): its releases keep their ids, their history, candidate and decisions are kept.

let fixture: ReleaseFixture;
/** The old-style RELEASES_DIR. */
let releasesDir: string;
beforeEach(async () => {
  fixture = await createReleaseFixture();
  releasesDir = path.join(fixture.scratch, 'releases');
});
afterEach(() => fixture.cleanup());

const log = Fastify({ logger: false }).log;

interface OldRelease {
  id: string;
  build: FixtureBuild;
  publishedAt: string;
}

/** Writes a release folder as the old release command did: the build's files and release.json. */
function writeOldRelease(app: string, { id, build, publishedAt }: OldRelease): void {
  const dir = path.join(releasesDir, app, id);
  writeBuild(dir, app, build);
  const metadata = { id, app, version: '1.0.0', revision: 'abc1234', builtAt: `${publishedAt.slice(0, 10)}T06:00:00.000Z`, publishedAt };
  fs.writeFileSync(path.join(dir, 'release.json'), JSON.stringify(metadata, null, 2));
}

interface OldState {
  history: string[];
  candidate?: Candidate;
  events: { at: string; release: string; action: string; reason: string }[];
}

function writeOldState(app: string, state: OldState): void {
  fs.writeFileSync(path.join(releasesDir, app, 'state.json'), JSON.stringify(state, null, 2));
}

const A = { id: '1.0.0-abc1234-20260101T060000Z', build: { label: 'a' }, publishedAt: '2026-01-01T07:00:00.000Z' };
const B = { id: '1.0.0-abc1234-20260102T060000Z', build: { label: 'b' }, publishedAt: '2026-01-02T07:00:00.000Z' };
const C = { id: '1.0.0-abc1234-20260103T060000Z', build: { label: 'c' }, publishedAt: '2026-01-03T07:00:00.000Z' };
const CANDIDATE: Candidate = { id: C.id, share: 10, minViews: 100, promoteAfter: null, since: '2026-01-03T08:00:00.000Z' };

/** A blog with a, b (current) and c (the candidate), and a home with one release. */
function writeOldReleasesDir(): void {
  for (const release of [A, B, C]) writeOldRelease('blog', release);
  writeOldState('blog', {
    history: [A.id, B.id],
    candidate: CANDIDATE,
    events: [
      { at: '2026-01-03T08:00:00.000Z', release: C.id, action: 'canary', reason: '10 % of visitors, judged after 100 page views, promoted by hand' },
      { at: '2026-01-03T09:00:00.000Z', release: 'gone', action: 'no-such-action', reason: 'dropped: not a decision' },
    ],
  });
  writeOldRelease('home', { ...A, build: { label: 'h' } });
  writeOldState('home', { history: [A.id], events: [] });
  // A half-made copy a crashed command left (no release.json), and its temp folder: never releases.
  writeBuild(path.join(releasesDir, 'blog', '1.0.0-abc1234-20260104T060000Z'), 'blog', { label: 'half' });
  writeBuild(path.join(releasesDir, 'blog', '.tmp-0123456789ab'), 'blog', { label: 'tmp' });
  fs.writeFileSync(path.join(releasesDir, '.lock'), '{}');
}

/** Every file under a folder, relative to it. */
function filesUnder(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe('importReleasesDir', () => {
  it('stores every release under its own id and keeps the history, the candidate and the decisions', async () => {
    writeOldReleasesDir();
    const before = filesUnder(releasesDir);
    expect(await importReleasesDir(fixture.db, fixture.context.store, releasesDir, log)).toBe(4);

    // Files: in the store under the same ids, release.json and the build stamp left out.
    const expected = Object.keys(fixtureFiles('blog', B.build)).filter((file) => file !== BUILD_STAMP).sort();
    const manifest = await readReleaseManifest(fixture.context.store, 'blog', B.id);
    expect(manifest?.files.map((file) => file.path)).toEqual(expected);
    expect((await fixture.context.store.get(`blog/${B.id}/remoteEntry.js`))?.toString()).toBe('var agency_blog; // b');
    expect((await fixture.context.store.list('')).filter((key) => key.endsWith(RELEASE_MANIFEST))).toEqual(
      [`blog/${A.id}/`, `blog/${B.id}/`, `blog/${C.id}/`, `home/${A.id}/`].map((prefix) => prefix + RELEASE_MANIFEST),
    );

    // Rows: the releases as release.json described them, published by the import.
    const blog = await loadAppReleases(fixture.db, 'blog');
    expect(blog.releases.map((release) => release.id)).toEqual([C.id, B.id, A.id]);
    expect(blog.releases.find((release) => release.id === B.id)).toEqual({
      id: B.id,
      app: 'blog',
      version: '1.0.0',
      revision: 'abc1234',
      builtAt: '2026-01-02T06:00:00.000Z',
      publishedAt: B.publishedAt,
      publishedBy: IMPORT_ACTOR,
      digest: expect.stringMatching(/^[0-9a-f]{64}$/) as string,
      fileCount: expected.length,
      totalBytes: expect.any(Number) as number,
    });
    // The state: history, candidate, the decisions that are decisions, all by the import.
    expect(blog.history).toEqual([A.id, B.id]);
    expect(blog.current?.id).toBe(B.id);
    expect(blog.previous?.id).toBe(A.id);
    expect(blog.candidate).toEqual({ ...CANDIDATE, release: expect.objectContaining({ id: C.id }) as unknown });
    expect(blog.events).toEqual([{ at: '2026-01-03T08:00:00.000Z', release: C.id, action: 'canary', reason: '10 % of visitors, judged after 100 page views, promoted by hand', actor: IMPORT_ACTOR }]);
    // Only the current release counts as current: the others stopped being current at the import.
    expect(blog.current?.currentUntil).toBeUndefined();
    expect(blog.releases.filter((release) => release.id !== B.id).map((release) => release.currentUntil)).toEqual([expect.any(String), expect.any(String)]);
    expect((await loadAppReleases(fixture.db, 'home')).current?.id).toBe(A.id);
    expect((await loadAppReleases(fixture.db, 'forms')).releases).toEqual([]);

    // The folder is left as it was.
    expect(filesUnder(releasesDir)).toEqual(before);
  });

  it('imports the very builds: publishing one of them again finds its imported release', async () => {
    writeOldReleasesDir();
    await importReleasesDir(fixture.db, fixture.context.store, releasesDir, log);
    const output = await publish(fixture.context, 'blog', await fixture.buildOf('blog', A.build));
    expect(output).toMatchObject({ build: { release: { id: A.id }, created: false }, alreadyCurrent: false });
    expect((await loadAppReleases(fixture.db, 'blog')).history).toEqual([A.id, B.id, A.id]);
  });

  it('runs once: a second start imports nothing', async () => {
    writeOldReleasesDir();
    expect(await importReleasesDir(fixture.db, fixture.context.store, releasesDir, log)).toBe(4);
    const revision = await readReleasesRevision(fixture.db);
    const state = await loadAppReleases(fixture.db, 'blog');
    // Even with the folder changed since, and the record changed since.
    writeOldRelease('forms', A);
    writeOldState('forms', { history: [A.id], events: [] });
    expect(await importReleasesDir(fixture.db, fixture.context.store, releasesDir, log)).toBeUndefined();
    expect(await readReleasesRevision(fixture.db)).toBe(revision);
    expect(await loadAppReleases(fixture.db, 'blog')).toEqual(state);
    expect((await loadAppReleases(fixture.db, 'forms')).releases).toEqual([]);
    expect(await fixture.context.store.list('forms/')).toEqual([]);
  });

  it('does nothing without releases in the folder, or without the folder', async () => {
    expect(await importReleasesDir(fixture.db, fixture.context.store, path.join(fixture.scratch, 'none'), log)).toBeUndefined();
    fs.mkdirSync(path.join(releasesDir, 'blog'), { recursive: true });
    writeOldState('blog', { history: [], events: [] });
    expect(await importReleasesDir(fixture.db, fixture.context.store, releasesDir, log)).toBeUndefined();
    expect(await fixture.db.kysely.selectFrom('release_apps').selectAll().execute()).toEqual([]);
    // Not marked as imported: a folder with releases found later is still imported.
    writeOldRelease('blog', A);
    writeOldState('blog', { history: [A.id], events: [] });
    expect(await importReleasesDir(fixture.db, fixture.context.store, releasesDir, log)).toBe(1);
  });

  it('leaves the folder alone when the database has releases of its own already', async () => {
    const own = (await publish(fixture.context, 'blog', await fixture.buildOf('blog', { label: 'own' }))).build.release.id;
    const state = await loadAppReleases(fixture.db, 'blog');
    writeOldReleasesDir();
    const warnings: unknown[] = [];
    const warn = jest.spyOn(log, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args));
    try {
      expect(await importReleasesDir(fixture.db, fixture.context.store, releasesDir, log)).toBe(0);
    } finally {
      warn.mockRestore();
    }
    expect(warnings).toEqual([[{ releasesDir }, 'the database has releases of its own already: RELEASES_DIR is not imported']]);
    const after = await loadAppReleases(fixture.db, 'blog');
    expect(after.releases).toEqual(state.releases);
    expect(after.history).toEqual([own]);
    expect(after.events).toEqual(state.events);
    expect(await fixture.context.store.list(`blog/${A.id}/`)).toEqual([]);
    expect((await loadAppReleases(fixture.db, 'home')).releases).toEqual([]);
    // Nor is it tried again at the next start.
    expect(await importReleasesDir(fixture.db, fixture.context.store, releasesDir, log)).toBeUndefined();
  });

  it('imports at a server start, which then serves the imported current release', async () => {
    writeOldReleasesDir();
    const ctx = await startTestApp({ ...fixture.config, releasesDir }, fixture.testDb);
    try {
      const remotes = async () => (await ctx.request('GET', '/remotes.json')).json<{ remotes: Record<string, { entry: string; release: string }> }>().remotes;
      const served = await eventually('the imported releases', remotes, (document) => document.blog?.release === B.id);
      expect(served.blog).toEqual({ entry: `/remotes/blog/${B.id}/mf-manifest.json`, release: B.id });
      expect(served.home?.release).toBe(A.id);
      const entry = await ctx.request('GET', `/remotes/blog/${B.id}/remoteEntry.js`);
      expect([entry.statusCode, entry.body]).toEqual([200, 'var agency_blog; // b']);
      // The previous release stays served for pages opened before.
      expect((await ctx.request('GET', `/remotes/blog/${A.id}/remoteEntry.js`)).body).toBe('var agency_blog; // a');
      expect((await loadAppReleases(fixture.db, 'blog')).candidate?.id).toBe(C.id);
    } finally {
      await ctx.close();
    }
  });
});
