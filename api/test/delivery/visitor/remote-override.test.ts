import fs from 'node:fs';
import path from 'node:path';
import { PAGE_DATA_IDS, REMOTE_OVERRIDE_BANNER, REMOTE_OVERRIDE_COOKIE, type RemoteOverrideState } from '@agency/shared';
import { distDir, SHELL } from '../../../src/delivery/releases/apps';
import { OVERRIDE_CACHE_CONTROL, OVERRIDE_SECRET, signOverrideToken, type RemoteOverride } from '../../../src/delivery/visitor/remote-override';
import { siteSecret } from '../../../src/platform/db/site-secrets';
import { PAGE_CACHE_CONTROL } from '../../../src/site/pages/serve-page';
import { eventually } from '../../helpers/eventually';
import type { HttpResponse } from '../../helpers/http';
import { HOME_BUNDLE, HOME_MANIFEST, SHELL_BUNDLE, SHELL_TEMPLATE } from '../../helpers/page-builds';
import { publishFixture, setUpReleaseSuite } from '../../helpers/releases';
import { joinWithApp, type JoinedMember } from '../../helpers/staff';
import { browserError, ofRelease, readTelemetry, settleTelemetry } from '../../helpers/telemetry';

// A release manager's override of one remote for their own browser, as that browser and everyone
// else get the site over HTTP: the page and /remotes.json name the override's build for the
// browser with the cookie alone, never through the page cache, with a banner and its exit; a build
// on the member's machine is let in by that page's Content-Security-Policy only, and rendered in
// the browser, not on the server. A cookie that no longer holds (forged, expired, its session
// ended, its member's rights gone) is ignored and cleared.

const suite = setUpReleaseSuite();

interface Document {
  shell: { release: string };
  remotes: Record<string, { entry: string; release: string }>;
}

const NAVIGATE = { 'sec-fetch-mode': 'navigate', accept: 'text/html' };
const HOURS = 3_600_000;
/** A port a build on the member's machine is served from (nothing listens there: the server never asks it). */
const PORT = 5173;

let older: string;
let current: string;
let manager: JoinedMember;
let admin: JoinedMember;

const page = (url: string, cookie?: string) => suite.ctx.request('GET', url, { headers: { ...NAVIGATE, ...(cookie ? { cookie } : {}) } });
const remotesJson = async (cookie?: string) => (await suite.ctx.request('GET', '/remotes.json', { headers: cookie ? { cookie } : {} })).json<Document>();
const blogOf = async (cookie?: string) => (await remotesJson(cookie)).remotes.blog?.release;

function pageRemotes(response: HttpResponse): Document {
  const json = new RegExp(`<script type="application/json" id="${PAGE_DATA_IDS.remotes}">(.*?)</script>`).exec(response.body)?.[1];
  if (json === undefined) throw new Error(`no remotes map in the page (status ${response.statusCode}): ${response.body.slice(0, 300)}`);
  return JSON.parse(json) as Document;
}

/** The banner's text, its exit link and the link's text. */
const banner = (response: HttpResponse) => /<aside data-override-banner[^>]*><span>([^<]*)<\/span><a href="([^"]*)"[^>]*>([^<]*)<\/a><\/aside><div id="root">/.exec(response.body)?.slice(1);

/** The Set-Cookie line of the override cookie, if the response has one. */
const overrideSetCookie = (response: HttpResponse) => response.headers['set-cookie']?.find((line) => line.startsWith(`${REMOTE_OVERRIDE_COOKIE}=`));

/** Sets an override as the console does; the cookie the browser then sends. */
async function override(member: JoinedMember, app: string, body: { release: string } | { port: number }): Promise<string> {
  const response = await member.browser.request('POST', `/api/staff/releases/${app}/override`, { json: body });
  expect(response.statusCode).toBe(200);
  const line = overrideSetCookie(response);
  if (!line) throw new Error('no override cookie set');
  return line.split(';')[0]!;
}

function expectCleared(response: HttpResponse): void {
  expect(overrideSetCookie(response)).toMatch(new RegExp(`^${REMOTE_OVERRIDE_COOKIE}=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Strict$`));
}

/** A page as everyone gets it: the current blog, kept by shared caches, no banner, the site's own CSP. */
async function expectEveryonesPage(response: HttpResponse, csp: string): Promise<void> {
  expect(response.statusCode).toBe(200);
  expect(response.headers['cache-control']).toBe(PAGE_CACHE_CONTROL);
  expect(response.headers['content-security-policy']).toBe(csp);
  expect(response.body).not.toContain('data-override-banner');
  expect(pageRemotes(response).remotes.blog).toEqual({ entry: `/remotes/blog/${current}/mf-manifest.json`, release: current });
}

