import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import zlib from 'node:zlib';
import { PREVIEW_QUERY_PARAM, type RemotesDocument } from '@agency/shared';
import * as compat from '../../../src/delivery/releases/compat';
import { RELEASE_API_PATH } from '../../../src/delivery/release-api/release-api-routes';
import { packReleaseArchive } from '../../../src/delivery/release-api/release-archive';
import { createReleaseToken, revokeReleaseToken } from '../../../src/delivery/release-api/release-tokens';
import { APP_NAMES } from '../../../src/delivery/releases/apps';
import { promote, stage } from '../../../src/delivery/releases/commands';
import { loadAppReleases, type ReleaseRecord } from '../../../src/delivery/releases/release-repository';
import type { ReleaseStatus } from '../../../src/delivery/status/release-status';
import { TEST_SITE_URL } from '../../helpers/app';
import { eventually } from '../../helpers/eventually';
import type { HttpResponse } from '../../helpers/http';
import { setUpReleaseSuite, type FixtureBuild } from '../../helpers/releases';
import { serverProcesses } from '../../helpers/server-process';
import { HOSTILE_BLOG_ARCHIVES, SMALLEST_BLOG_BUILD, tarball } from '../../helpers/tarballs';

// The release API on a real server and database, over HTTP, as teams' CI calls it: a token per
// call, builds uploaded as .tar.gz, the release commands' results as JSON. A refused call changes
// nothing: the releases' rows and the artifact store's files are compared before and after.
jest.setTimeout(60_000);

const MiB = 1024 * 1024;
/** RELEASE_UPLOAD_MAX_MB=1: the archive sent and what it unpacks to. */
const UPLOAD_MAX = MiB;

const suite = setUpReleaseSuite({ releaseUploadMaxBytes: UPLOAD_MAX });

let blogToken = '';
let opsToken = '';

beforeAll(async () => {
  blogToken = await createReleaseToken(suite.fixture.db, { name: 'blog-ci', apps: ['blog'] });
  opsToken = await createReleaseToken(suite.fixture.db, { name: 'ops', apps: [...APP_NAMES] });
});

interface CallOptions {
  token?: string;
  json?: unknown;
  body?: Buffer | string;
  contentType?: string;
  headers?: Record<string, string>;
}

/** A call to the release API; a POST without a body sends none (Content-Length: 0), as `curl -X POST` does. */
function call(method: string, path: string, { token = blogToken, json, body, contentType, headers = {} }: CallOptions = {}): Promise<HttpResponse> {
  return suite.ctx.request(method, `${RELEASE_API_PATH}${path}`, {
    headers: { ...(token && { authorization: `Bearer ${token}` }), ...(contentType && { 'content-type': contentType }), ...headers },
    json,
    body: body ?? (method === 'POST' && json === undefined ? '' : undefined),
  });
}

/** The app's revision, as GET /<app> answers it: what a command names as the state it acts on. */
async function revisionOf(app = 'blog'): Promise<number> {
  return (await call('GET', `/${app}`)).json<{ revision: number }>().revision;
}

/** A command on the app's releases as they are now (`expect` names the revision just read), with its fields. */
async function command(path: string, fields: Record<string, unknown> = {}, options: CallOptions = {}): Promise<HttpResponse> {
  const app = path.split('/')[1]!;
  return call('POST', path, { json: { expect: { revision: await revisionOf(app) }, ...fields }, ...options });
}

/** A build of `app` uploaded as CI does (packReleaseArchive), with the query's action. */
async function upload(app: string, build: FixtureBuild, query = '', options: CallOptions = {}): Promise<HttpResponse> {
  const archive = await packReleaseArchive(suite.fixture.build(app, build));
  return call('POST', `/${app}/builds${query}`, { body: archive, contentType: 'application/gzip', ...options });
}

interface ErrorBody {
  error: { code: string; message: string };
}

function expectError(response: HttpResponse, statusCode: number, code: string, message: string | RegExp): void {
  expect({ status: response.statusCode, code: response.json<ErrorBody>().error.code }).toEqual({ status: statusCode, code });
  expect(response.json<ErrorBody>().error.message).toMatch(typeof message === 'string' ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : message);
  expect(response.headers['cache-control']).toBe('no-store');
}

/** Every file of the artifact store, with a hash of its content. */
function storeFiles(): Record<string, string> {
  const dir = suite.fixture.storeDir;
  if (!fs.existsSync(dir)) return {};
  const files = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((name) => fs.statSync(`${dir}/${name}`).isFile());
  return Object.fromEntries(files.sort().map((name) => [name, createHash('sha256').update(fs.readFileSync(`${dir}/${name}`)).digest('hex')]));
}

