import { formatReleaseResult } from '../../../src/delivery/cli/release-text';
import type { PublishedBuild } from '../../../src/delivery/releases/commands';
import type { ReleaseRecord } from '../../../src/delivery/releases/release-repository';

// The lines the command-line formatter makes that the release tests do not reach through real
// releases: pruning, empty and current-less listings, and "dist" when no release is current.

const info = (id: string, publishedAt = '2026-01-01T00:00:00.000Z'): ReleaseRecord => ({
  id,
  app: 'blog',
  version: '1.0.0',
  revision: 'abc1234',
  builtAt: '2025-12-31T00:00:00.000Z',
  publishedAt,
  publishedBy: 'cli:test@host',
  digest: 'f'.repeat(64),
  fileCount: 3,
  totalBytes: 120,
});

const build = (id: string, created = true, source = '/builds/blog'): PublishedBuild => ({ release: info(id), created, source });

describe('formatReleaseResult', () => {
  it('names the releases pruned after a publish, a stage and a canary', () => {
    const pruned = [info('r1'), info('r2')];
    const removed = 'Removed 2 old blog release(s): r1, r2';
    expect(formatReleaseResult({ kind: 'publish', app: 'blog', build: build('r4'), alreadyCurrent: false, pruned })).toEqual([
      'Published blog release r4 from /builds/blog',
      'blog release r4 is now current',
      removed,
    ]);
    expect(formatReleaseResult({ kind: 'stage', app: 'blog', build: build('r4'), alreadyCurrent: false, previewUrl: 'https://x.example/?preview=t', pruned }).at(-1)).toBe(removed);
    const candidate = { id: 'r4', share: 10, minViews: 100, promoteAfter: null, since: '2026-01-01T00:00:00.000Z' };
    expect(formatReleaseResult({ kind: 'canary', app: 'blog', build: build('r4'), candidate, current: info('r3'), pruned }).at(-1)).toBe(removed);
  });

  it('names where an uploaded build came from', () => {
    expect(formatReleaseResult({ kind: 'publish', app: 'blog', build: build('r5', true, 'an upload by blog-ci'), alreadyCurrent: false, pruned: [] })).toEqual([
      'Published blog release r5 from an upload by blog-ci',
      'blog release r5 is now current',
    ]);
  });

  it('says so when the published build is current already', () => {
    expect(formatReleaseResult({ kind: 'publish', app: 'blog', build: build('r3', false), alreadyCurrent: true, pruned: [] })).toEqual([
      'blog release r3 already holds this build',
      'r3 is already the current blog release',
    ]);
  });

  it('names dist when no release was or is current', () => {
    expect(formatReleaseResult({ kind: 'promote', app: 'blog', release: info('r1'), alreadyCurrent: false, from: undefined })).toEqual([
      'blog release r1 is now current (was dist)',
    ]);
    const dropped = { id: 'r2', share: 5, minViews: 10, promoteAfter: 20, since: '2026-01-01T00:00:00.000Z', release: info('r2') };
    expect(formatReleaseResult({ kind: 'abort', app: 'blog', dropped, current: undefined })).toEqual(['Dropped blog candidate r2: every visitor gets dist']);
    expect(formatReleaseResult({ kind: 'rollback', app: 'blog', from: info('r2'), to: undefined, candidate: true })).toEqual([
      'Rolled back blog candidate r2: every visitor gets dist',
    ]);
  });

  it('tells a rolled-back candidate from a rollback to the previous release', () => {
    expect(formatReleaseResult({ kind: 'rollback', app: 'blog', from: info('r4'), to: info('r3'), candidate: true })).toEqual([
      'Rolled back blog candidate r4: every visitor gets r3',
    ]);
    expect(formatReleaseResult({ kind: 'rollback', app: 'blog', from: info('r4'), to: info('r3'), candidate: false })).toEqual([
      'Rolled back blog: release r3 is now current (was r4)',
    ]);
  });

  it('lists no releases, and releases none of which is current', () => {
    expect(formatReleaseResult({ kind: 'list', app: 'blog', store: 'file:/srv/release-store', releases: [], current: undefined, revision: 0 })).toEqual([
      'No blog releases in file:/srv/release-store: blog is served from mfe-blog/dist.',
    ]);
    const long = 'r-with-a-longer-id';
    expect(
      formatReleaseResult({ kind: 'list', app: 'blog', store: 'file:/srv/release-store', releases: [{ release: info(long) }, { release: info('r1'), role: 'staged' }], current: undefined, revision: 2 }),
    ).toEqual([
      'blog releases, newest first (* = current):',
      '  RELEASE             BUILT                     REVISION        PUBLISHED',
      '  r-with-a-longer-id  2025-12-31T00:00:00.000Z  abc1234         2026-01-01T00:00:00.000Z',
      '  r1                  2025-12-31T00:00:00.000Z  abc1234         2026-01-01T00:00:00.000Z  staged (preview only)',
      'None is current: blog is served from mfe-blog/dist.',
    ]);
  });
});
