import type { ApiErrorBody, InvitationAccepted, InvitationInfo, InviteResponse, LeadDetail, LeadRoutingMember, LeadSummary, MemberList, StaffSession, TeamMember, TotpSetupResponse } from '@agency/shared';
import { startTestApp, TEST_SITE_URL, VALID_CONTACT, type TestContext } from '../../helpers/app';
import { asPerson } from '../../helpers/person-submission';
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

describe('release managers', () => {
  /** Accepts the invitation of `link` with an authenticator app, as the console does. */
  async function accept(link: string): Promise<{ browser: StaffBrowser; info: InvitationInfo; accepted: InvitationAccepted }> {
    const token = link.split('#')[1]!;
    const browser = new StaffBrowser(ctx);
    const info = (await browser.request('POST', '/api/staff/invitation', { json: { token } })).json<InvitationInfo>();
    const { challengeId, secret } = (await browser.request('POST', '/api/staff/invitation/totp/setup', { json: { token } })).json<TotpSetupResponse>();
    const answer = await browser.request('POST', '/api/staff/invitation/totp', { json: { token, challengeId, code: totpCode(secret) } });
    expect(answer.statusCode).toBe(200);
    return { browser, info, accepted: answer.json<InvitationAccepted>() };
  }

  const auditOf = async (action: string, target: string) =>
    (await ctx.db.kysely.selectFrom('staff_audit').select('detail').where('action', '=', action).where('target', '=', target).orderBy('seq').execute()).map((row) => JSON.parse(row.detail) as Record<string, unknown>);

  it('are invited with the apps they may release, and join with them', async () => {
    const invited = await admin.browser.request('POST', '/api/staff/members/invitations', { json: { email: 'blog-team@khvylia.example', role: 'release_manager', releaseApps: ['forms', 'blog'] } });
    expect(invited.statusCode).toBe(200);
    expect(await auditOf('invitation-created', 'email:blog-team@khvylia.example')).toEqual([expect.objectContaining({ role: 'release_manager', releaseApps: ['blog', 'forms'] })]);

    const { browser, info, accepted } = await accept(invited.json<InviteResponse>().link);
    // In the apps' own order, whatever order the admin named them in.
    expect(info).toMatchObject({ email: 'blog-team@khvylia.example', role: 'release_manager', releaseApps: ['blog', 'forms'] });
    const member = accepted.session.member;
    expect(member).toEqual({ id: expect.any(Number), email: 'blog-team@khvylia.example', role: 'release_manager', releaseApps: ['blog', 'forms'] });
    expect((await browser.request('GET', '/api/staff/session')).json<StaffSession>().member).toEqual(member);
    expect(await auditOf('invitation-accepted', `member:${member.id}`)).toEqual([expect.objectContaining({ role: 'release_manager', releaseApps: ['blog', 'forms'] })]);
    const listed = (await admin.browser.request('GET', '/api/staff/members')).json<MemberList>();
    expect(listed.find((each) => each.id === member.id)).toMatchObject({ role: 'release_manager', releaseApps: ['blog', 'forms'] });
    // Everyone else holds no apps: an admin sees «Релізи» but is no release manager.
    expect(listed.find((each) => each.id === admin.session.member.id)).toMatchObject({ role: 'admin', releaseApps: [] });
    expect((await admin.browser.request('GET', '/api/staff/session')).json<StaffSession>().member.releaseApps).toEqual([]);
  });

  it('refuses an invitation whose apps do not fit its role, saying why, and stores nothing', async () => {
    const invitations = async () => (await ctx.db.kysely.selectFrom('staff_invitations').select('token_hash').execute()).length;
    const before = await invitations();
    for (const [body, message] of [
      [{ role: 'release_manager' }, 'Виберіть щонайменше один застосунок, релізами якого керуватиме менеджер релізів'],
      [{ role: 'release_manager', releaseApps: [] }, 'Виберіть щонайменше один застосунок, релізами якого керуватиме менеджер релізів'],
      [{ role: 'release_manager', releaseApps: ['blog', 'crm'] }, 'Невідомий застосунок «crm»: можна shell, home, blog, forms, staff'],
      [{ role: 'release_manager', releaseApps: ['blog', 'blog'] }, 'Застосунок «blog» названо двічі'],
      [{ role: 'editor', releaseApps: ['blog'] }, 'Застосунки призначають лише менеджерам релізів'],
      [{ role: 'admin', releaseApps: ['shell'] }, 'Застосунки призначають лише менеджерам релізів'],
    ] as const) {
      const response = await admin.browser.request('POST', '/api/staff/members/invitations', { json: { email: 'refused@khvylia.example', ...body } });
      expect([body, response.statusCode, response.json<ApiErrorBody>().error]).toEqual([body, 400, { code: 'RELEASE_APPS_INVALID', message, fields: { releaseApps: message } }]);
    }
    const notAList = await admin.browser.request('POST', '/api/staff/members/invitations', { json: { email: 'refused@khvylia.example', role: 'release_manager', releaseApps: 'blog' } });
    expect([notAList.statusCode, codeOf(notAList.body)]).toEqual([400, 'VALIDATION_ERROR']);
    expect(await invitations()).toBe(before);
  });

  it('change apps with the sessions kept, and roles with the sessions ended; each audited', async () => {
    const releases = await joinWithApp(ctx, 'forms-team@khvylia.example', 'release_manager', ['forms']);
    const id = releases.session.member.id;
    const change = (json: object) => admin.browser.request('PATCH', `/api/staff/members/${id}`, { json });

    const more = await change({ role: 'release_manager', releaseApps: ['forms', 'blog'] });
    expect([more.statusCode, more.json<TeamMember>()]).toEqual([200, { id, email: releases.email, role: 'release_manager', releaseApps: ['blog', 'forms'] }]);
    // The rights hold from their next request, in the same session.
    expect((await releases.browser.request('GET', '/api/staff/session')).json<StaffSession>().member.releaseApps).toEqual(['blog', 'forms']);
    expect(await auditOf('release-apps-changed', `member:${id}`)).toEqual([{ from: ['forms'], to: ['blog', 'forms'] }]);
    // The same rights again change nothing.
    expect((await change({ role: 'release_manager', releaseApps: ['blog', 'forms'] })).statusCode).toBe(200);
    expect(await auditOf('release-apps-changed', `member:${id}`)).toHaveLength(1);

    for (const json of [{ role: 'release_manager' }, { role: 'release_manager', releaseApps: ['mobile'] }, { role: 'viewer', releaseApps: ['blog'] }]) {
      const refused = await change(json);
      expect([json, refused.statusCode, codeOf(refused.body)]).toEqual([json, 400, 'RELEASE_APPS_INVALID']);
    }
    expect((await releases.browser.request('GET', '/api/staff/session')).statusCode).toBe(200);

    const editor = await change({ role: 'editor' });
    expect(editor.json<TeamMember>()).toEqual({ id, email: releases.email, role: 'editor', releaseApps: [] });
    expect((await releases.browser.request('GET', '/api/staff/session')).statusCode).toBe(401);
    expect((await auditOf('role-changed', `member:${id}`)).at(-1)).toEqual({ from: 'release_manager', to: 'editor', releaseApps: { from: ['blog', 'forms'], to: [] }, sessionsEnded: 1 });
  });

  it('take no leads: made a release manager, an editor leaves the turns of new leads, their open leads and their alerts', async () => {
    const member = await joinWithApp(ctx, 'was-editor@khvylia.example', 'editor');
    const id = member.session.member.id;
    const routing = async () => (await admin.browser.request('GET', '/api/staff/lead-routing')).json<LeadRoutingMember[]>();
    expect((await admin.browser.request('PUT', `/api/staff/lead-routing/${id}`, { json: { kinds: ['contact'], away: false, telegramChatId: '-100123' } })).statusCode).toBe(200);
    expect((await routing()).find((each) => each.id === id)).toMatchObject({ kinds: ['contact'] });
    // Two leads assigned to them: one still open, one won.
    const sent = await Promise.all(
      [1, 2].map(async (n) => {
        const response = await ctx.request('POST', '/api/contact', await asPerson(ctx, 'contact', { ...VALID_CONTACT, name: `Клієнт ${n}`, email: `client.${n}@team.example`, phone: `+380 93 000 00 0${n}`, message: `${VALID_CONTACT.message} (${n})` }));
        expect(response.statusCode).toBe(201);
      }),
    );
    expect(sent).toHaveLength(2);
    const leads = await ctx.db.kysely.selectFrom('leads').select(['id', 'version']).orderBy('id', 'desc').limit(2).execute();
    expect(leads).toHaveLength(2);
    const [open, won] = await Promise.all(
      leads.map(async (lead, index) => {
        const response = await admin.browser.request('PATCH', `/api/staff/leads/${lead.id}`, { json: { version: Number(lead.version), assigneeId: id, status: index === 0 ? 'in_progress' : 'won' } });
        expect([response.statusCode, response.body]).toEqual([200, expect.any(String)]);
        return response.json<LeadSummary>();
      }),
    );

    expect((await admin.browser.request('PATCH', `/api/staff/members/${id}`, { json: { role: 'release_manager', releaseApps: ['home'] } })).statusCode).toBe(200);
    expect((await member.browser.request('GET', '/api/staff/session')).statusCode).toBe(401);
    expect((await auditOf('role-changed', `member:${id}`)).at(-1)).toEqual({ from: 'editor', to: 'release_manager', releaseApps: { from: [], to: ['home'] }, sessionsEnded: 1, leadsUnassigned: 1 });
    // The open lead is nobody's now (a new version, with its history); the won one keeps who won it.
    const openNow = (await admin.browser.request('GET', `/api/staff/leads/${open!.id}`)).json<LeadDetail>();
    expect(openNow).toMatchObject({ assignee: null, version: open!.version + 1 });
    expect(openNow.history.at(-1)).toMatchObject({ change: 'assignee', oldValue: 'was-editor@khvylia.example', newValue: null, actor: 'admin@khvylia.example' });
    expect((await admin.browser.request('GET', `/api/staff/leads/${won!.id}`)).json<LeadDetail>()).toMatchObject({ assignee: { email: 'was-editor@khvylia.example' }, version: won!.version });
    // No overdue alert reaches their chat any more.
    expect(await ctx.db.kysely.selectFrom('staff_members').select('telegram_chat_id').where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ telegram_chat_id: null });
    expect((await routing()).map((each) => each.id)).not.toContain(id);
    expect(await ctx.db.kysely.selectFrom('lead_routing').select('kind').where('member_id', '=', id).execute()).toEqual([]);
    expect((await admin.browser.request('PUT', `/api/staff/lead-routing/${id}`, { json: { kinds: ['contact'], away: false, telegramChatId: null } })).statusCode).toBe(404);
  });
});
