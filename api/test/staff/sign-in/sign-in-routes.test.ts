import type { ApiErrorBody, StaffSession } from '@agency/shared';
import { startTestApp, type TestContext } from '../../helpers/app';
import { joinWithApp, StaffBrowser, totpCode, type JoinedMember } from '../../helpers/staff';

let ctx: TestContext;
let admin: JoinedMember;

beforeAll(async () => {
  ctx = await startTestApp();
  admin = await joinWithApp(ctx, 'Admin@Khvylia.example', 'admin');
  // Joining members runs the whole invitation flow; under a loaded CI machine it takes seconds.
}, 30_000);

afterAll(async () => {
  await ctx.close();
});

const errorOf = (body: string) => JSON.parse(body) as ApiErrorBody;

async function auditActions(): Promise<string[]> {
  const rows = await ctx.db.kysely.selectFrom('staff_audit').select('action').orderBy('seq').execute();
  return rows.map((row) => row.action);
}

describe('accepting an invitation with an authenticator app', () => {
  it('signs the person in with their role, an app and ten one-time recovery codes', async () => {
    expect(admin.session.member).toEqual({ id: expect.any(Number), email: 'admin@khvylia.example', role: 'admin', releaseApps: [] });
    expect(admin.session).toMatchObject({ totp: true, passkeys: 0, recoveryCodesLeft: 10 });
    expect(admin.recoveryCodes).toHaveLength(10);
    expect(new Set(admin.recoveryCodes).size).toBe(10);
    for (const code of admin.recoveryCodes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const session = await admin.browser.request('GET', '/api/staff/session');
    expect(session.statusCode).toBe(200);
    expect(session.json<StaffSession>().member.email).toBe('admin@khvylia.example');
  });

  it('stores the recovery codes as hashes only', async () => {
    const stored = JSON.stringify(await ctx.db.kysely.selectFrom('staff_recovery_codes').selectAll().execute());
    for (const code of admin.recoveryCodes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace('-', ''));
    }
  });

  it('sets an HttpOnly, SameSite=Strict session cookie for the staff API alone, and answers no-store', async () => {
    const browser = new StaffBrowser(ctx);
    const response = await browser.request('POST', '/api/staff/sign-in/code', { json: { email: admin.email, code: totpCode(admin.secret, 1) } });
    expect(response.statusCode).toBe(200);
    const cookie = response.headers['set-cookie']!.find((line) => line.startsWith('staff_session='))!;
    expect(cookie).toMatch(/; Path=\/api\/staff(;|$)/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    // The test site is https.
    expect(cookie).toMatch(/; Secure/);
    expect(response.headers['cache-control']).toBe('no-store');
  });
});

describe('signing in with an e-mail and a code', () => {
  it('signs in with a code once: a new session id each time, and the same code refused after', async () => {
    const member = await joinWithApp(ctx, 'codes@khvylia.example', 'viewer');
    const first = member.browser.cookie;
    await member.browser.request('POST', '/api/staff/sign-out');
    expect(member.browser.cookie).toBeUndefined();
    expect((await member.browser.request('GET', '/api/staff/session')).statusCode).toBe(401);
    const code = totpCode(member.secret, 1);
    const next = await member.browser.request('POST', '/api/staff/sign-in/code', { json: { email: member.email, code } });
    expect(next.statusCode).toBe(200);
    expect(member.browser.cookie).toBeDefined();
    expect(member.browser.cookie).not.toBe(first);
    const again = await new StaffBrowser(ctx).request('POST', '/api/staff/sign-in/code', { json: { email: member.email, code } });
    expect(again.statusCode).toBe(401);
  });

  it('accepts each recovery code once', async () => {
    const member = await joinWithApp(ctx, 'recovery@khvylia.example', 'viewer');
    const code = member.recoveryCodes[3]!.toUpperCase().replace('-', '');
    const browser = new StaffBrowser(ctx);
    const first = await browser.request('POST', '/api/staff/sign-in/recovery', { json: { email: member.email, code } });
    expect(first.statusCode).toBe(200);
    expect(first.json<StaffSession>().recoveryCodesLeft).toBe(9);
    const second = await new StaffBrowser(ctx).request('POST', '/api/staff/sign-in/recovery', { json: { email: member.email, code: member.recoveryCodes[3] } });
    expect(second.statusCode).toBe(401);
    expect(errorOf(second.body).error.message).toBe('Невірна адреса електронної пошти або код');
  });

  it('answers an unknown e-mail exactly as a wrong code', async () => {
    const unknown = await new StaffBrowser(ctx).request('POST', '/api/staff/sign-in/code', { json: { email: 'nobody@khvylia.example', code: '123456' } });
    const wrong = await new StaffBrowser(ctx).request('POST', '/api/staff/sign-in/code', { json: { email: admin.email, code: '000000' === totpCode(admin.secret) ? '111111' : '000000' } });
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.body).toBe(wrong.body);
  });

  it('refuses codes for 15 minutes after 5 wrong ones, with a clear message, for any e-mail alike', async () => {
    const member = await joinWithApp(ctx, 'locked@khvylia.example', 'viewer');
    const wrongCode = totpCode(member.secret, 5);
    const attempt = (email: string, code: string) => new StaffBrowser(ctx).request('POST', '/api/staff/sign-in/code', { json: { email, code } });
    for (const email of [member.email, 'ghost@khvylia.example']) {
      const statuses = [];
      for (let i = 0; i < 5; i += 1) statuses.push((await attempt(email, wrongCode)).statusCode);
      expect(statuses).toEqual([401, 401, 401, 401, 429]);
      const locked = await attempt(email, wrongCode);
      expect(locked.statusCode).toBe(429);
      expect(errorOf(locked.body).error.message).toMatch(/^Забагато невдалих спроб/);
    }
    // Even the right code waits out the lockout.
    expect((await attempt(member.email, totpCode(member.secret, 1))).statusCode).toBe(429);
    const until = await ctx.db.kysely.selectFrom('staff_code_lockouts').select('until').where('email', '=', member.email).executeTakeFirstOrThrow();
    expect(Date.parse(until.until) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(await auditActions()).toContain('sign-in-failed');
  });
});

describe('sessions', () => {
  it('lists the person’s sessions and ends one of them: that browser’s next request answers 401', async () => {
    const member = await joinWithApp(ctx, 'sessions@khvylia.example', 'viewer');
    const other = new StaffBrowser(ctx);
    expect((await other.request('POST', '/api/staff/sign-in/code', { json: { email: member.email, code: totpCode(member.secret, 1) } })).statusCode).toBe(200);
    const list = (await member.browser.request('GET', '/api/staff/account/sessions')).json<{ id: string; current: boolean }[]>();
    expect(list).toHaveLength(2);
    const otherSession = list.find((session) => !session.current)!;
    expect((await member.browser.request('DELETE', `/api/staff/account/sessions/${otherSession.id}`)).statusCode).toBe(204);
    expect((await other.request('GET', '/api/staff/session')).statusCode).toBe(401);
    expect((await member.browser.request('GET', '/api/staff/session')).statusCode).toBe(200);
  });

  it('ends a session idle for 12 hours and one 7 days old', async () => {
    const idle = await joinWithApp(ctx, 'idle@khvylia.example', 'viewer');
    const old = await joinWithApp(ctx, 'old@khvylia.example', 'viewer');
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
    await ctx.db.kysely.updateTable('staff_sessions').set({ last_seen_at: hoursAgo(12.1) }).where('member_id', '=', idle.session.member.id).execute();
    await ctx.db.kysely.updateTable('staff_sessions').set({ expires_at: hoursAgo(0.01) }).where('member_id', '=', old.session.member.id).execute();
    expect((await idle.browser.request('GET', '/api/staff/session')).statusCode).toBe(401);
    expect((await old.browser.request('GET', '/api/staff/session')).statusCode).toBe(401);
  });
});

describe('the per-address limit', () => {
  let limited: TestContext;

  beforeAll(async () => {
    limited = await startTestApp({ staff: { signInRateLimitPerMinute: 3, overdueCheckSeconds: 60, weeklyReportCheckSeconds: 300 } });
  }, 30_000);

  afterAll(async () => {
    await limited.close();
  });

  it('refuses a fourth sign-in request a minute from one address, on every sign-in route, in Ukrainian', async () => {
    const browser = new StaffBrowser(limited);
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await browser.request('POST', '/api/staff/sign-in/code', { json: { email: 'x@khvylia.example', code: '123456' } })).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const other = [];
    for (let i = 0; i < 4; i += 1) other.push((await browser.request('POST', '/api/staff/sign-in/passkey/options')).statusCode);
    expect(other).toEqual([200, 200, 200, 429]);
    const refused = await browser.request('POST', '/api/staff/invitation', { json: { token: 'a'.repeat(43) } });
    const invitations = [refused.statusCode];
    for (let i = 0; i < 3; i += 1) invitations.push((await browser.request('POST', '/api/staff/invitation', { json: { token: 'a'.repeat(43) } })).statusCode);
    expect(invitations).toEqual([404, 404, 404, 429]);
    const limitedAnswer = await browser.request('POST', '/api/staff/sign-in/code', { json: { email: 'x@khvylia.example', code: '123456' } });
    expect(errorOf(limitedAnswer.body).error.message).toBe('Забагато запитів. Спробуйте, будь ласка, трохи пізніше');
  });
});
