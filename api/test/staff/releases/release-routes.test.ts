import { APP_NAMES, PREVIEW_QUERY_PARAM, type StaffReleaseChanged, type StaffReleaseDetail, type StaffReleases } from '@agency/shared';
import { SourceMapGenerator } from 'source-map';
import { TelemetryRecorder } from '../../../src/delivery/health/telemetry-recorder';
import { abort, canary, stage } from '../../../src/delivery/releases/commands';
import { loadAppReleases } from '../../../src/delivery/releases/release-repository';
import { STAFF_MESSAGES } from '../../../src/staff/common/staff-messages';
import type { HttpResponse } from '../../helpers/http';
import { publishFixture, setUpReleaseSuite } from '../../helpers/releases';
import { joinWithApp, type JoinedMember } from '../../helpers/staff';
import { browserError } from '../../helpers/telemetry';

// «Релізи» over real HTTP on a real server and database: release managers and admins read every
// app's releases and their health; a release manager for the blog changes the blog's releases
// (and nothing else) with the release commands, each naming the state it was decided on. A
// refused change leaves every row of the releases' tables as it was.
jest.setTimeout(60_000);

const suite = setUpReleaseSuite();

let manager: JoinedMember;
let admin: JoinedMember;
let viewer: JoinedMember;
let older = '';
let current = '';
let formsCurrent = '';

const MANAGER_EMAIL = 'rm-blog@khvylia.example';
const STAFF_ACTOR = `staff:${MANAGER_EMAIL}`;

beforeAll(async () => {
  const { fixture, ctx } = suite;
  older = await publishFixture(fixture, 'blog', { label: 'older' });
  current = await publishFixture(fixture, 'blog', { label: 'current' });
  formsCurrent = await publishFixture(fixture, 'forms', { label: 'forms-current' });
  manager = await joinWithApp(ctx, MANAGER_EMAIL, 'release_manager', ['blog']);
  admin = await joinWithApp(ctx, 'owner@khvylia.example', 'admin');
  viewer = await joinWithApp(ctx, 'viewer@khvylia.example', 'viewer');
});

interface ErrorBody {
  error: { code: string; message: string };
}

function expectError(response: HttpResponse, status: number, code: string, message: string | RegExp): void {
  expect({ status: response.statusCode, code: response.json<ErrorBody>().error.code }).toEqual({ status, code });
  expect(response.json<ErrorBody>().error.message).toMatch(typeof message === 'string' ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : message);
}

async function overview(member: JoinedMember): Promise<StaffReleases> {
  const response = await member.browser.request('GET', '/api/staff/releases');
  expect(response.statusCode).toBe(200);
  return response.json<StaffReleases>();
}

const blogOf = async (member: JoinedMember = manager) => (await overview(member)).apps.find((app) => app.app === 'blog')!;

/** A change as the console sends it, from the blog's revision now unless `expect` is given. */
async function act(path: string, body: object = {}, member: JoinedMember = manager, app = 'blog'): Promise<HttpResponse> {
  const expect = 'expect' in body ? {} : { expect: { revision: (await loadAppReleases(suite.ctx.db, app)).state.revision } };
  return member.browser.request('POST', `/api/staff/releases/${app}/${path}`, { json: { ...expect, ...body } });
}

async function changed(path: string, body: object = {}): Promise<StaffReleaseChanged> {
  const response = await act(path, body);
  expect({ status: response.statusCode, body: response.statusCode === 200 ? '' : response.body }).toEqual({ status: 200, body: '' });
  return response.json<StaffReleaseChanged>();
}

/** Every row of the releases' tables, and the audit log: what a refused change must leave as it was. */
async function snapshot(): Promise<Record<string, string[]>> {
  const { kysely } = suite.ctx.db;
  const rows: Record<string, string[]> = {};
  for (const table of ['releases', 'release_apps', 'release_events', 'release_revision', 'staff_audit'] as const) {
    rows[table] = (await kysely.selectFrom(table).selectAll().execute()).map((row) => JSON.stringify(row)).sort();
  }
  return rows;
}

