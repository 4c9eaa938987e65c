import { formatReleaseResult } from '../../src/cli/release-text';
import type { PublishedBuild } from '../../src/delivery/releases/commands';
import type { ReleaseInfo } from '../../src/delivery/releases/store';

// The lines the command-line formatter makes that the release tests do not reach through real
// releases: pruning, empty and current-less listings, and "dist" when no release is current.

const info = (id: string, publishedAt = '2026-01-01T00:00:00.000Z'): ReleaseInfo => ({
  id,
  app: 'blog',
  version: '1.0.0',
  revision: 'abc1234',
  builtAt: '2025-12-31T00:00:00.000Z',
  publishedAt,
  dir: `/releases/blog/${id}`,
});

const build = (id: string, created = true): PublishedBuild => ({ release: info(id), created, dist: '/builds/blog' });

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
  });

  it('lists no releases, and releases none of which is current', () => {
    expect(formatReleaseResult({ kind: 'list', app: 'blog', dir: '/releases/blog', releases: [], current: undefined })).toEqual([
      'No blog releases in /releases/blog: blog is served from mfe-blog/dist.',
    ]);
    const long = 'r-with-a-longer-id';
    expect(
      formatReleaseResult({ kind: 'list', app: 'blog', dir: '/releases/blog', releases: [{ release: info(long) }, { release: info('r1'), role: 'staged' }], current: undefined }),
    ).toEqual([
      'blog releases, newest first (* = current):',
      '  RELEASE             BUILT                     REVISION        PUBLISHED',
      '  r-with-a-longer-id  2025-12-31T00:00:00.000Z  abc1234         2026-01-01T00:00:00.000Z',
      '  r1                  2025-12-31T00:00:00.000Z  abc1234         2026-01-01T00:00:00.000Z  staged (preview only)',
      'None is current: blog is served from mfe-blog/dist.',
    ]);
  });
});
