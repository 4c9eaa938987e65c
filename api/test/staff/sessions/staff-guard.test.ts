import type { ApiErrorBody, StaffSession } from '@agency/shared';
import { startTestApp, type TestContext } from '../../helpers/app';
import { joinWithApp, StaffBrowser, type JoinedMember } from '../../helpers/staff';

let ctx: TestContext;
let admin: JoinedMember;
let editor: JoinedMember;
let viewer: JoinedMember;
let releases: JoinedMember;

beforeAll(async () => {
  ctx = await startTestApp();
  admin = await joinWithApp(ctx, 'admin@khvylia.example', 'admin');
  editor = await joinWithApp(ctx, 'editor@khvylia.example', 'editor');
  viewer = await joinWithApp(ctx, 'viewer@khvylia.example', 'viewer');
  releases = await joinWithApp(ctx, 'releases@khvylia.example', 'release_manager', ['blog']);
  // Joining members runs the whole invitation flow; under a loaded CI machine it takes seconds.
}, 30_000);

afterAll(async () => {
  await ctx.close();
});

const codeOf = (body: string) => (JSON.parse(body) as ApiErrorBody).error.code;
const memberCount = async () => (await ctx.db.kysely.selectFrom('staff_invitations').select('token_hash').execute()).length;

describe('the staff guard', () => {
  it('answers 401 in JSON, no-store, to every staff route without a session', async () => {
    const anonymous = new StaffBrowser(ctx);
    for (const [method, path] of [
      ['GET', '/api/staff/session'],
      ['GET', '/api/staff/leads'],
      ['GET', '/api/staff/leads/1'],
      ['GET', '/api/staff/leads/export'],
      ['GET', '/api/staff/members'],
      ['GET', '/api/staff/audit'],
      ['POST', '/api/staff/members/invitations'],
      ['PATCH', '/api/staff/leads/1'],
    ] as const) {
      const response = await anonymous.request(method, path, method === 'GET' ? {} : { json: {} });
      expect([path, response.statusCode]).toEqual([path, 401]);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(codeOf(response.body)).toBe('SIGN_IN_REQUIRED');
    }
  });

  it('refuses a state-changing request without the CSRF token, with another one, or from another origin: 403 and nothing changes', async () => {
    const before = await memberCount();
    const invite = { json: { email: 'new@khvylia.example', role: 'viewer' } };
    for (const options of [{ csrf: null }, { csrf: 'x'.repeat(43) }, { origin: 'https://evil.example' }, { origin: null }, { origin: 'http://khvylia.example' }]) {
      const response = await admin.browser.request('POST', '/api/staff/members/invitations', { ...invite, ...options });
      expect([options, response.statusCode, codeOf(response.body)]).toEqual([options, 403, 'CSRF_REFUSED']);
    }
    expect(await memberCount()).toBe(before);
    expect((await admin.browser.request('POST', '/api/staff/members/invitations', invite)).statusCode).toBe(200);
    expect(await memberCount()).toBe(before + 1);
  });

  it('refuses sign-in requests from another origin too, so no other site signs a browser in', async () => {
    const response = await new StaffBrowser(ctx).request('POST', '/api/staff/sign-in/passkey/options', { origin: 'https://evil.example' });
    expect(response.statusCode).toBe(403);
  });

  it('lets each role do what it may and answers 403 to the rest', async () => {
    const can = async (member: JoinedMember, method: string, path: string, json?: unknown) => (await member.browser.request(method, path, json === undefined ? {} : { json })).statusCode;
    // Everyone reads the inbox and the team.
    for (const member of [viewer, editor, admin]) {
      expect(await can(member, 'GET', '/api/staff/leads')).toBe(200);
      expect(await can(member, 'GET', '/api/staff/members')).toBe(200);
    }
    // Working leads and exporting: editors and admins.
    expect(await can(viewer, 'GET', '/api/staff/leads/export')).toBe(403);
    expect(await can(viewer, 'POST', '/api/staff/leads/spam', { ids: [1] })).toBe(403);
    expect(await can(viewer, 'PATCH', '/api/staff/leads/1', { version: 1, status: 'won' })).toBe(403);
    expect(await can(viewer, 'POST', '/api/staff/leads/1/notes', { text: 'x' })).toBe(403);
    expect(await can(editor, 'GET', '/api/staff/leads/export')).toBe(200);
    // The team and the audit log: admins.
    for (const member of [viewer, editor]) {
      expect(await can(member, 'GET', '/api/staff/audit')).toBe(403);
      expect(await can(member, 'POST', '/api/staff/members/invitations', { email: 'x@khvylia.example', role: 'admin' })).toBe(403);
      expect(await can(member, 'PATCH', `/api/staff/members/${viewer.session.member.id}`, { role: 'admin' })).toBe(403);
      expect(await can(member, 'DELETE', `/api/staff/members/${admin.session.member.id}`)).toBe(403);
    }
    expect(await can(admin, 'GET', '/api/staff/audit')).toBe(200);
    expect((await ctx.db.kysely.selectFrom('staff_members').select('role').where('id', '=', viewer.session.member.id).executeTakeFirstOrThrow()).role).toBe('viewer');
  });

  it('lets a release manager use their own session and account, and answers 403 to every route of leads, content, the team and settings', async () => {
    const id = releases.session.member.id;
    const status = async (method: string, path: string, json?: unknown) => (await releases.browser.request(method, path, json === undefined ? {} : { json })).statusCode;
    for (const [method, path, json] of [
      ['GET', '/api/staff/leads'],
      ['GET', '/api/staff/leads/report'],
      ['GET', '/api/staff/leads/export'],
      ['GET', '/api/staff/leads/1'],
      ['PATCH', '/api/staff/leads/1', { version: 1, status: 'won' }],
      ['POST', '/api/staff/leads/1/notes', { text: 'x' }],
      ['POST', '/api/staff/leads/spam', { ids: [1] }],
      // The team list is for assigning leads: not theirs to read.
      ['GET', '/api/staff/members'],
      ['POST', '/api/staff/members/invitations', { email: 'x@khvylia.example', role: 'release_manager', releaseApps: ['blog'] }],
      ['PATCH', `/api/staff/members/${id}`, { role: 'release_manager', releaseApps: ['blog', 'forms'] }],
      ['GET', `/api/staff/members/${id}/sessions`],
      ['GET', '/api/staff/overview'],
      ['PUT', '/api/staff/overview/weekly-report', { weeklyReport: true }],
      ['GET', '/api/staff/articles'],
      ['GET', '/api/staff/services'],
      ['GET', '/api/staff/audit'],
      ['GET', '/api/staff/backups'],
      ['GET', '/api/staff/spam-settings'],
      ['GET', '/api/staff/follow-up-settings'],
      ['GET', '/api/staff/lead-routing'],
      ['POST', '/api/staff/data-requests/lookup', { subject: 'someone@example.com' }],
    ] as const) {
      const answer = await releases.browser.request(method, path, json === undefined ? {} : { json });
      expect([method, path, answer.statusCode, codeOf(answer.body)]).toEqual([method, path, 403, 'FORBIDDEN']);
    }
    const session = await releases.browser.request('GET', '/api/staff/session');
    expect([session.statusCode, session.json<StaffSession>().member]).toEqual([200, { id, email: releases.email, role: 'release_manager', releaseApps: ['blog'] }]);
    expect(await status('GET', '/api/staff/account/sessions')).toBe(200);
    expect(await status('POST', '/api/staff/account/passkeys/options')).toBe(200);
    expect(await status('POST', '/api/staff/account/totp/setup')).toBe(200);
    expect(await status('POST', '/api/staff/account/recovery-codes')).toBe(200);
    expect((await ctx.db.kysely.selectFrom('staff_members').select(['role', 'release_apps']).where('id', '=', id).executeTakeFirstOrThrow())).toEqual({ role: 'release_manager', release_apps: '["blog"]' });
    expect(await status('POST', '/api/staff/sign-out')).toBe(204);
    expect(await status('GET', '/api/staff/session')).toBe(401);
  });
});