async function expectNothingChanged(refused: () => Promise<void>): Promise<void> {
  const before = await snapshot();
  await refused();
  expect(await snapshot()).toEqual(before);
}

const lastEvent = async () => (await loadAppReleases(suite.ctx.db, 'blog')).events.at(-1);

/** A kept blog release never made current nor staged: published for preview by the release command, its event the CLI's. */
async function keptRelease(label: string, files?: Record<string, string>): Promise<string> {
  const { fixture } = suite;
  return (await stage(fixture.context, 'blog', await fixture.buildOf('blog', { label, files }), () => 'https://khvylia.example/')).build.release.id;
}

describe('who may read and act', () => {
  it('lets release managers and admins read «Релізи», and nobody else', async () => {
    for (const member of [manager, admin]) {
      expect((await member.browser.request('GET', '/api/staff/releases')).statusCode).toBe(200);
      expect((await member.browser.request('GET', '/api/staff/releases/blog')).statusCode).toBe(200);
    }
    for (const path of ['/api/staff/releases', '/api/staff/releases/blog']) {
      expectError(await viewer.browser.request('GET', path), 403, 'FORBIDDEN', STAFF_MESSAGES.forbidden);
    }
    expect((await overview(manager)).mayAct).toEqual(['blog']);
    expect((await overview(admin)).mayAct).toEqual([]);
    expect((await admin.browser.request('GET', '/api/staff/releases/blog')).json<StaffReleaseDetail>().mayAct).toBe(false);
    expect((await manager.browser.request('GET', '/api/staff/releases/blog')).json<StaffReleaseDetail>().mayAct).toBe(true);
    expect((await manager.browser.request('GET', '/api/staff/releases/forms')).json<StaffReleaseDetail>().mayAct).toBe(false);
    expectError(await manager.browser.request('GET', '/api/staff/releases/nope'), 404, 'NOT_FOUND', STAFF_MESSAGES.appNotFound);
  });

  it("refuses a change of another app's releases with 403 naming the app, whatever its body", async () => {
    await expectNothingChanged(async () => {
      for (const [path, body] of [
        ['rollback', {}],
        ['promote', { release: formsCurrent }],
        ['abort', {}],
        ['canary', { release: formsCurrent, share: 10 }],
        ['stage', { release: formsCurrent }],
        // Forged: no expectation, unknown fields.
        ['rollback', { expect: undefined, extra: true }],
      ] as const) {
        expectError(await act(path, body, manager, 'forms'), 403, 'FORBIDDEN', STAFF_MESSAGES.releasesNotYours('forms'));
      }
    });
  });

  it('keeps admins read-only: every change is 403, naming the app', async () => {
    await expectNothingChanged(async () => {
      expectError(await act('promote', { release: older }, admin), 403, 'FORBIDDEN', STAFF_MESSAGES.releasesReadOnly('blog'));
      expectError(await act('rollback', {}, admin), 403, 'FORBIDDEN', STAFF_MESSAGES.releasesReadOnly('blog'));
      expectError(await act('rollback', {}, viewer), 403, 'FORBIDDEN', STAFF_MESSAGES.forbidden);
    });
  });

  it('needs the session’s CSRF token for a change', async () => {
    await expectNothingChanged(async () => {
      const response = await manager.browser.request('POST', '/api/staff/releases/blog/rollback', { json: { expect: { revision: 0 } }, csrf: null });
      expectError(response, 403, 'CSRF_REFUSED', STAFF_MESSAGES.csrf);
    });
  });
});

