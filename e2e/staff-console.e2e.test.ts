import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { BLOG_LISTING_PATH, PRIVACY_PATH, STAFF_CSRF_HEADER } from '@agency/shared';
import { eventually } from '../api/test/helpers/eventually';
import { describeInBrowser, launchBrowser, openPage } from './support/browser';
import { startSite, type RunningSite } from './support/site';
import { BROWSER_FETCH_HEADERS, spamFieldsWith, spamSecretsOf } from './support/spam-guard';
import { horizontalOverflow, invitationLink, joinWithApp, pageWithAuthenticator, totpCode } from './support/staff-console';

// A real Chromium with Chrome's virtual authenticator, the real API on SQLite. On SQLite only: the
// console is the same on either database, and the API suites run every sign-in, session and inbox
// route on both (api/test/staff).
jest.setTimeout(120_000);

const XSS_NAME = '<img src=x onerror="window.__xss=1">';
const XSS_MESSAGE = '<script>window.__xss=2</script> Хочемо рекламу';

/** A person's contact message, as the site's form sends it (spam-guard.ts). */
async function sendContact(site: RunningSite, fields: Record<string, string>): Promise<void> {
  const guard = await spamFieldsWith(await spamSecretsOf(site.databaseUrl), 'contact');
  const response = await fetch(`${site.baseUrl}/api/contact`, {
    method: 'POST',
    headers: { ...BROWSER_FETCH_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Клієнт', email: 'client@example.com', phone: '+380 67 000 11 22', company: '', service_type: 'smm', message: 'Потрібна допомога', website: '', ...fields, ...guard }),
  });
  expect(response.status).toBe(201);
}

async function signInWithCode(page: Page, site: RunningSite, email: string, code: string, recovery = false): Promise<void> {
  await page.goto(`${site.siteUrl}/staff/login`);
  if (recovery) await page.getByRole('button', { name: 'Немає застосунку? Увійти з кодом відновлення' }).click();
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel(recovery ? 'Код відновлення' : 'Код із застосунку').fill(code);
  await page.getByRole('button', { name: 'Увійти', exact: true }).click();
}

/** What a public page's visit requested, in full: every URL the browser asked for. */
async function requestedUrls(browser: Browser, url: string): Promise<{ urls: string[]; html: string }> {
  const page = await openPage(browser);
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  const response = await page.goto(url, { waitUntil: 'networkidle' });
  const html = (await response?.text()) ?? '';
  // Scrolled through, so the lower sections' remotes load too.
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.waitForLoadState('networkidle');
  await page.context().close();
  return { urls, html };
}

describe('the staff console on SQLite', () => {
  describeInBrowser('in Chromium', () => {
    let browser: Browser;
    let site: RunningSite;

    beforeAll(async () => {
      [browser, site] = await Promise.all([launchBrowser(), startSite({}, { siteHost: 'localhost' })]);
    });

    afterAll(async () => {
      await Promise.all([browser?.close(), site?.stop()]);
    });

    it('keeps public pages free of the console: not a byte of it loaded, not named in their HTML', async () => {
      const post = ((await (await fetch(`${site.baseUrl}/api/blog?limit=1`)).json()) as { id: number }[])[0]!;
      for (const path of ['/', BLOG_LISTING_PATH, `${BLOG_LISTING_PATH}/${post.id}`, PRIVACY_PATH]) {
        const { urls, html } = await requestedUrls(browser, `${site.siteUrl}${path}`);
        expect([path, urls.filter((url) => /staff/i.test(url))]).toEqual([path, []]);
        expect([path, /staff/i.test(html)]).toEqual([path, false]);
      }
      const robots = await (await fetch(`${site.baseUrl}/robots.txt`)).text();
      expect(robots).toContain('Disallow: /staff');
      expect(await (await fetch(`${site.baseUrl}/sitemap.xml`)).text()).not.toContain('/staff');
      for (const path of ['/staff', '/staff/login', '/staff/leads/1']) {
        const response = await fetch(`${site.baseUrl}${path}`);
        expect([path, response.status, response.headers.get('cache-control'), response.headers.get('x-robots-tag')]).toEqual([path, 200, 'no-store', 'noindex, nofollow']);
        expect(await response.text()).toContain('<meta name="robots" content="noindex">');
      }
    });

    it('invites an admin who registers a passkey, signs out, signs in with it and works a lead that arrives meanwhile', async () => {
      const page = await pageWithAuthenticator(browser, invitationLink(site, 'owner@khvylia.example', 'admin'));
      // The token left the address as soon as it was read.
      await page.getByRole('button', { name: 'Зареєструвати ключ доступу' }).click();
      expect(page.url()).toBe(`${site.siteUrl}/staff/invite`);
      await page.getByTestId('recovery-codes').waitFor();
      expect(await page.getByTestId('recovery-codes').locator('li').allTextContents()).toHaveLength(10);
      await page.getByRole('button', { name: 'Я зберіг коди' }).click();
      await page.getByRole('heading', { name: 'Заявки' }).waitFor();
      // The inbox has its team list (signing out while it is asked for would answer that 401).
      await page.getByRole('form', { name: 'Фільтри' }).locator('option', { hasText: 'owner@khvylia.example' }).waitFor({ state: 'attached' });

      await page.getByRole('button', { name: 'Вийти' }).click();
      await page.getByRole('heading', { name: 'Вхід до консолі' }).waitFor();
      await page.getByRole('button', { name: 'Увійти з ключем доступу' }).click();
      await page.getByRole('heading', { name: 'Заявки' }).waitFor();
      // The inbox's first page has loaded (empty): a lead stored before that would be in it, not new.
      await page.getByText('Заявок за цими умовами немає.').waitFor();

      // A lead sent now shows up without a reload, counted in the tab's title.
      await sendContact(site, { name: 'Тарас Шевченко', email: 'taras@kobzar.example', message: 'Реклама книгарні' });
      await page.getByRole('link', { name: 'Тарас Шевченко' }).waitFor({ timeout: 10_000 });
      await eventually('the count in the title', () => page.title(), (title) => title.startsWith('(1) Заявки'), 5_000);

      await page.getByRole('link', { name: 'Тарас Шевченко' }).click();
      // The lead's page, not the inbox's filters (which have a status and an assignee too) while it opens.
      await page.getByRole('heading', { name: 'Звернення від Тарас Шевченко' }).waitFor();
      await page.getByLabel('Статус').selectOption('in_progress');
      await page.getByLabel('Відповідальний').selectOption({ label: 'owner@khvylia.example' });
      await page.getByRole('button', { name: 'Зберегти' }).click();
      await page.getByText('owner@khvylia.example: Статус Нова → В роботі').waitFor();
      await page.getByLabel('Нова нотатка').fill('Передзвонити у вівторок');
      await page.getByRole('button', { name: 'Додати нотатку' }).click();
      await page.getByText('Передзвонити у вівторок').waitFor();

      // The export downloads the list as the inbox shows it, with a BOM for Excel.
      await page.getByRole('link', { name: 'Заявки' }).click();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Експорт CSV' }).click()]);
      const csv = fs.readFileSync((await download.path())!);
      expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(csv.toString('utf8')).toContain('Тарас Шевченко');
      // Only the console's first question, asked before anyone had signed in, answered 401.
      expect(page.consoleErrors).toEqual([`Failed to load resource: the server responded with a status of 401 (Unauthorized) ${site.siteUrl}/api/staff/session`]);
      await page.context().close();
    });

    it('shows an XSS-shaped lead as text, running nothing', async () => {
      await sendContact(site, { name: XSS_NAME, message: XSS_MESSAGE });
      // On a phone's screen.
      const page = await pageWithAuthenticator(browser, undefined, { width: 375, height: 812 });
      // The admin's passkey lives in the other context's authenticator: sign in with a new admin's app instead.
      const { secret } = await joinWithApp(page, invitationLink(site, 'reader@khvylia.example', 'viewer'));
      expect(secret).toMatch(/^[A-Z2-7]+$/);
      expect(await horizontalOverflow(page)).toBe(0);
      await page.getByRole('link', { name: XSS_NAME }).click();
      const fields = page.getByTestId('lead-fields');
      await fields.waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      await expect(fields.getByText(XSS_NAME, { exact: true }).count()).resolves.toBe(1);
      await expect(fields.getByText(XSS_MESSAGE, { exact: true }).count()).resolves.toBe(1);
      expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
      expect(await page.locator('img[src="x"]').count()).toBe(0);
      // A viewer reads but neither works leads nor exports them.
      expect(await page.getByRole('button', { name: 'Зберегти' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Заявки' }).click();
      await page.getByRole('heading', { name: 'Заявки' }).waitFor();
      await page.getByRole('link', { name: XSS_NAME }).waitFor();
      expect(await page.getByRole('link', { name: 'Експорт CSV' }).count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Команда' }).count()).toBe(0);
      await page.context().close();
    });

    it('signs in with a code from the app, and with a recovery code once: the second time it is refused', async () => {
      const page = await openPage(browser);
      const email = 'editor@khvylia.example';
      const { secret, codes } = await joinWithApp(page, invitationLink(site, email, 'editor'));
      expect(codes).toHaveLength(10);
      const signOut = async () => {
        await page.getByRole('button', { name: 'Вийти' }).click();
        await page.getByRole('heading', { name: 'Вхід до консолі' }).waitFor();
      };
      await signOut();
      await signInWithCode(page, site, email, totpCode(secret, 1));
      await page.getByRole('heading', { name: 'Заявки' }).waitFor();
      await signOut();
      await signInWithCode(page, site, email, codes[4]!, true);
      await page.getByRole('heading', { name: 'Заявки' }).waitFor();
      await signOut();
      await signInWithCode(page, site, email, codes[4]!, true);
      await expect(page.getByRole('alert').textContent()).resolves.toBe('Невірна адреса електронної пошти або код');
      await page.context().close();
    });

    it('ends a session an admin ends: the person’s next request answers 401 and the console asks to sign in', async () => {
      const admin = await openPage(browser);
      await joinWithApp(admin, invitationLink(site, 'second-admin@khvylia.example', 'admin'));
      const member = await openPage(browser);
      await joinWithApp(member, invitationLink(site, 'leaving@khvylia.example', 'editor'));

      await admin.getByRole('link', { name: 'Команда' }).click();
      await admin.getByRole('row', { name: /leaving@khvylia\.example/ }).getByRole('button', { name: 'Сеанси' }).click();
      await admin.getByRole('button', { name: 'Завершити сеанс' }).click();
      await eventually('the session list emptied', () => admin.getByText('Активних сеансів немає.').count(), (count) => count === 1, 5_000);

      const status = await member.evaluate(async () => (await fetch('/api/staff/leads')).status);
      expect(status).toBe(401);
      await member.getByRole('link', { name: 'Мій обліковий запис' }).click();
      await member.getByRole('heading', { name: 'Вхід до консолі' }).waitFor();

      // A state-changing request without the CSRF token, from the console's own page: 403, nothing changed.
      const refused = await admin.evaluate(async () => {
        const response = await fetch('/api/staff/members/invitations', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'csrf@khvylia.example', role: 'admin' }),
        });
        return response.status;
      });
      expect(refused).toBe(403);
      const session = (await admin.evaluate(async () => (await fetch('/api/staff/session')).json())) as { csrfToken: string };
      const allowed = await admin.evaluate(
        async ({ header, token }) =>
          (
            await fetch('/api/staff/members/invitations', {
              method: 'POST',
              headers: { 'content-type': 'application/json', [header]: token },
              body: JSON.stringify({ email: 'csrf@khvylia.example', role: 'viewer' }),
            })
          ).status,
        { header: STAFF_CSRF_HEADER, token: session.csrfToken },
      );
      expect(allowed).toBe(200);
      await Promise.all([admin.context().close(), member.context().close()]);
    });

    it('locks codes out after 5 wrong ones with a clear message', async () => {
      const page = await openPage(browser);
      for (let i = 0; i < 5; i += 1) {
        await signInWithCode(page, site, 'locked@khvylia.example', '000000');
        await page.getByRole('alert').waitFor();
      }
      await expect(page.getByRole('alert').textContent()).resolves.toMatch(/^Забагато невдалих спроб/);
      await page.context().close();
    });
  });
});
