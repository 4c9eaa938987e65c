import { EXTERNAL_RELEASE } from '@agency/shared';
import type { ReleaseReader } from '../../../src/delivery/releases/reader';
import type { AppReleases, ReleaseRecord } from '../../../src/delivery/releases/release-repository';
import { remotesDocument } from '../../../src/delivery/visitor/remotes-document';

// Where each remote is loaded from when the blog is hosted elsewhere (REMOTE_BLOG_URL) and also has
// releases kept here: everyone gets the hosted blog; a release manager's override of it gets what
// its banner says, the kept release or the build on their machine.

const HOSTED = 'https://blog.cdn.example/mf-manifest.json';
const KEPT = '1.4.0-abc1234-20261130T120000Z';

function release(id: string): ReleaseRecord {
  return { id, app: 'blog', version: '1.4.0', revision: 'abc1234', builtAt: '', publishedAt: '', publishedBy: 'test', digest: id, fileCount: 1, totalBytes: 1 };
}

const none: AppReleases = { releases: [], history: [], current: undefined, previous: undefined, candidate: undefined, events: [], state: { history: [], events: [], revision: 0 } };
const reader = {
  get: async (app: string): Promise<AppReleases> => (app === 'blog' ? { ...none, releases: [release(KEPT)] } : none),
} as unknown as ReleaseReader;

const blogFor = async (choice: Parameters<typeof remotesDocument>[2]) => (await remotesDocument(reader, { blog: HOSTED }, choice)).remotes.blog;

it('gives everyone the hosted blog', async () => {
  expect(await blogFor({})).toEqual({ entry: HOSTED, release: EXTERNAL_RELEASE });
});

it("gives an override's browser the kept release it names instead", async () => {
  expect(await blogFor({ override: { app: 'blog', target: { release: KEPT } } })).toEqual({ entry: `/remotes/blog/${KEPT}/mf-manifest.json`, release: KEPT });
});

it('gives an override of a release no longer kept the hosted blog', async () => {
  expect(await blogFor({ override: { app: 'blog', target: { release: 'gone' } } })).toEqual({ entry: HOSTED, release: EXTERNAL_RELEASE });
});

it("gives an override's browser the build on the member's machine", async () => {
  expect(await blogFor({ override: { app: 'blog', target: { port: 5173 } } })).toEqual({ entry: 'http://localhost:5173/mf-manifest.json', release: 'localhost-5173' });
});