describe('every app', () => {
  it('lists each app with its revision, current, previous, candidate, staged and other kept releases', async () => {
    const staged = await keptRelease('listed-staged');
    const { apps } = await overview(admin);
    expect(apps.map((app) => app.app)).toEqual([...APP_NAMES]);
    const blog = apps.find((app) => app.app === 'blog')!;
    const stored = await loadAppReleases(suite.ctx.db, 'blog');
    expect(blog).toMatchObject({
      app: 'blog',
      remote: true,
      revision: stored.state.revision,
      current: { id: current, version: expect.any(String), revision: 'f1x7ure', builtAt: expect.any(String), publishedAt: expect.any(String), publishedBy: 'cli:test@fixture' },
      previous: { id: older },
      candidate: null,
      staged: [{ id: staged }],
      kept: [],
    });
    expect(apps.find((app) => app.app === 'shell')).toMatchObject({ remote: false, current: null, previous: null, candidate: null, staged: [], kept: [] });
    expect(apps.find((app) => app.app === 'forms')?.current?.id).toBe(formsCurrent);
  });
});

describe('changes from the console', () => {
  it('stages a kept release and answers with its preview link and the new state', async () => {
    const { fixture } = suite;
    // Published as a canary's candidate and dropped: kept, never current, not staged.
    await canary(fixture.context, 'blog', { build: await fixture.buildOf('blog', { label: 'to-stage' }), share: 5, minViews: 100, promoteAfter: null });
    const id = (await loadAppReleases(suite.ctx.db, 'blog')).candidate!.id;
    await abort(fixture.context, 'blog');
    expect((await blogOf()).kept.map((release) => release.id)).toContain(id);

    const answer = await changed('stage', { release: id });
    expect(answer.previewUrl).toMatch(new RegExp(`^https://khvylia\\.example/\\?${PREVIEW_QUERY_PARAM}=`));
    expect(answer.state.staged.map((release) => release.id)).toContain(id);
    expect(answer.state.kept.map((release) => release.id)).not.toContain(id);
    expect(answer.state).toEqual(await blogOf());
    expect(await lastEvent()).toMatchObject({ release: id, action: 'staged', actor: STAFF_ACTOR });
  });

  it('starts a canary at a share, changes its share keeping its rules, promotes it, rolls back, and aborts another', async () => {
    const candidate = await keptRelease('console-candidate');

    const started = await changed('canary', { release: candidate, share: 10, minViews: 40 });
    expect(started.state.candidate).toMatchObject({ id: candidate, share: 10, minViews: 40, promoteAfter: null, release: { id: candidate } });
    expect(await lastEvent()).toMatchObject({ release: candidate, action: 'canary', actor: STAFF_ACTOR, reason: '10 % of visitors, judged after 40 page views, promoted by hand' });

    const wider = await changed('canary', { release: candidate, share: 25 });
    expect(wider.state.candidate).toMatchObject({ id: candidate, share: 25, minViews: 40, promoteAfter: null, since: started.state.candidate!.since });
    expect(wider.state.revision).toBe(started.state.revision + 1);

    const promoted = await changed('promote');
    expect(promoted.state).toMatchObject({ current: { id: candidate }, previous: { id: current }, candidate: null });
    expect(promoted.done).toBe(`blog release ${candidate} is now current (was ${current})`);
    expect(await lastEvent()).toMatchObject({ release: candidate, action: 'promoted', actor: STAFF_ACTOR, reason: 'promoted by hand' });

    const rolledBack = await changed('rollback');
    expect(rolledBack.state.current?.id).toBe(current);
    expect(await lastEvent()).toMatchObject({ release: candidate, action: 'rolled_back', actor: STAFF_ACTOR, reason: `rolled back by hand to ${current}` });

    const another = await keptRelease('console-aborted');
    await changed('canary', { release: another, share: 50 });
    const aborted = await changed('abort');
    expect(aborted.state).toMatchObject({ current: { id: current }, candidate: null });
    expect(await lastEvent()).toMatchObject({ release: another, action: 'aborted', actor: STAFF_ACTOR, reason: 'dropped by hand' });

    const audit = await suite.ctx.db.kysely
      .selectFrom('staff_audit')
      .select(['actor', 'action', 'target', 'detail'])
      .where('action', 'like', 'release-%')
      .orderBy('seq')
      .execute();
    expect(audit.slice(-6).map(({ actor, action, target }) => ({ actor, action, target }))).toEqual(
      ['release-canary', 'release-canary', 'release-promoted', 'release-rolled-back', 'release-canary', 'release-aborted'].map((action) => ({ actor: MANAGER_EMAIL, action, target: 'releases:blog' })),
    );
    expect(JSON.parse(audit.at(-6)!.detail)).toMatchObject({ release: candidate, share: 10, minViews: 40, expect: { revision: expect.any(Number) } });
  });

  it('promotes a named kept release', async () => {
    const answer = await changed('promote', { release: older });
    expect(answer.state.current?.id).toBe(older);
    await changed('promote', { release: current });
    expect((await blogOf()).current?.id).toBe(current);
  });

  it('refuses a change decided on a state that moved on with what changed, and changes nothing', async () => {
    const seen = await blogOf();
    // Another tab (or the command line) changed the blog meanwhile.
    await changed('promote', { release: older });
    await expectNothingChanged(async () => {
      const response = await act('promote', { release: current, expect: { revision: seen.revision } });
      expectError(response, 409, 'CONCURRENT_CHANGE', new RegExp(`promoted ${older} by ${STAFF_ACTOR}`));
      expectError(await act('rollback', { expect: { current, candidate: null } }), 409, 'CONCURRENT_CHANGE', /its current release is /);
    });
    expect((await blogOf()).current?.id).toBe(older);
    await changed('promote', { release: current });
  });

  it("refuses what the command refuses with the command's own message", async () => {
    await expectNothingChanged(async () => {
      expectError(await act('abort'), 409, 'REFUSED', 'blog has no candidate to drop.');
      expectError(await act('promote', { release: 'no-such-release' }), 409, 'REFUSED', /^There is no blog release no-such-release\. Kept releases: /);
    });
  });

  it('needs the state the change acts on, and a valid body', async () => {
    await expectNothingChanged(async () => {
      for (const body of [{ expect: undefined }, { expect: {} }, { expect: { revision: -1 } }]) {
        expect((await act('rollback', body)).statusCode).toBe(400);
      }
      expect((await act('canary', { release: older, share: 0 })).statusCode).toBe(400);
      expect((await act('canary', { release: older, share: 101 })).statusCode).toBe(400);
    });
  });
});

