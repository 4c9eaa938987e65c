import { REMOTE_OVERRIDE_COOKIE, type RemoteOverrideState } from '@agency/shared';
import { STAFF_MESSAGES } from '../../../src/staff/common/staff-messages';
import { eventually } from '../../helpers/eventually';
import type { HttpResponse } from '../../helpers/http';
import { publishFixture, setUpReleaseSuite } from '../../helpers/releases';
import { joinWithApp, StaffBrowser, type JoinedMember } from '../../helpers/staff';

// Setting a browser's override of a remote is a staff action: a signed-in release manager of that
// app, with the console's Origin and CSRF token, on a kept release or a port. Nobody else, and no
// link or form of another site, can set it; each is refused before any cookie is set.

const suite = setUpReleaseSuite();

let release: string;
let blogManager: JoinedMember;

const overrideCookieOf = (response: HttpResponse) => response.headers['set-cookie']?.find((line) => line.startsWith(`${REMOTE_OVERRIDE_COOKIE}=`));

/** A refusal: its status and code, and no override cookie. */
function expectRefused(response: HttpResponse, status: number, code: string, message?: string): void {
  expect([response.statusCode, response.json<{ error: { code: string } }>().error.code]).toEqual([status, code]);
  if (message) expect(response.json<{ error: { message: string } }>().error.message).toBe(message);
  expect(overrideCookieOf(response)).toBeUndefined();
}

beforeAll(async () => {
  release = await publishFixture(suite.fixture, 'blog', { label: 'v1' });
  await eventually('the blog release to reach the server', async () => (await suite.ctx.request('GET', '/remotes.json')).json<{ remotes: { blog: { release: string } } }>().remotes.blog.release, (id) => id === release);
  blogManager = await joinWithApp(suite.ctx, 'blog-team@khvylia.example', 'release_manager', ['blog']);
});