/** The releases' record (every row of its tables) and the store's files: what a refused call must leave as it was. */
async function releasesSnapshot(): Promise<{ rows: Record<string, string[]>; store: Record<string, string> }> {
  const { kysely } = suite.fixture.db;
  const rows: Record<string, string[]> = {};
  for (const table of ['releases', 'release_apps', 'release_events', 'release_revision'] as const) {
    rows[table] = (await kysely.selectFrom(table).selectAll().execute()).map((row) => JSON.stringify(row)).sort();
  }
  return { rows, store: storeFiles() };
}

/** Runs `refused` and checks nothing of the releases changed (and that it did touch the API). */
async function expectNothingChanged(refused: () => Promise<void>): Promise<void> {
  const before = await releasesSnapshot();
  await refused();
  expect(await releasesSnapshot()).toEqual(before);
}

const blogState = () => loadAppReleases(suite.fixture.db, 'blog');
const servedBlog = async (query = '') => (await suite.ctx.request('GET', `/remotes.json${query}`)).json<RemotesDocument>().remotes.blog.release;

describe('without a token the API accepts', () => {
  it.each([
    ['GET', '/blog'],
    ['GET', '/blog/status'],
    ['POST', '/blog/builds'],
    ['POST', '/blog/promote'],
    ['POST', '/blog/rollback'],
    ['POST', '/blog/abort'],
    ['POST', '/blog/canary'],
  ])('answers %s %s with 401 and WWW-Authenticate', async (method, path) => {
    const response = await call(method, path, { token: '' });
    expectError(response, 401, 'UNAUTHORIZED', 'Send a release token: Authorization: Bearer <token>.');
    expect(response.headers['www-authenticate']).toBe('Bearer realm="releases"');
  });

  it('answers a wrong, revoked, malformed or otherwise sent token alike, with 401', async () => {
    const revoked = await createReleaseToken(suite.fixture.db, { name: 'old-ci', apps: ['blog'] });
    await revokeReleaseToken(suite.fixture.db, 'old-ci');
    for (const token of [`${blogToken.slice(0, -1)}${blogToken.endsWith('A') ? 'B' : 'A'}`, revoked, 'not/a/token', 'x'.repeat(300)]) {
      const response = await call('GET', '/blog', { token: '', headers: { authorization: `Bearer ${token}` } });
      expectError(response, 401, 'UNAUTHORIZED', 'The release token is unknown or revoked.');
      expect(response.headers['www-authenticate']).toBe('Bearer realm="releases"');
    }
    // A token, but not as a bearer's.
    for (const authorization of [blogToken, `Basic ${Buffer.from(`ci:${blogToken}`).toString('base64')}`, `Bearer ${blogToken} extra`]) {
      expectError(await call('GET', '/blog', { token: '', headers: { authorization } }), 401, 'UNAUTHORIZED', 'Send a release token: Authorization: Bearer <token>.');
    }
  });

  it('answers 401 before looking at anything else the call sends', async () => {
    expect((await call('POST', '/blog/promote', { token: '', json: { release: 42, extra: true } })).statusCode).toBe(401);
    expect((await call('GET', '/admin', { token: '' })).statusCode).toBe(401);
    expect((await call('POST', '/blog/builds?action=deploy', { token: '', body: 'not an archive', contentType: 'text/plain' })).statusCode).toBe(401);
  });

  it('stores nothing uploaded without one', async () => {
    await expectNothingChanged(async () => {
      expect((await upload('blog', { label: 'anonymous' }, '', { token: '' })).statusCode).toBe(401);
      expect((await upload('blog', { label: 'anonymous' }, '', { token: 'rt_blog-ci_wrongwrongwrongwrongwrongwrongwrongwrong123' })).statusCode).toBe(401);
    });
  });
});

describe('a token for the blog only', () => {
  it.each([
    ['GET', '/forms'],
    ['GET', '/shell/status'],
    ['POST', '/forms/rollback'],
    ['POST', '/shell/promote'],
  ])('is refused for %s %s with 403, naming what it may release', async (method, path) => {
    const app = path.split('/')[1];
    const response = await call(method, path, { json: method === 'POST' ? {} : undefined });
    expectError(response, 403, 'FORBIDDEN', `The token blog-ci may release blog, not ${app}.`);
  });

  it('uploads nothing for the forms or the shell', async () => {
    await expectNothingChanged(async () => {
      expectError(await upload('forms', { label: 'not-yours' }), 403, 'FORBIDDEN', 'The token blog-ci may release blog, not forms.');
      expectError(await upload('shell', { label: 'not-yours' }, '?action=stage'), 403, 'FORBIDDEN', 'The token blog-ci may release blog, not shell.');
    });
  });
});