describe("an app's health", () => {
  const CHUNK = 'chunk.0123abcd45.js';

  function teaserMap(): string {
    const generator = new SourceMapGenerator({ file: CHUNK });
    generator.addMapping({ generated: { line: 1, column: 20 }, original: { line: 14, column: 10 }, source: 'webpack://agency_blog/./src/features/blog-teaser/BlogTeaser.tsx' });
    return generator.toString();
  }

  it("reports a broken candidate's errors, with their source, beside the current release's, over time, with the canary's verdict and the history", async () => {
    const broken = await keptRelease('broken', { [CHUNK]: 'x', [`${CHUNK}.map`]: teaserMap() });
    await changed('canary', { release: broken, share: 20 });
    try {
      const recorder = new TelemetryRecorder(suite.ctx.db, (error) => {
        throw error;
      });
      const onPage = (blog: string) => ({ page: '/blog/:postId', releases: { shell: 'dist', blog } });
      const stack = `TypeError: posts is undefined\n    at Teaser (http://127.0.0.1:8080/remotes/blog/${broken}/${CHUNK}:1:25)`;
      recorder.record({
        page_views: [onPage(broken), onPage(broken), onPage(current), onPage(current), onPage(current)],
        vitals: [{ name: 'LCP', value: 2100, ...onPage(broken) }],
        errors: [
          browserError({ kind: 'boundary', app: 'blog', release: broken, page: '/blog/:postId', message: 'TypeError: posts is undefined', stack, count: 4 }),
          browserError({ kind: 'load_failure', app: 'blog', release: broken, message: 'Loading chunk 7 failed' }),
          browserError({ kind: 'uncaught', app: 'blog', release: current, message: 'rare old bug' }),
        ],
      });
      await recorder.flush();

      const response = await admin.browser.request('GET', '/api/staff/releases/blog?since=6h');
      expect(response.statusCode).toBe(200);
      const detail = response.json<StaffReleaseDetail>();
      expect(detail.state).toMatchObject({ app: 'blog', current: { id: current }, candidate: { id: broken, share: 20 } });
      const byId = Object.fromEntries(detail.status.releases.map((release) => [release.id, release]));
      expect(byId[broken]).toMatchObject({
        candidate: true,
        share: 20,
        page_views: 2,
        errors: 4,
        load_failures: 1,
        top_errors: [
          { message: 'TypeError: posts is undefined', kind: 'boundary', count: 4, source: 'mfe-blog/src/features/blog-teaser/BlogTeaser.tsx:14:11' },
          { message: 'Loading chunk 7 failed', kind: 'load_failure', count: 1, source: null },
        ],
      });
      expect(byId[current]).toMatchObject({ current: true, candidate: false, page_views: 3, errors: 1, top_errors: [{ message: 'rare old bug', count: 1 }] });

      // Over time: the window in buckets, the candidate's line and the current's side by side.
      const { series } = detail;
      expect(series.bucketMinutes).toBe(10);
      expect(series.buckets.length).toBeGreaterThanOrEqual(36);
      expect(series.buckets.length).toBeLessThanOrEqual(37);
      const lineOf = (id: string) => series.releases.find((line) => line.id === id)!;
      const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
      expect({ views: sum(lineOf(broken).pageViews), errors: sum(lineOf(broken).errors), loadFailures: sum(lineOf(broken).loadFailures) }).toEqual({ views: 2, errors: 4, loadFailures: 1 });
      expect({ views: sum(lineOf(current).pageViews), errors: sum(lineOf(current).errors), loadFailures: sum(lineOf(current).loadFailures) }).toEqual({ views: 3, errors: 1, loadFailures: 0 });
      for (const line of series.releases) expect(line.pageViews).toHaveLength(series.buckets.length);
      expect(lineOf(broken).lcpP75Ms.filter((value) => value !== null)).toEqual([expect.any(Number)]);
      expect(series.releases.map((line) => line.id)).not.toContain(older);

      // The canary: its share, rules and verdict, and the evidence the verdict is taken from.
      expect(detail.status.canary).toMatchObject({ release: broken, share: 20, min_views: 100, promote_after: null, verdict: { action: 'wait', reason: '0 of 100 page views before it is judged' } });
      expect(detail.evidence).toMatchObject({ candidate: { id: broken, judged_page_views: 0 }, current: { id: current } });
      expect(detail.status.events.at(-1)).toMatchObject({ release: broken, action: 'canary', actor: STAFF_ACTOR });
    } finally {
      await changed('abort');
    }
  });

  it('takes a window as a duration, and refuses any other', async () => {
    expect((await admin.browser.request('GET', '/api/staff/releases/blog?since=1h')).json<StaffReleaseDetail>().series.bucketMinutes).toBe(1);
    expect((await admin.browser.request('GET', '/api/staff/releases/blog?since=7d')).json<StaffReleaseDetail>().series.bucketMinutes).toBe(180);
    for (const since of ['yesterday', '0m', '31d', '1.5h']) {
      expectError(await admin.browser.request('GET', `/api/staff/releases/blog?since=${since}`), 400, 'BAD_REQUEST', STAFF_MESSAGES.releaseWindowInvalid);
    }
  });
});
