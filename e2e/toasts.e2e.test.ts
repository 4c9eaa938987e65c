import type { Page, Response } from 'playwright-core';
import { SECTION_IDS, TOAST_CONTAINER, TOAST_MESSAGES, TOAST_WIDTH_PX, type BlogPostSummary } from '@agency/shared';
import { describeInBrowser, openPage, waitForHydration } from './support/browser';
import { fillContact, submit } from './support/forms';
import { setUpSiteAndBrowser } from './support/suite';

jest.setTimeout(60_000);

/** A colour token of the site (shared/styles/tokens.css) as the browser computes it. */
function siteColour(page: Page, token: string): Promise<string> {
  return page.evaluate((name) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${name})`;
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }, token);
}

async function toastLook(page: Page, text: string) {
  const toast = page.locator('.Toastify__toast', { hasText: text });
  await toast.waitFor();
  return toast.evaluate(async (element) => {
    await Promise.all(element.getAnimations().map((animation) => animation.finished));
    const style = getComputedStyle(element);
    const bar = element.querySelector('.Toastify__progress-bar');
    return {
      stripe: style.borderLeftColor,
      background: style.backgroundColor,
      font: style.fontFamily,
      width: element.getBoundingClientRect().width,
      bar: bar ? getComputedStyle(bar).backgroundColor : null,
    };
  });
}

/**
 * Whether a response is script carrying react-toastify (its stylesheet text is inside it).
 * A body still arriving when the test closes its page cannot be read any more; it no longer matters then.
 */
async function isToastCode(response: Response): Promise<boolean> {
  if (response.request().resourceType() !== 'script') return false;
  const body = await response.text().catch((error: unknown) => {
    if (response.frame().page().isClosed()) return '';
    throw error;
  });
  return body.includes('.Toastify__toast-container');
}

describeInBrowser('toasts', () => {
  const suite = setUpSiteAndBrowser();

  /** The path of the newest post: a page that moves focus to its heading by itself. */
  async function newestPostPath(): Promise<string> {
    const response = await fetch(`${suite.site.baseUrl}/api/blog?limit=1`);
    const [post] = (await response.json()) as BlogPostSummary[];
    return `/blog/${post!.id}`;
  }

  it.each([
    ['the home page', async () => '/'],
    ['a post, which focuses its heading', newestPostPath],
  ])("are fetched at the visitor's first action, not with %s, in the live region the server sent", async (_page, pathOf) => {
    const page = await openPage(suite.browser, undefined, { lazySections: true });
    const toastScripts: string[] = [];
    const recordToastCode = async (response: Response) => {
      if (await isToastCode(response)) toastScripts.push(response.url());
    };
    page.on('response', recordToastCode);
    await page.goto(`${suite.site.baseUrl}${await pathOf()}`, { waitUntil: 'networkidle' });
    page.off('response', recordToastCode);
    expect(toastScripts).toEqual([]);
    const liveRegion = page.getByRole('region', { name: TOAST_CONTAINER['aria-label'] });
    await expect(liveRegion.getAttribute('aria-live')).resolves.toBe('polite');

    const fetched = page.waitForResponse(isToastCode);
    await page.keyboard.press('Tab');
    await fetched;
    await page.waitForLoadState('networkidle');
    await expect(liveRegion.count()).resolves.toBe(1);
    expect(page.consoleErrors).toEqual([]);
    await page.context().close();
  });

  it('are fetched again at the next action when their code failed to load, and still show', async () => {
    const page = await openPage(suite.browser);
    let refused = 0;
    await page.route('**/toast-container.*.js', (route) => (refused++ === 0 ? route.abort() : route.continue()));
    const failed = page.waitForEvent('requestfailed', (request) => request.url().includes('/toast-container.'));
    await page.goto(`${suite.site.baseUrl}/#${SECTION_IDS.contact}`);
    const form = page.locator(`#${SECTION_IDS.contact} form`);
    // The server sends the form: the key counts as the visitor's first action once the page's script runs.
    await waitForHydration(form);
    await page.keyboard.press('Tab');
    await failed;

    await fillContact(form, 'toasts.retry.e2e@kava.lviv.ua');
    await submit(form, 'Надіслати повідомлення');
    await page.locator('.Toastify__toast', { hasText: TOAST_MESSAGES.contactSuccess }).waitFor();
    expect(refused).toBe(2);
    expect(page.consoleErrors.filter((error) => !/toasts could not be loaded|ERR_FAILED/.test(error))).toEqual([]);
    await page.context().close();
  });

  it("wear the site's colours and type, not the library's green and red, at the spec's width", async () => {
    const page = await openPage(suite.browser, suite.site.baseUrl);
    const form = page.locator(`#${SECTION_IDS.contact} form`);
    await form.waitFor();
    const [success, danger, white] = await Promise.all([
      siteColour(page, '--color-success'),
      siteColour(page, '--color-danger'),
      siteColour(page, '--color-surface'),
    ]);

    await fillContact(form, 'toasts.e2e@kava.lviv.ua');
    await submit(form, 'Надіслати повідомлення');
    const done = await toastLook(page, TOAST_MESSAGES.contactSuccess);
    expect(done).toEqual({ stripe: success, background: white, font: expect.stringContaining('Montserrat'), width: TOAST_WIDTH_PX, bar: success });

    await page.route('**/api/contact', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }));
    await fillContact(form, 'toasts.e2e@kava.lviv.ua');
    await submit(form, 'Надіслати повідомлення');
    const failed = await toastLook(page, TOAST_MESSAGES.contactError);
    expect(failed).toEqual({ stripe: danger, background: white, font: expect.stringContaining('Montserrat'), width: TOAST_WIDTH_PX, bar: danger });
    await page.context().close();
  });
});
