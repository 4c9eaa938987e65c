import { STAFF_CSRF_HEADER, STAFF_SESSION_COOKIE, type InvitationAccepted, type StaffRole, type StaffSession, type TotpSetupResponse } from '@agency/shared';
import { Secret, TOTP } from 'otpauth';
import { createInvitation } from '../../src/staff/accounts/invitations';
import { TEST_SITE_URL, type TestContext } from './app';
import type { HttpRequestOptions, HttpResponse } from './http';

/** A code of the authenticator app with `secret`, `stepsAhead` 30-second steps from now (a step is spent once). */
export function totpCode(secret: string, stepsAhead = 0): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: Date.now() + stepsAhead * 30_000 });
}

/**
 * A browser of the staff console: keeps the session cookie, sends the site's Origin and the
 * session's CSRF token on state-changing requests, as the console does. Each can be left out.
 */
export class StaffBrowser {
  cookie?: string;
  csrfToken?: string;

  constructor(private readonly ctx: TestContext) {}

  async request(method: string, path: string, options: HttpRequestOptions & { origin?: string | null; csrf?: string | null } = {}): Promise<HttpResponse> {
    const headers: Record<string, string> = { ...options.headers };
    // Beside any cookie the test sends (the browser's others, e.g. an override's).
    if (this.cookie) headers.cookie = [`${STAFF_SESSION_COOKIE}=${this.cookie}`, ...(headers.cookie ? [headers.cookie] : [])].join('; ');
    if (method !== 'GET' && method !== 'HEAD') {
      const origin = options.origin === undefined ? TEST_SITE_URL : options.origin;
      if (origin !== null) headers.origin = origin;
      const csrf = options.csrf === undefined ? this.csrfToken : options.csrf;
      if (csrf) headers[STAFF_CSRF_HEADER] = csrf;
    }
    const response = await this.ctx.request(method, path, { ...options, headers });
    const setCookie = response.headers['set-cookie']?.find((line) => line.startsWith(`${STAFF_SESSION_COOKIE}=`));
    if (setCookie) this.cookie = /^[^=]+=([^;]*)/.exec(setCookie)![1] || undefined;
    if (response.statusCode === 200 && /json/.test(String(response.headers['content-type']))) {
      const body = response.json<Partial<StaffSession> & { session?: StaffSession }>();
      const csrf = body.csrfToken ?? body.session?.csrfToken;
      if (typeof csrf === 'string') this.csrfToken = csrf;
    }
    return response;
  }
}

/** An invitation's token, made as `npm run staff -- invite` makes it; `releaseApps` for a release manager. */
export async function invitationToken(ctx: TestContext, email: string, role: StaffRole, releaseApps: readonly string[] = []): Promise<string> {
  const { link } = await createInvitation(ctx.db, TEST_SITE_URL, { email, role, releaseApps }, { id: null, actor: 'cli', address: 'cli' });
  return link.split('#')[1]!;
}

export interface JoinedMember {
  browser: StaffBrowser;
  email: string;
  secret: string;
  recoveryCodes: string[];
  session: StaffSession;
}

/**
 * Someone invited with `role` (a release manager with `releaseApps`, e.g. `['blog']`) who accepted
 * with an authenticator app: signed in on `browser`.
 */
export async function joinWithApp(ctx: TestContext, email: string, role: StaffRole, releaseApps: readonly string[] = []): Promise<JoinedMember> {
  const token = await invitationToken(ctx, email, role, releaseApps);
  const browser = new StaffBrowser(ctx);
  const setup = await browser.request('POST', '/api/staff/invitation/totp/setup', { json: { token } });
  if (setup.statusCode !== 200) throw new Error(`totp setup: ${setup.statusCode} ${setup.body}`);
  const { challengeId, secret } = setup.json<TotpSetupResponse>();
  const accepted = await browser.request('POST', '/api/staff/invitation/totp', { json: { token, challengeId, code: totpCode(secret) } });
  if (accepted.statusCode !== 200) throw new Error(`totp accept: ${accepted.statusCode} ${accepted.body}`);
  const body = accepted.json<InvitationAccepted>();
  return { browser, email, secret, recoveryCodes: body.recoveryCodes, session: body.session };
}