/** The site's CSP, as every response without an override carries it. */
let siteCsp: string;

beforeAll(async () => {
  // A shell that renders real pages (its frame names the home remote's hero), and a home build
  // whose server bundle renders the hero, so a page shows what is rendered on the server.
  const shell = distDir(suite.fixture.staticRoot, SHELL);
  fs.writeFileSync(path.join(shell, 'index.html'), SHELL_TEMPLATE);
  fs.mkdirSync(path.join(shell, 'server'), { recursive: true });
  fs.writeFileSync(path.join(shell, 'server', 'render.js'), SHELL_BUNDLE);
  const home = distDir(suite.fixture.staticRoot, 'home');
  fs.writeFileSync(path.join(home, 'mf-manifest.json'), JSON.stringify(HOME_MANIFEST));
  fs.mkdirSync(path.join(home, 'server'), { recursive: true });
  fs.writeFileSync(path.join(home, 'server', 'render.js'), HOME_BUNDLE);
  older = await publishFixture(suite.fixture, 'blog', { label: 'v1' });
  current = await publishFixture(suite.fixture, 'blog', { label: 'v2' });
  await eventually(`blog release ${current} to become current`, () => blogOf(), (release) => release === current);
  [manager, admin] = await Promise.all([
    joinWithApp(suite.ctx, 'blog-releases@khvylia.example', 'release_manager', ['blog', 'home']),
    joinWithApp(suite.ctx, 'owner@khvylia.example', 'admin'),
  ]);
  siteCsp = String((await page('/privacy')).headers['content-security-policy']);
  expect(siteCsp).toContain("script-src 'self'");
});

