import type { Browser, Locator, Page } from 'playwright-core';
import { SECTION_IDS, STAFF_PATHS, TOAST_MESSAGES } from '@agency/shared';
import { eventually } from '../api/test/helpers/eventually';
import { describeInBrowser, expectNoSeriousA11yViolations, launchBrowser, openPage } from './support/browser';
import { fillContact, submit } from './support/forms';
import { startSite, type RunningSite } from './support/site';
import { horizontalOverflow, invitationLink, joinWithApp, pageWithAuthenticator } from './support/staff-console';

// The owner's dashboard end to end: a visitor from an Instagram campaign link sends the contact
// form in Chromium; «Огляд» in the console shows the visit under that source with its lead, then a
// won client once the lead is marked won; a clicked source filters the screen and survives a
// reload. The browser announces itself as an ordinary Chrome (a flag of the whole browser: a
// context's override is not applied to the beacon a page sends as it is left): the site does not
// count headless browsers, whose user agent says so, which the API suites prove.
jest.setTimeout(180_000);

const DESKTOP_CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const VISITOR = 'olha.dashboard@example.com';

/** The cells of a table's row whose first cell is `name`, as shown. */
async function rowCells(table: Locator, name: string): Promise<string[]> {
  const row = table.getByRole('row').filter({ has: table.page().getByRole('button', { name, exact: true }) });
  if ((await row.count()) === 0) return [];
  return (await row.first().getByRole('cell').allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());
}

/** Reloads «Огляд» until `check` holds for the Instagram row of «Джерела» (counting takes a second). */
async function instagramRow(page: Page, check: (cells: string[]) => boolean): Promise<string[]> {
  return eventually(
    'the Instagram row on «Огляд»',
    async () => {
      await page.reload();
      const table = page.getByRole('table', { name: 'Джерела' });
      await table.waitFor();
      return rowCells(table, 'instagram');
    },
    check,
    20_000,
  );
}

describe('the owner’s dashboard', () => {
  describeInBrowser('in Chromium', () => {
    let browser: Browser;
    let site: RunningSite;
    let owner: Page;
    const left: Page[] = [];

    beforeAll(async () => {
      [browser, site] = await Promise.all([launchBrowser([`--user-agent=${DESKTOP_CHROME}`]), startSite({}, { siteHost: 'localhost' })]);
      owner = await pageWithAuthenticator(browser);
      await joinWithApp(owner, invitationLink(site, 'owner@khvylia.example', 'admin'));
    });

    afterAll(async () => {
      await Promise.all([owner, ...left].map((page) => page?.context().close()));
      await Promise.all([browser?.close(), site?.stop()]);
    });

    it('shows a visit from an Instagram link that sent a lead under its source, then its won client, filtered and reloaded', async () => {
      const visitor = await openPage(browser, `${site.siteUrl}/?utm_source=instagram&utm_medium=social&utm_campaign=spring`);
      const form = visitor.locator(`#${SECTION_IDS.contact} form`);
      await fillContact(form, VISITOR);
      await submit(form, 'Надіслати повідомлення');
      await visitor.getByText(TOAST_MESSAGES.contactSuccess).waitFor();
      // Leaving the page hides it: its page views go out then, as when a tab is closed. The tab
      // stays open until the suite ends: closing it at once could cancel the beacon in flight.
      await visitor.goto('about:blank');
      left.push(visitor);

      await owner.goto(`${site.siteUrl}${STAFF_PATHS.overview}`);
      await owner.getByRole('heading', { level: 1, name: 'Огляд' }).waitFor();
      // Source, visitors, page views, leads, conversion, won clients.
      const [name, visitors, views, leads, conversion, won] = await instagramRow(owner, (cells) => cells[1] === '1' && cells[3] === '1');
      expect([name, visitors, leads, conversion, won]).toEqual(['instagram', '1', '1', '100 %', '0']);
      expect(Number(views)).toBeGreaterThanOrEqual(1);
      // The contact form's funnel: seen, started, sent.
      const funnel = owner.getByRole('table', { name: 'Звернення' });
      expect((await funnel.getByRole('cell').allTextContents()).join(' ')).toMatch(/^\D*1\D+1\D+1\D+0/);

      // A click on the source filters the whole screen; the filter lives in the address.
      await owner.getByRole('table', { name: 'Джерела' }).getByRole('button', { name: 'instagram', exact: true }).click();
      await owner.getByRole('list', { name: 'Фільтри огляду' }).getByText('Джерело: instagram').waitFor();
      expect(new URL(owner.url()).searchParams.get('source')).toBe('instagram');

      // The lead is won: the dashboard shows one won client from Instagram, after a reload too.
      const inbox = await owner.context().newPage();
      await inbox.goto(`${site.siteUrl}${STAFF_PATHS.home}`);
      await inbox.getByRole('link', { name: 'Андрій Шевчук' }).click();
      await inbox.getByRole('heading', { name: 'Звернення від Андрій Шевчук' }).waitFor();
      await inbox.getByLabel('Статус').selectOption('won');
      await inbox.getByRole('button', { name: 'Зберегти' }).click();
      await inbox.getByText('Статус Нова → Успішна', { exact: false }).waitFor();
      await inbox.close();

      const wonRow = await instagramRow(owner, (cells) => cells[5] === '1');
      expect(wonRow[0]).toBe('instagram');
      expect(new URL(owner.url()).searchParams.get('source')).toBe('instagram');
      await owner.getByRole('list', { name: 'Фільтри огляду' }).getByText('Джерело: instagram').waitFor();
    });

    it.each([375, 1280])('passes axe on «Огляд» at %i px, with nothing wider than the screen', async (width) => {
      await owner.setViewportSize({ width, height: 900 });
      await owner.goto(`${site.siteUrl}${STAFF_PATHS.overview}?period=30d`);
      await owner.getByRole('table', { name: 'Джерела' }).waitFor();
      await owner.getByRole('img', { name: /^Графік/ }).waitFor();
      await expectNoSeriousA11yViolations(owner);
      expect(await horizontalOverflow(owner)).toBe(0);
    });
  });
});
