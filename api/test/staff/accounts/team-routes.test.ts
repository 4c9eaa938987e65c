import type { ApiErrorBody, InviteResponse, MemberList } from '@agency/shared';
import { startTestApp, TEST_SITE_URL, type TestContext } from '../../helpers/app';
import { joinWithApp, totpCode, StaffBrowser, type JoinedMember } from '../../helpers/staff';

let ctx: TestContext;
let admin: JoinedMember;

beforeAll(async () => {
  ctx = await startTestApp();
  admin = await joinWithApp(ctx, 'admin@khvylia.example', 'admin');
  // Joining members runs the whole invitation flow; under a loaded CI machine it takes seconds.
}, 30_000);

afterAll(async () => {
  await ctx.close();
});

const codeOf = (body: string) => (JSON.parse(body) as ApiErrorBody).error.code;

describe('the team', () => {
  it('invites with a one-time link whose token is in the fragment, valid 72 hours, usable once', async () => {
    const response = await admin.browser.request('POST', '/api/staff/members/invitations', { json: { email: 'marta@khvylia.example', role: 'editor' } });
    expect(response.statusCode).toBe(200);
    const { link, expiresAt } = response.json<InviteResponse>();
    expect(link).toMatch(new RegExp(`^${TEST_SITE_URL}/staff/invite#[A-Za-z0-9_-]{43}$`));
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(71.9 * 3_600_000);
    const token = link.split('#')[1]!;
    const stored = JSON.stringify(await ctx.db.kysely.selectFrom('staff_invitations').selectAll().execute());
    expect(stored).not.toContain(token);
    const browser = new StaffBrowser(ctx);
    expect((await browser.request('POST', '/api/staff/invitation', { json: { token } })).json()).toMatchObject({ email: 'marta@khvylia.example', role: 'editor' });
    const setup = (await browser.request('POST', '/api/staff/invitation/totp/setup', { json: { token } })).json<{ challengeId: string; secret: string; qrCode: string; uri: string }>();
    expect(setup.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(setup.qrCode.split(',')[1]!, 'base64').toString()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="240" height="240" /);
    expect(setup.uri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    // A mistyped code may be tried again on the same setup.
    expect((await browser.request('POST', '/api/staff/invitation/totp', { json: { token, challengeId: setup.challengeId, code: totpCode(setup.secret, 7) } })).statusCode).toBe(400);
    expect((await browser.request('POST', '/api/staff/invitation/totp', { json: { token, challengeId: setup.challengeId, code: totpCode(setup.secret) } })).statusCode).toBe(200);
    const reuse = await new StaffBrowser(ctx).request('POST', '/api/staff/invitation', { json: { token } });
    expect(reuse.statusCode).toBe(404);
    expect(codeOf(reuse.body)).toBe('INVITATION_INVALID');
  });

  it('refuses an expired invitation', async () => {
    const response = await admin.browser.request('POST', '/api/staff/members/invitations', { json: { email: 'late@khvylia.example', role: 'viewer' } });
    const token = response.json<InviteResponse>().link.split('#')[1]!;
    await ctx.db.kysely.updateTable('staff_invitations').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('email', '=', 'late@khvylia.example').execute();
    expect((await new StaffBrowser(ctx).request('POST', '/api/staff/invitation/totp/setup', { json: { token } })).statusCode).toBe(404);
  });

  it('ends every session of someone whose role changes: their next request answers 401', async () => {
    const member = await joinWithApp(ctx, 'role@khvylia.example', 'viewer');
    const changed = await admin.browser.request('PATCH', `/api/staff/members/${member.session.member.id}`, { json: { role: 'editor' } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ role: 'editor' });
    expect((await member.browser.request('GET', '/api/staff/leads')).statusCode).toBe(401);
    const again = new StaffBrowser(ctx);
    await again.request('POST', '/api/staff/sign-in/code', { json: { email: member.email, code: totpCode(member.secret, 1) } });
    expect((await again.request('GET', '/api/staff/leads/export')).statusCode).toBe(200);
  });

  it('removes someone: their sessions end and they cannot sign in again', async () => {
    const member = await joinWithApp(ctx, 'leaving@khvylia.example', 'editor');
    expect((await admin.browser.request('DELETE', `/api/staff/members/${member.session.member.id}`)).statusCode).toBe(204);
    expect((await member.browser.request('GET', '/api/staff/session')).statusCode).toBe(401);
    const signIn = await new StaffBrowser(ctx).request('POST', '/api/staff/sign-in/recovery', { json: { email: member.email, code: member.recoveryCodes[0] } });
    expect(signIn.statusCode).toBe(401);
    const members = (await admin.browser.request('GET', '/api/staff/members')).json<MemberList>();
    expect(members.map((each) => each.email)).not.toContain(member.email);
  });

  it('ends one session of someone else for an admin', async () => {
    const member = await joinWithApp(ctx, 'lost-phone@khvylia.example', 'viewer');
    const [session] = (await admin.browser.request('GET', `/api/staff/members/${member.session.member.id}/sessions`)).json<{ id: string }[]>();
    expect((await admin.browser.request('DELETE', `/api/staff/sessions/${session!.id}`)).statusCode).toBe(204);
    expect((await member.browser.request('GET', '/api/staff/session')).statusCode).toBe(401);
    const audit = await ctx.db.kysely.selectFrom('staff_audit').select(['action', 'target']).where('action', '=', 'session-ended').execute();
    expect(audit).toContainEqual({ action: 'session-ended', target: `member:${member.session.member.id}` });
  });

  it('never removes or demotes the last admin, even two admins demoting each other at once', async () => {
    const only = await admin.browser.request('PATCH', `/api/staff/members/${admin.session.member.id}`, { json: { role: 'viewer' } });
    expect(only.statusCode).toBe(409);
    expect(codeOf(only.body)).toBe('LAST_ADMIN');
    expect((await admin.browser.request('DELETE', `/api/staff/members/${admin.session.member.id}`)).statusCode).toBe(409);

    const second = await joinWithApp(ctx, 'second-admin@khvylia.example', 'admin');
    const [a, b] = await Promise.all([
      admin.browser.request('PATCH', `/api/staff/members/${second.session.member.id}`, { json: { role: 'viewer' } }),
      second.browser.request('PATCH', `/api/staff/members/${admin.session.member.id}`, { json: { role: 'viewer' } }),
    ]);
    // One wins; the other is refused as the last admin, or finds its own session ended by the first.
    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses[0]).toBe(200);
    expect([401, 409]).toContain(statuses[1]);
    const admins = await ctx.db.kysely.selectFrom('staff_members').select('id').where('role', '=', 'admin').where('removed_at', 'is', null).execute();
    expect(admins).toHaveLength(1);
  });
});