describe('setting an override', () => {
  it('sets it for a kept release of an app the member may act on, audited', async () => {
    const response = await blogManager.browser.request('POST', '/api/staff/releases/blog/override', { json: { release } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json<RemoteOverrideState>().override).toMatchObject({ app: 'blog', release, port: null });
    expect(overrideCookieOf(response)).toBeDefined();
    const audit = await suite.ctx.db.kysely.selectFrom('staff_audit').select(['actor', 'target', 'detail']).where('action', '=', 'remote-override-set').execute();
    expect(audit.map(({ actor, target, detail }) => ({ actor, target, detail: typeof detail === 'string' ? JSON.parse(detail) : detail }))).toContainEqual({
      actor: 'blog-team@khvylia.example',
      target: 'releases:blog',
      detail: { release },
    });
  });

  it.each([1024, 5173, 65_535])('sets it for a build on port %i', async (port) => {
    const response = await blogManager.browser.request('POST', '/api/staff/releases/blog/override', { json: { port } });
    expect(response.statusCode).toBe(200);
    expect(response.json<RemoteOverrideState>().override).toMatchObject({ app: 'blog', release: null, port });
  });

  it.each([
    ['port 1023', { port: 1023 }],
    ['port 65536', { port: 65_536 }],
    ['a port as text', { port: '5173' }],
    ['both', { release: 'x', port: 5173 }],
    ['neither', {}],
  ])('refuses %s', async (_name, body) => {
    const response = await blogManager.browser.request('POST', '/api/staff/releases/blog/override', { json: body });
    expect(response.statusCode).toBe(400);
    expect(overrideCookieOf(response)).toBeUndefined();
  });

  it('refuses a release that is not kept', async () => {
    const response = await blogManager.browser.request('POST', '/api/staff/releases/blog/override', { json: { release: '0.0.1-0000000-20200101T000000Z' } });
    expectRefused(response, 404, 'NOT_FOUND', STAFF_MESSAGES.overrideReleaseNotKept('blog'));
  });

  it('refuses the console itself and apps that are no remote', async () => {
    const staffApp = await blogManager.browser.request('POST', '/api/staff/releases/staff/override', { json: { port: 5173 } });
    expectRefused(staffApp, 404, 'NOT_FOUND', STAFF_MESSAGES.overrideNotARemote('staff'));
    expectRefused(await blogManager.browser.request('POST', '/api/staff/releases/shell/override', { json: { port: 5173 } }), 404, 'NOT_FOUND');
  });

  it("refuses (403) an app the member may not act on, and an admin, who reads «Релізи» only", async () => {
    const formsManager = await joinWithApp(suite.ctx, 'forms-team@khvylia.example', 'release_manager', ['forms']);
    expectRefused(await formsManager.browser.request('POST', '/api/staff/releases/blog/override', { json: { release } }), 403, 'FORBIDDEN', STAFF_MESSAGES.releasesNotYours('blog'));
    const admin = await joinWithApp(suite.ctx, 'owner@khvylia.example', 'admin');
    expectRefused(await admin.browser.request('POST', '/api/staff/releases/blog/override', { json: { release } }), 403, 'FORBIDDEN', STAFF_MESSAGES.releasesReadOnly('blog'));
    const editor = await joinWithApp(suite.ctx, 'editor@khvylia.example', 'editor');
    expectRefused(await editor.browser.request('POST', '/api/staff/releases/blog/override', { json: { release } }), 403, 'FORBIDDEN', STAFF_MESSAGES.forbidden);
  });

  it('refuses (401) a browser without a session', async () => {
    expectRefused(await new StaffBrowser(suite.ctx).request('POST', '/api/staff/releases/blog/override', { json: { release } }), 401, 'SIGN_IN_REQUIRED');
    expectRefused(await new StaffBrowser(suite.ctx).request('GET', '/api/staff/releases/override'), 401, 'SIGN_IN_REQUIRED');
  });

  it('refuses (403) a request without the CSRF token or from another origin: what another site’s form or script would send', async () => {
    const request = (options: { origin?: string | null; csrf?: string | null }) => blogManager.browser.request('POST', '/api/staff/releases/blog/override', { json: { release }, ...options });
    expectRefused(await request({ csrf: null }), 403, 'CSRF_REFUSED');
    expectRefused(await request({ csrf: 'not-the-token' }), 403, 'CSRF_REFUSED');
    expectRefused(await request({ origin: 'https://evil.example' }), 403, 'CSRF_REFUSED');
    expectRefused(await request({ origin: null }), 403, 'CSRF_REFUSED');
  });

  it('cannot be set by a link: a GET sets nothing', async () => {
    for (const query of [`?release=${release}`, '?port=5173']) {
      const response = await blogManager.browser.request('GET', `/api/staff/releases/blog/override${query}`);
      expect(response.statusCode).toBe(404);
      expect(overrideCookieOf(response)).toBeUndefined();
    }
    const page = await suite.ctx.request('GET', `/?override=blog&release=${release}`, { headers: { 'sec-fetch-mode': 'navigate' } });
    expect(overrideCookieOf(page)).toBeUndefined();
  });
});

describe("the browser's override, as the console reads and ends it", () => {
  const withCookie = (cookie: string) => ({ headers: { cookie: `${cookie}` } });

  it('reads what this browser holds, and ends it', async () => {
    const set = await blogManager.browser.request('POST', '/api/staff/releases/blog/override', { json: { port: 5173 } });
    const cookie = overrideCookieOf(set)!.split(';')[0]!;
    // The helper's browser sends its session cookie only: the override cookie is added by hand, as the browser would.
    const read = await blogManager.browser.request('GET', '/api/staff/releases/override', { headers: { cookie } });
    expect(read.statusCode).toBe(200);
    expect(read.json<RemoteOverrideState>()).toEqual(set.json<RemoteOverrideState>());
    expect((await blogManager.browser.request('GET', '/api/staff/releases/override')).json<RemoteOverrideState>()).toEqual({ override: null });

    // Another member's browser does not own it.
    const other = await joinWithApp(suite.ctx, 'second-blog@khvylia.example', 'release_manager', ['blog']);
    expect((await other.browser.request('GET', '/api/staff/releases/override', withCookie(cookie))).json<RemoteOverrideState>()).toEqual({ override: null });

    const ended = await blogManager.browser.request('DELETE', '/api/staff/releases/blog/override', withCookie(cookie));
    expect(ended.statusCode).toBe(200);
    expect(ended.json<RemoteOverrideState>()).toEqual({ override: null });
    expect(overrideCookieOf(ended)).toMatch(/^agency_override=; Max-Age=0;/);
  });

  it("leaves an override of another app when ending this app's", async () => {
    const homeManager = await joinWithApp(suite.ctx, 'both@khvylia.example', 'release_manager', ['blog', 'home']);
    const set = await homeManager.browser.request('POST', '/api/staff/releases/home/override', { json: { port: 8081 } });
    const cookie = overrideCookieOf(set)!.split(';')[0]!;
    const ended = await homeManager.browser.request('DELETE', '/api/staff/releases/blog/override', withCookie(cookie));
    expect(ended.json<RemoteOverrideState>()).toEqual(set.json<RemoteOverrideState>());
    expect(overrideCookieOf(ended)).toBeUndefined();
  });

  it('refuses (403) ending one without the CSRF token', async () => {
    expectRefused(await blogManager.browser.request('DELETE', '/api/staff/releases/blog/override', { csrf: null }), 403, 'CSRF_REFUSED');
  });
});