describe('an override of the blog with a kept release', () => {
  let cookie: string;

  beforeAll(async () => {
    cookie = await override(manager, 'blog', { release: older });
  });

  it('is set as an httpOnly, SameSite=Strict cookie of the whole site for 12 hours', async () => {
    const response = await manager.browser.request('POST', '/api/staff/releases/blog/override', { json: { release: older } });
    expect(response.json<RemoteOverrideState>()).toEqual({ override: { app: 'blog', release: older, port: null, expiresAt: expect.any(String) } });
    const expiresIn = Date.parse(response.json<RemoteOverrideState>().override!.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(12 * HOURS - 60_000);
    expect(expiresIn).toBeLessThanOrEqual(12 * HOURS);
    expect(overrideSetCookie(response)).toMatch(new RegExp(`^${REMOTE_OVERRIDE_COOKIE}=[\\w-]+\\.[\\w-]+; Max-Age=43200; Path=/; HttpOnly; Secure; SameSite=Strict$`));
  });

  it("serves that browser's pages with the release, a banner with an exit, kept by no cache", async () => {
    const response = await page('/blog/override-release', cookie);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe(OVERRIDE_CACHE_CONTROL);
    expect(response.headers['x-robots-tag']).toBe('noindex');
    expect(pageRemotes(response).remotes.blog).toEqual({ entry: `/remotes/blog/${older}/mf-manifest.json`, release: older });
    expect(banner(response)).toEqual([REMOTE_OVERRIDE_BANNER.release('blog', older), '/override/exit?to=%2Fblog%2Foverride-release', REMOTE_OVERRIDE_BANNER.exit]);
    // A release of this site's own: the policy stays the site's.
    expect(response.headers['content-security-policy']).toBe(siteCsp);
    expect(await blogOf(cookie)).toBe(older);
  });

  it('reaches no other browser, before or after, through the page cache or /remotes.json', async () => {
    const url = '/hero/override-cache';
    await expectEveryonesPage(await page(url), siteCsp);
    const overridden = await page(url, cookie);
    expect(pageRemotes(overridden).remotes.blog?.release).toBe(older);
    expect(banner(overridden)?.[0]).toBe(REMOTE_OVERRIDE_BANNER.release('blog', older));
    // Right after, and again: everyone else's page, as kept before.
    await expectEveryonesPage(await page(url), siteCsp);
    await expectEveryonesPage(await page(url, 'agency_other=1'), siteCsp);
    expect(await blogOf()).toBe(current);
    // An override page is never what the cache gives its own browser either.
    const again = await page(url, cookie);
    expect(pageRemotes(again).remotes.blog?.release).toBe(older);
  });

  it('counts nothing the overridden remote reports for it; the other apps count as ever', async () => {
    const errors = [browserError({ app: 'blog', release: older, message: 'Overridden blog failed' }), browserError({ app: 'home', release: 'dist', message: 'Home failed beside it' })];
    expect((await suite.ctx.request('POST', '/api/telemetry', { json: { errors }, headers: { cookie } })).statusCode).toBe(204);
    await settleTelemetry(suite.ctx);
    const stored = await readTelemetry(suite.ctx.db);
    expect(ofRelease(stored, 'blog', older).errors).toEqual([]);
    expect(ofRelease(stored, 'home', 'dist').errors.map((error) => error.message)).toContain('Home failed beside it');
  });

  it("answers that browser's /remotes.json with the release too, kept nowhere", async () => {
    const response = await suite.ctx.request('GET', '/remotes.json', { headers: { cookie } });
    expect(response.headers['cache-control']).toBe(OVERRIDE_CACHE_CONTROL);
    expect(response.json<Document>().remotes.blog?.release).toBe(older);
    expect((await suite.ctx.request('GET', '/remotes.json')).headers['cache-control']).toBe('no-cache');
  });
});

describe('an override with a build on the member’s own machine', () => {
  let cookie: string;

  beforeAll(async () => {
    cookie = await override(manager, 'blog', { port: PORT });
  });

  it('points the browser at http://localhost:<port>/mf-manifest.json, with the banner naming the origin', async () => {
    const response = await page('/blog/override-local', cookie);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe(OVERRIDE_CACHE_CONTROL);
    expect(pageRemotes(response).remotes.blog).toEqual({ entry: `http://localhost:${PORT}/mf-manifest.json`, release: `localhost-${PORT}` });
    expect(banner(response)?.[0]).toBe(REMOTE_OVERRIDE_BANNER.local('blog', `http://localhost:${PORT}`));
    expect((await remotesJson(cookie)).remotes.blog).toEqual({ entry: `http://localhost:${PORT}/mf-manifest.json`, release: `localhost-${PORT}` });
  });

  it("lets that page's policy alone load from the origin: scripts, fetches, styles, fonts, images", async () => {
    const response = await page('/blog/override-csp', cookie);
    const directives = Object.fromEntries(
      String(response.headers['content-security-policy'])
        .split(';')
        .map((directive) => directive.trim().split(/\s+/))
        .map(([name, ...sources]) => [name, sources]),
    );
    const site = Object.fromEntries(siteCsp.split(';').map((directive) => directive.trim().split(/\s+/)).map(([name, ...sources]) => [name, sources]));
    const origin = `http://localhost:${PORT}`;
    for (const name of Object.keys(site)) {
      const widened = ['script-src', 'connect-src', 'style-src', 'img-src', 'font-src'].includes(name!);
      expect([name, directives[name!]]).toEqual([name, widened ? [...site[name!]!, origin] : site[name!]]);
    }
    // Every other answer keeps the site's policy: another browser's page, and this browser's other answers.
    expect((await page('/blog/override-csp')).headers['content-security-policy']).toBe(siteCsp);
    expect((await suite.ctx.request('GET', '/remotes.json', { headers: { cookie } })).headers['content-security-policy']).toBe(siteCsp);
    expect((await manager.browser.request('GET', '/api/staff/releases/override', { headers: { cookie } })).headers['content-security-policy']).toBe(siteCsp);
  });

  it('renders an overridden remote in the browser only: the server cannot reach that machine', async () => {
    const url = '/hero/override-ssr';
    const everyone = await page(url);
    expect(everyone.body).toMatch(/<div data-remote-module="home\/Hero" data-remote-release="dist"><link[^>]*\/?><h1>Послуг: \d+<\/h1>|<div data-remote-module="home\/Hero" data-remote-release="dist"><h1>Послуг: \d+<\/h1>/);
    const homeCookie = await override(manager, 'home', { port: PORT });
    const overridden = await page(url, homeCookie);
    expect(overridden.statusCode).toBe(200);
    expect(pageRemotes(overridden).remotes.home).toEqual({ entry: `http://localhost:${PORT}/mf-manifest.json`, release: `localhost-${PORT}` });
    expect(overridden.body).toContain('<div class="placeholder"></div>');
    expect(overridden.body).not.toContain('Послуг:');
    // Nothing of the home build of this server is asked for early.
    expect(overridden.body).not.toContain('/remotes/home/');
    // The one override of the browser is now the home one: the blog is everyone's again.
    expect(pageRemotes(overridden).remotes.blog?.release).toBe(current);
    cookie = await override(manager, 'blog', { port: PORT });
  });
});

describe('a cookie that no longer holds', () => {
  let secret: string;
  let sessionHash: string;

  const token = (fields: Partial<RemoteOverride> = {}) =>
    `${REMOTE_OVERRIDE_COOKIE}=${signOverrideToken({ app: 'blog', target: { release: older }, session: sessionHash, expiresAt: Date.now() + HOURS, ...fields }, secret)}`;

  /** The page for a browser whose override cookie is ignored: everyone's, with the cookie cleared. */
  async function expectIgnored(cookie: string, url: string): Promise<void> {
    const response = await page(url, cookie);
    await expectEveryonesPage(response, siteCsp);
    expectCleared(response);
    expect(await blogOf(cookie)).toBe(current);
  }

  beforeAll(async () => {
    secret = await siteSecret(suite.fixture.db, OVERRIDE_SECRET);
    const sessions = await suite.fixture.db.kysely
      .selectFrom('staff_sessions')
      .innerJoin('staff_members', 'staff_members.id', 'staff_sessions.member_id')
      .select('id_hash')
      .where('email', '=', 'blog-releases@khvylia.example')
      .execute();
    expect(sessions).toHaveLength(1);
    sessionHash = sessions[0]!.id_hash;
    // The cookie as this test signs it holds: what each case below changes is what is refused.
    expect(pageRemotes(await page('/hero/holds', token())).remotes.blog?.release).toBe(older);
  });

  it.each([
    ['garbage', () => `${REMOTE_OVERRIDE_COOKIE}=garbage`],
    ['signed with another secret', () => `${REMOTE_OVERRIDE_COOKIE}=${signOverrideToken({ app: 'blog', target: { port: PORT }, session: sessionHash, expiresAt: Date.now() + HOURS }, 'another-secret')}`],
    [
      'with another payload under its signature',
      () => {
        const [, signature] = token().split('.');
        const payload = Buffer.from(JSON.stringify({ app: 'blog', port: PORT, session: sessionHash, exp: Date.now() + HOURS })).toString('base64url');
        return `${REMOTE_OVERRIDE_COOKIE}=${payload}.${signature}`;
      },
    ],
    ['expired', () => token({ expiresAt: Date.now() - 1000 })],
    ['of a session that does not exist', () => token({ session: 'f'.repeat(64) })],
    ['of the console itself', () => token({ app: 'staff' as never })],
    ['of a release no longer kept', () => token({ target: { release: '0.0.1-0000000-20200101T000000Z' } })],
  ])('ignores and clears one %s', async (_name, cookie) => {
    await expectIgnored(cookie(), '/hero/forged');
  });

  it('ignores one whose member may no longer act on the app', async () => {
    const cookie = token();
    const patched = await admin.browser.request('PATCH', `/api/staff/members/${manager.session.member.id}`, { json: { role: 'release_manager', releaseApps: ['forms'] } });
    expect(patched.statusCode).toBe(200);
    try {
      await expectIgnored(cookie, '/hero/lost-rights');
    } finally {
      await admin.browser.request('PATCH', `/api/staff/members/${manager.session.member.id}`, { json: { role: 'release_manager', releaseApps: ['blog', 'home'] } });
    }
    expect(pageRemotes(await page('/hero/rights-back', cookie)).remotes.blog?.release).toBe(older);
  });

  it('ignores one whose session ended: it dies with the sign-out', async () => {
    const cookie = token();
    expect((await manager.browser.request('POST', '/api/staff/sign-out')).statusCode).toBe(204);
    await expectIgnored(cookie, '/hero/signed-out');
  });
});

describe('the exit link', () => {
  it('clears the cookie and returns to the page, as a GET anyone may follow', async () => {
    const response = await suite.ctx.request('GET', `/override/exit?to=${encodeURIComponent('/blog?category=smm')}`, { headers: { cookie: `${REMOTE_OVERRIDE_COOKIE}=anything` } });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/blog?category=smm');
    expect(response.headers['cache-control']).toBe('no-store');
    expectCleared(response);
  });

  it.each(['/.//evil.example', '/%2F%2Fevil.example'])('never leaves the site for to=%p', async (to) => {
    const response = await suite.ctx.request('GET', `/override/exit?to=${encodeURIComponent(to)}`);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/');
  });
});