describe('an uploaded build', () => {
  let published: ReleaseRecord;
  let staged = '';

  it('is published and made current (action=publish, the default), as its token', async () => {
    const stamp = JSON.stringify({ builtAt: '2026-11-20T08:30:00.000Z', revision: 'abc1234' });
    const response = await upload('blog', { label: 'api1', stamp });
    expect(response.statusCode).toBe(200);
    const result = response.json<{ kind: string; app: string; build: { release: ReleaseRecord; created: boolean; source: string }; alreadyCurrent: boolean; pruned: unknown[] }>();
    expect(result).toMatchObject({
      kind: 'publish',
      app: 'blog',
      build: { created: true, source: 'an upload by blog-ci', release: { app: 'blog', revision: 'abc1234', builtAt: '2026-11-20T08:30:00.000Z', publishedBy: 'token:blog-ci' } },
      alreadyCurrent: false,
      pruned: [],
    });
    published = result.build.release;
    expect(published.id).toMatch(/^1\.0\.0-abc1234-20261120T083000Z$/);
    const state = await blogState();
    expect(state.current).toMatchObject({ id: published.id, digest: published.digest, publishedBy: 'token:blog-ci' });
    expect(state.events.at(-1)).toMatchObject({ release: published.id, action: 'published', actor: 'token:blog-ci', reason: 'published from an upload by blog-ci and made current' });
    // Its files in the store (the build stamp is not one of them), and served.
    expect(fs.readFileSync(`${suite.fixture.storeDir}/blog/${published.id}/remoteEntry.js`, 'utf8')).toBe('var agency_blog; // api1');
    expect(fs.existsSync(`${suite.fixture.storeDir}/blog/${published.id}/.build-stamp`)).toBe(false);
    await eventually('the uploaded release served', servedBlog, (release) => release === published.id);
    expect((await suite.ctx.request('GET', `/remotes/blog/${published.id}/remoteEntry.js`)).body).toBe('var agency_blog; // api1');
  });

  it('is listed by GET /<app>, as --list shows it', async () => {
    const response = await call('GET', '/blog');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      kind: 'list',
      app: 'blog',
      store: suite.fixture.releaseStore,
      releases: [{ release: expect.objectContaining({ id: published.id }), role: 'current' }],
      current: expect.objectContaining({ id: published.id }),
      revision: (await blogState()).state.revision,
    });
  });

  it('changes nothing with unlessKept=true when a kept release holds it (a container started again)', async () => {
    await expectNothingChanged(async () => {
      const response = await upload('blog', { label: 'api1', stamp: JSON.stringify({ builtAt: '2026-11-20T08:30:00.000Z', revision: 'abc1234' }) }, '?unlessKept=true');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ kind: 'kept', app: 'blog', release: expect.objectContaining({ id: published.id, digest: published.digest }) });
    });
    // Without it, the same build is published again: already current, nothing new kept.
    await expectNothingChanged(async () => {
      const again = await upload('blog', { label: 'api1' });
      expect(again.json()).toMatchObject({ kind: 'publish', build: { created: false, release: { id: published.id } }, alreadyCurrent: true });
    });
  });

  it('is staged for one browser (action=stage), with a preview link that works', async () => {
    const events = (await blogState()).events.length;
    const response = await upload('blog', { label: 'api-staged' }, '?action=stage');
    expect(response.statusCode).toBe(200);
    const result = response.json<{ kind: string; build: { release: ReleaseRecord }; alreadyCurrent: boolean; previewUrl: string }>();
    expect(result).toMatchObject({ kind: 'stage', alreadyCurrent: false, build: { created: true, source: 'an upload by blog-ci' } });
    staged = result.build.release.id;
    const link = new URL(result.previewUrl);
    expect(link.origin).toBe(TEST_SITE_URL);
    const state = await blogState();
    expect(state.current?.id).toBe(published.id);
    expect(state.events.slice(events).map((event) => [event.action, event.release, event.actor])).toEqual([['staged', staged, 'token:blog-ci']]);
    const query = `?${PREVIEW_QUERY_PARAM}=${encodeURIComponent(link.searchParams.get(PREVIEW_QUERY_PARAM) ?? '')}`;
    await eventually('the preview link showing the staged release', () => servedBlog(query), (release) => release === staged);
    expect(await servedBlog()).toBe(published.id);
  });

  it('needs a share to be a canary’s candidate, and stores nothing without one', async () => {
    await expectNothingChanged(async () => {
      expectError(await upload('blog', { label: 'api-canary' }, '?action=canary'), 400, 'BAD_REQUEST', /^action=canary needs share/);
      expectError(await upload('blog', { label: 'api-canary' }, '?action=canary&share=0'), 400, 'BAD_REQUEST', /^Bad querystring: /);
      expectError(await upload('blog', { label: 'api-canary' }, '?action=deploy'), 400, 'BAD_REQUEST', /^Bad querystring: /);
    });
  });

  it('becomes a canary’s candidate (action=canary), whose share the canary route changes', async () => {
    const response = await upload('blog', { label: 'api-canary' }, '?action=canary&share=25&minViews=10&promoteAfter=500');
    expect(response.statusCode).toBe(200);
    const result = response.json<{ kind: string; candidate: { id: string }; current: ReleaseRecord }>();
    expect(result).toMatchObject({
      kind: 'canary',
      build: { created: true, source: 'an upload by blog-ci' },
      candidate: { share: 25, minViews: 10, promoteAfter: 500 },
      current: { id: published.id },
    });
    const { id } = result.candidate;
    expect((await blogState()).candidate).toMatchObject({ id, share: 25, minViews: 10, promoteAfter: 500 });

    const changed = await command('/blog/canary', { release: id, share: 50, minViews: 20 });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ kind: 'canary', candidate: { id, share: 50, minViews: 20, promoteAfter: null } });
    expect(changed.json<{ build?: unknown }>().build).toBeUndefined();
    expect((await blogState()).candidate).toMatchObject({ id, share: 50, minViews: 20, promoteAfter: null });
    expect((await blogState()).events.at(-1)).toMatchObject({ action: 'canary', release: id, actor: 'token:blog-ci' });

    // Another candidate while this one runs is refused, and changes nothing.
    await expectNothingChanged(async () => {
      const other = await command('/blog/canary', { release: staged, share: 10 });
      expectError(other, 409, 'REFUSED', `blog release ${id} is the candidate now: promote it (--promote) or drop it (--abort) first.`);
    });
  });

  it('as the candidate, is rolled back by the rollback route; with none, rollback returns to the previous release', async () => {
    const { candidate } = await blogState();
    const back = await command('/blog/rollback');
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({ kind: 'rollback', candidate: true, from: { id: candidate!.id }, to: { id: published.id } });
    const state = await blogState();
    expect([state.candidate, state.current?.id]).toEqual([undefined, published.id]);
    expect(state.events.at(-1)).toMatchObject({ action: 'rolled_back', release: candidate!.id, actor: 'token:blog-ci' });
    // Nothing to roll back to: the only release ever current is current.
    await expectNothingChanged(async () => {
      expectError(await command('/blog/rollback'), 409, 'REFUSED', `blog has no previous release to roll back to; the current release stays ${published.id}.`);
    });
  });

  it('is made current by the promote route, as the candidate or by its id', async () => {
    // The staged release as the candidate (the canary route), promoted without naming it.
    expect((await command('/blog/canary', { release: staged, share: 5 })).statusCode).toBe(200);
    const promoted = await command('/blog/promote');
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json()).toMatchObject({ kind: 'promote', alreadyCurrent: false, release: { id: staged }, from: { id: published.id } });
    expect(await blogState()).toMatchObject({ current: { id: staged }, candidate: undefined });
    // By its id: the first one again.
    const byId = await command('/blog/promote', { release: published.id });
    expect(byId.json()).toMatchObject({ kind: 'promote', alreadyCurrent: false, release: { id: published.id }, from: { id: staged } });
    await eventually('the promoted release served', servedBlog, (release) => release === published.id);
    await expectNothingChanged(async () => {
      expectError(await command('/blog/promote', { release: 'nope' }), 409, 'REFUSED', /^There is no blog release nope\. Kept releases: /);
      expectError(await command('/blog/promote'), 409, 'REFUSED', /^blog has no candidate to promote/);
      expectError(await command('/blog/promote', { release: 42 }), 400, 'BAD_REQUEST', /^Bad body: body\/release must be string/);
    });
  });

  it('reports by GET /<app>/status the releases the database holds, a change the server made elsewhere included', async () => {
    const status = async () => (await call('GET', '/blog/status')).json<ReleaseStatus>();
    const currentIn = (report: ReleaseStatus) => report.releases.find((entry) => entry.current)?.id;
    expect(currentIn(await status())).toBe(published.id);
    // The command on the server (or another API process) changes the state: a report right after
    // shows it, though this process's own copy, read once a second for visitors, may not yet.
    await promote(suite.fixture.context, 'blog', staged);
    expect(currentIn(await status())).toBe(staged);
    await promote(suite.fixture.context, 'blog', published.id);
    expect(currentIn(await status())).toBe(published.id);
  });

  it('takes a command’s options as JSON only: a form never promotes the candidate instead', async () => {
    expect((await command('/blog/canary', { release: staged, share: 5 })).statusCode).toBe(200);
    await expectNothingChanged(async () => {
      const expected = "A command's options are sent as JSON (Content-Type: application/json).";
      expectError(await call('POST', '/blog/promote', { body: `release=${published.id}`, contentType: 'application/x-www-form-urlencoded' }), 415, 'UNSUPPORTED_MEDIA_TYPE', expected);
      expectError(await call('POST', '/blog/rollback', { body: 'x', contentType: 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE', expected);
      expectError(await call('POST', '/blog/canary', { body: `release=${staged}&share=50`, contentType: 'application/x-www-form-urlencoded' }), 415, 'UNSUPPORTED_MEDIA_TYPE', expected);
      expectError(await command('/blog/canary'), 400, 'BAD_REQUEST', /^Bad body: body must have required property 'release'/);
    });
    expect((await command('/blog/abort')).statusCode).toBe(200);
  });

  it('as the candidate, is dropped by the abort route', async () => {
    expect((await command('/blog/canary', { release: staged, share: 5 })).statusCode).toBe(200);
    const dropped = await command('/blog/abort');
    expect(dropped.statusCode).toBe(200);
    expect(dropped.json()).toMatchObject({ kind: 'abort', dropped: { id: staged, share: 5 }, current: { id: published.id } });
    expect((await blogState()).candidate).toBeUndefined();
    await expectNothingChanged(async () => {
      expectError(await command('/blog/abort'), 409, 'REFUSED', 'blog has no candidate to drop.');
    });
  });

  it('is refused by the compatibility gate with 409, kept for later', async () => {
    const response = await upload('blog', { label: 'api-incompatible', required: { 'react-dom': '^99.0.0' } });
    expectError(response, 409, 'REFUSED', /^Refused: blog release (\S+) needs react-dom \^99\.0\.0, .* Release \1 is kept: make it current later with --promote \1\.$/);
    expect((await blogState()).current?.id).toBe(published.id);
  });
});


const BLOG_FILES = SMALLEST_BLOG_BUILD;

describe('a bad upload', () => {
  const send = (archive: Buffer | string, { app = 'blog', contentType = 'application/gzip', token = opsToken }: { app?: string; contentType?: string; token?: string } = {}) =>
    call('POST', `/${app}/builds`, { body: archive, contentType, token });

  it.each([
    ...HOSTILE_BLOG_ARCHIVES,
    [
      'without the entry file',
      () => tarball([BLOG_FILES[1]!]),
      400,
      "a blog build needs mf-manifest.json at its root: is this the app's dist folder?",
    ],
    [
      'of the dist folder instead of its contents',
      () => tarball(BLOG_FILES.map((file) => ({ ...file, name: `dist/${file.name}` }))),
      400,
      "a blog build needs mf-manifest.json at its root: is this the app's dist folder? (it has dist/mf-manifest.json: archive the folder's contents, not the folder itself)",
    ],
    [
      'of the shell without its page',
      () => tarball([{ name: 'main.3f2a9c1b7d.js', content: 'x' }]),
      400,
      "a shell build needs index.html at its root: is this the app's dist folder?",
      'shell',
    ],
    [
      'with a path going up inside it (assets/../../)',
      () => tarball([...BLOG_FILES, { name: 'assets/../../escaped.js', content: 'x' }]),
      400,
      'the release archive\'s entry "assets/../../escaped.js" escapes the release folder: its path goes up a folder (..)',
    ],
    [
      'with an absolute path',
      () => tarball([...BLOG_FILES, { name: '/etc/cron.d/x', content: 'x' }]),
      400,
      'the release archive\'s entry "/etc/cron.d/x" escapes the release folder: its path is absolute',
    ],
    ['that is gzip but no tar', async () => zlib.gzipSync(Buffer.from('just text, not a tarball '.repeat(40))), 400, /^the release archive is not a gzip-compressed tar archive: send a \.tar\.gz of the app's dist folder \(/],
    ['that is truncated', async () => (await tarball(BLOG_FILES)).subarray(0, 40), 400, /^the release archive is not a gzip-compressed tar archive/],
    [
      `that unpacks to more than RELEASE_UPLOAD_MAX_MB (a small archive of ${2 * UPLOAD_MAX} zero bytes)`,
      () => tarball([...BLOG_FILES, { name: 'zeros.bin', content: Buffer.alloc(2 * UPLOAD_MAX) }]),
      413,
      `the release archive unpacks to more than ${UPLOAD_MAX.toLocaleString('en')} bytes, the most a release may hold`,
    ],
  ] as [string, () => Promise<Buffer>, number, string | RegExp, string?][])('%s is refused, and nothing stored', async (_label, make, statusCode, message, app = 'blog') => {
    const archive = await make();
    await expectNothingChanged(async () => {
      expectError(await send(archive, { app }), statusCode, 'BAD_ARCHIVE', message);
    });
  });

  it('larger than RELEASE_UPLOAD_MAX_MB is refused (413) before it is read, and nothing stored', async () => {
    // Random bytes do not compress: the archive itself is past the limit.
    const archive = await tarball([...BLOG_FILES, { name: 'noise.bin', content: randomBytes(UPLOAD_MAX + 64 * 1024) }]);
    expect(archive.length).toBeGreaterThan(UPLOAD_MAX);
    await expectNothingChanged(async () => {
      expectError(await send(archive), 413, 'BAD_ARCHIVE', 'The release archive is larger than 1 MB (RELEASE_UPLOAD_MAX_MB).');
    });
  });

  it('a little larger than RELEASE_UPLOAD_MAX_MB: answered after the whole upload, on a connection closed cleanly', async () => {
    // The server knows from Content-Length that the upload is too large before reading it. Closed
    // with unread bytes, the connection is reset under the client still sending, and the team's
    // CLI reports a broken pipe instead of why (seen on a busy CI machine).
    const size = 3 * UPLOAD_MAX;
    const socket = net.connect(Number(new URL(suite.ctx.baseUrl).port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const ended = new Promise<string>((resolve) => {
      socket.once('end', () => resolve('end'));
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    await expectNothingChanged(async () => {
      socket.write(
        `POST ${RELEASE_API_PATH}/blog/builds HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${blogToken}\r\n` +
          `Content-Type: application/gzip\r\nContent-Length: ${size}\r\n\r\n`,
      );
      await new Promise<void>((resolve) => socket.write(randomBytes(size - 1024), () => resolve()));
      // Twice the limit is sent and the rest is not: no answer yet, the server is still reading.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(received).toBe('');
      socket.write(randomBytes(1024));
      expect(await ended).toBe('end');
    });
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toContain('The release archive is larger than 1 MB (RELEASE_UPLOAD_MAX_MB).');
  });

  it.each([
    ['application/octet-stream', 'not application/octet-stream'],
    ['application/zip', 'not application/zip'],
    ['multipart/form-data; boundary=x', 'not multipart/form-data'],
    ['application/json', 'not application/json'],
  ])('sent as %s is refused with 415, and nothing stored', async (contentType, sent) => {
    const archive = await tarball(BLOG_FILES);
    await expectNothingChanged(async () => {
      expectError(
        await send(contentType === 'application/json' ? '{}' : archive, { contentType }),
        415,
        'BAD_ARCHIVE',
        `a release archive (a .tar.gz of the app's dist folder) must be sent as application/gzip or application/x-gzip, ${sent}`,
      );
    });
  });

  it('is taken as application/x-gzip too (what older tools send)', async () => {
    const response = await send(await tarball(BLOG_FILES), { contentType: 'application/x-gzip; charset=binary' });
    expect(response.json()).toMatchObject({ kind: 'publish', build: { created: true, source: 'an upload by ops' } });
  });

  it('for an app the site does not have is refused with 404, and nothing stored', async () => {
    const archive = await tarball(BLOG_FILES);
    await expectNothingChanged(async () => {
      for (const [path, app] of [
        ['/admin/builds', 'admin'],
        ['/..%2Fblog/builds', '../blog'],
        ['/BLOG/builds', 'BLOG'],
      ]) {
        // A token that may release every app: what is refused is the app, not the token.
        const response = await call('POST', path!, { body: archive, contentType: 'application/gzip', token: opsToken });
        expectError(response, 404, 'NOT_FOUND', `There is no app ${JSON.stringify(app)}: the apps are ${APP_NAMES.join(', ')}.`);
      }
      expectError(await call('GET', '/admin', { token: opsToken }), 404, 'NOT_FOUND', `There is no app "admin": the apps are ${APP_NAMES.join(', ')}.`);
      expectError(await call('POST', '/admin/rollback', { token: opsToken }), 404, 'NOT_FOUND', `There is no app "admin": the apps are ${APP_NAMES.join(', ')}.`);
    });
  });
});

describe('a change that meets another', () => {
  afterEach(() => jest.restoreAllMocks());

  it('is refused with 409 and what changed meanwhile; the other change stands', async () => {
    // A kept release the gate lets through.
    const target = (await stage(suite.fixture.context, 'blog', await suite.fixture.buildOf('blog', { label: 'target' }), () => 'https://khvylia.example/')).build.release;
    const before = await blogState();
    expect(before.current?.id).not.toBe(target.id);
    // Between the API reading the state and writing its change, the release command stages a build.
    const check = compat.checkCompatibility;
    let competing = '';
    jest.spyOn(compat, 'checkCompatibility').mockImplementationOnce(async (...args) => {
      const result = await stage(suite.fixture.context, 'blog', await suite.fixture.buildOf('blog', { label: 'meanwhile' }), () => 'https://khvylia.example/');
      competing = result.build.release.id;
      return check(...args);
    });
    const response = await command('/blog/promote', { release: target.id });
    expectError(
      response,
      409,
      'CONCURRENT_CHANGE',
      new RegExp(`^blog's releases are not as this command expects: it is at revision \\d+, not \\d+ \\(staged ${competing} by cli:test@fixture at \\S+\\)\\. Nothing was changed; look at the releases again before deciding\\.$`),
    );
    const after = await blogState();
    expect(after.current?.id).toBe(before.current?.id);
    expect(after.events.at(-1)).toMatchObject({ action: 'staged', release: competing });
    expect(after.events.filter((event) => event.action === 'promoted' && event.release === target.id && Date.parse(event.at) > Date.now() - 60_000)).toEqual([]);
  });
  it('lets a container’s retry with unlessKept=true take on the build its refused upload stored, and never undoes a rollback', async () => {
    const build: FixtureBuild = { label: 'retried-container' };
    const check = compat.checkCompatibility;
    jest.spyOn(compat, 'checkCompatibility').mockImplementationOnce(async (...args) => {
      await stage(suite.fixture.context, 'blog', await suite.fixture.buildOf('blog', { label: 'meanwhile-2' }), () => 'https://khvylia.example/');
      return check(...args);
    });
    const refused = await upload('blog', build, '?unlessKept=true');
    expect([refused.statusCode, refused.json<ErrorBody>().error.code]).toEqual([409, 'CONCURRENT_CHANGE']);
    const before = await blogState();

    // Tried again (the container's entrypoint does): the build its first try stored becomes current.
    const retried = await upload('blog', build, '?unlessKept=true');
    expect(retried.statusCode).toBe(200);
    const result = retried.json<{ kind: string; build: { created: boolean; release: ReleaseRecord } }>();
    expect(result).toMatchObject({ kind: 'publish', build: { created: false } });
    expect((await blogState()).current?.id).toBe(result.build.release.id);
    expect(result.build.release.id).not.toBe(before.current?.id);

    // Rolled back, the container started again leaves it rolled back.
    expect((await command('/blog/rollback')).statusCode).toBe(200);
    await expectNothingChanged(async () => {
      const again = await upload('blog', build, '?unlessKept=true');
      expect(again.json()).toEqual({ kind: 'kept', app: 'blog', release: expect.objectContaining({ id: result.build.release.id }) });
    });
    expect((await blogState()).current?.id).toBe(before.current?.id);
  });
});

describe('a command naming the state it acts on', () => {
  it('is refused without one (400, saying how to name it), and nothing changes', async () => {
    await expectNothingChanged(async () => {
      for (const path of ['/blog/promote', '/blog/rollback', '/blog/abort']) {
        for (const options of [{}, { json: {} }, { json: { release: 'x' } }]) {
          expectError(await call('POST', path, options), 400, 'BAD_REQUEST', /^Name the state this command acts on: \{"expect":\{"revision":<n>\}\} with the revision GET \/api\/releases\/blog answers/);
        }
      }
      // Half a state names too little: a rollback named by its candidate alone would roll back again when repeated.
      for (const expect of [{}, { candidate: null }, { current: 'x' }, 'x', null]) {
        expectError(await call('POST', '/blog/rollback', { json: { expect } }), 400, 'BAD_REQUEST', /^Name the state this command acts on: /);
      }
    });
  });

  it('acts once: the same command sent again after it landed (an answer lost) is refused with the change it made', async () => {
    const before = await blogState();
    const staged = (await upload('blog', { label: 'repeat-me' }, `?action=stage&expectRevision=${before.state.revision}`)).json<{ build: { release: ReleaseRecord } }>().build.release.id;
    const decidedOn = { expect: { revision: await revisionOf(), current: before.current!.id } };
    const first = await call('POST', '/blog/canary', { json: { ...decidedOn, release: staged, share: 20 } });
    expect(first.statusCode).toBe(200);
    await expectNothingChanged(async () => {
      const again = await call('POST', '/blog/canary', { json: { ...decidedOn, release: staged, share: 20 } });
      expectError(again, 409, 'CONCURRENT_CHANGE', new RegExp(`^blog's releases are not as this command expects: it is at revision \\d+, not \\d+ \\(canary ${staged} by token:blog-ci at \\S+\\)\\. Nothing was changed`));
    });
    // Named by its releases: an abort of a candidate that is gone is refused.
    const releases = { current: before.current!.id, candidate: staged };
    const dropped = await call('POST', '/blog/abort', { json: { expect: releases } });
    expect(dropped.statusCode).toBe(200);
    await expectNothingChanged(async () => {
      const late = await call('POST', '/blog/abort', { json: { expect: releases } });
      expectError(late, 409, 'CONCURRENT_CHANGE', new RegExp(`^blog's releases are not as this command expects: its candidate is none, not ${staged} \\(.*aborted ${staged} by token:blog-ci`));
      // A promotion of the current release by its id, on a state that moved on, is refused too (not "already current").
      const stale = await call('POST', '/blog/promote', { json: { expect: { revision: before.state.revision }, release: before.current!.id } });
      expectError(stale, 409, 'CONCURRENT_CHANGE', /^blog's releases are not as this command expects: it is at revision \d+, not \d+ \(staged /);
    });
  });

  it('as an upload, stores nothing on a state that moved on', async () => {
    const revision = await revisionOf();
    expect((await command('/blog/promote', { release: (await blogState()).current!.id })).statusCode).toBe(200);
    await expectNothingChanged(async () => {
      expectError(await upload('blog', { label: 'too-late' }, `?action=publish&expectRevision=${revision - 1}`), 409, 'CONCURRENT_CHANGE', /^blog's releases are not as this command expects: it is at revision/);
    });
  });
});

describe('the log', () => {
  const servers = serverProcesses();
  afterAll(() => servers.stopAll('SIGTERM'));

  it('names the token of every call, and the refusals', async () => {
    // A server process on the same database and store, logging as in production.
    const server = await servers.start({ ...suite.fixture.env, LOG_LEVEL: 'info', LOG_FORMAT: 'json', SITE_URL: TEST_SITE_URL });
    const send = (method: string, path: string, token?: string) =>
      fetch(`${server.baseUrl}${RELEASE_API_PATH}${path}`, { method, headers: token ? { authorization: `Bearer ${token}` } : {} });
    expect((await send('GET', '/blog', blogToken)).status).toBe(200);
    expect((await send('GET', '/forms', blogToken)).status).toBe(403);
    expect((await send('GET', '/blog')).status).toBe(401);
    const entries = () =>
      server
        .stdout()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg?: string; token?: string | null; url?: string; statusCode?: number; app?: string });
    const calls = await eventually('the three calls logged', () => entries().filter((entry) => entry.msg === 'release api call'), (logged) => logged.length >= 3);
    // A call is logged when its response has finished, which may come after the next call began: order is not promised.
    const byStatus = (a: { statusCode?: number }, b: { statusCode?: number }) => (a.statusCode ?? 0) - (b.statusCode ?? 0);
    expect(calls.map(({ token, url, statusCode }) => ({ token, url, statusCode })).sort(byStatus)).toEqual([
      { token: 'blog-ci', url: `${RELEASE_API_PATH}/blog`, statusCode: 200 },
      { token: null, url: `${RELEASE_API_PATH}/blog`, statusCode: 401 },
      { token: 'blog-ci', url: `${RELEASE_API_PATH}/forms`, statusCode: 403 },
    ]);
    expect(entries().find((entry) => entry.msg === 'release api: app not allowed for this token')).toMatchObject({ token: 'blog-ci', app: 'forms' });
    // The token itself is never written.
    expect(server.stdout()).not.toContain(blogToken);
  });
});
