import type { Browser } from 'playwright-core';
import { HOME_SECTION_ORDER, SECTION_IDS } from '@agency/shared';
import { accessibleExpanded, describeInBrowser, launchBrowser, MENU_BUTTON, openPage, SECTION_NAV, waitForHydration } from './support/browser';
import { freePort, startSite, type RunningSite } from './support/site';
import { setUpSiteAndBrowser } from './support/suite';

// Counts React renderers: every react-dom copy on the page calls the devtools hook's inject().
const COUNT_REACT_RENDERERS = `
  window.__reactRenderers = 0;
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    renderers: new Map(),
    supportsFiber: true,
    isDisabled: false,
    inject() { window.__reactRenderers += 1; return window.__reactRenderers; },
    onCommitFiberRoot() {},
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    onScheduleFiberRoot() {},
    checkDCE() {},
  };
`;

// Each remote's CSS Modules classes carry its federation name, so rendered markup tells which
// remote produced it.
const HOME = '[class^="agency_home-"]';
const BLOG = '[class^="agency_blog-"]';
const FORMS = '[class^="agency_forms-"]';

describeInBrowser('composed site', () => {
  const suite = setUpSiteAndBrowser();

  it('renders the pieces of all three remotes in the spec order with exactly one React renderer', async () => {
    const page = await openPage(suite.browser);
    await page.addInitScript(COUNT_REACT_RENDERERS);
    await page.goto(suite.site.baseUrl);

    const expectations: [string, string][] = [
      [SECTION_IDS.hero, HOME],
      [SECTION_IDS.about, HOME],
      [SECTION_IDS.services, HOME],
      [SECTION_IDS.reasons, HOME],
      [SECTION_IDS.team, HOME],
      [SECTION_IDS.vacancies, HOME],
      [SECTION_IDS.vacancies, FORMS],
      [SECTION_IDS.blog, BLOG],
      [SECTION_IDS.contact, HOME],
      [SECTION_IDS.contact, FORMS],
    ];
    // Hydrated, not only in the server's HTML: each remote's React has taken its markup over, so
    // every react-dom copy the page loads has registered by the count below.
    for (const [section, remote] of expectations) {
      await waitForHydration(page.locator(`#${section} ${remote}`));
    }
    await expect(page.locator('[data-remote-unavailable]').count()).resolves.toBe(0);

    const order = await page.evaluate(() => Array.from(document.querySelectorAll('main section[id]'), (s) => s.id));
    expect(order.filter((id) => HOME_SECTION_ORDER.includes(id as never))).toEqual(HOME_SECTION_ORDER);
    const footerAfterMain = await page.evaluate(
      () => !!document.querySelector('main ~ footer') && document.querySelectorAll('h1').length === 1,
    );
    expect(footerAfterMain).toBe(true);
    await expect(page.evaluate(() => (window as unknown as { __reactRenderers: number }).__reactRenderers)).resolves.toBe(1);
    await page.context().close();
  });

  it('serves a deep link to a blog post through the shell', async () => {
    const page = await openPage(suite.browser, `${suite.site.baseUrl}/blog/1`);
    await page.getByRole('link', { name: /на головну/i }).first().waitFor();
    await page.locator(`main ${BLOG}`).first().waitFor();
    await expect(page.getByRole('contentinfo').count()).resolves.toBe(1);
    await page.context().close();
  });

  it('answers a tap made the moment a phone page has loaded', async () => {
    // The page is on screen (server-rendered) before its code runs, so a visitor can tap as soon as
    // it has loaded, whether or not React has adopted the page by then.
    for (const path of ['/', '/blog/1']) {
      const page = await openPage(suite.browser, undefined, { viewport: { width: 375, height: 800 }, isMobile: true });
      await page.addInitScript((menuButton) => {
        window.addEventListener('load', () => {
          const menu = document.querySelector<HTMLButtonElement>(menuButton);
          document.documentElement.dataset.tappedAtLoad = String(Boolean(menu));
          menu?.click();
        });
      }, MENU_BUTTON);
      await page.goto(`${suite.site.baseUrl}${path}`);
      await expect(page.locator('html').getAttribute('data-tapped-at-load')).resolves.toBe('true');
      await page.getByRole('navigation', SECTION_NAV).waitFor({ timeout: 5000 });
      await expect(page.locator(MENU_BUTTON).innerText()).resolves.toBe('Закрити');
      await expect(accessibleExpanded(page, MENU_BUTTON)).resolves.toBe(true);
      await page.context().close();
    }
  });
});

describeInBrowser('remote locations at run time', () => {
  let browser: Browser;
  let formsHost: RunningSite;
  let site: RunningSite;
  let deadSite: RunningSite;

  beforeAll(async () => {
    browser = await launchBrowser();
    // Started as the README says (`npm run serve`); the suites start every other site without npm.
    formsHost = await startSite({}, { throughNpm: true });
    const deadPort = await freePort();
    [site, deadSite] = await Promise.all([
      // The forms remote is taken from another origin, as if deployed on its own.
      startSite({ REMOTE_FORMS_URL: `${formsHost.baseUrl}/remotes/forms/mf-manifest.json` }),
      startSite({ REMOTE_BLOG_URL: `http://127.0.0.1:${deadPort}/mf-manifest.json` }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([browser?.close(), formsHost?.stop(), site?.stop(), deadSite?.stop()]);
  });

  it('fetches each remote manifest from the URL the server announces', async () => {
    const page = await openPage(browser);
    const manifests: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('mf-manifest.json')) manifests.push(request.url());
    });
    await page.goto(site.baseUrl);
    await page.locator(`#${SECTION_IDS.contact} ${FORMS}`).first().waitFor();
    await page.locator(`#${SECTION_IDS.blog} ${BLOG}`).first().waitFor();
    expect(new Set(manifests)).toEqual(
      new Set([
        `${site.baseUrl}/remotes/home/mf-manifest.json`,
        `${site.baseUrl}/remotes/blog/mf-manifest.json`,
        `${formsHost.baseUrl}/remotes/forms/mf-manifest.json`,
      ]),
    );
    expect(page.consoleErrors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
    await page.context().close();
  });

  it('keeps the page working when one remote is down, with a message in its slot', async () => {
    const page = await openPage(browser, deadSite.baseUrl);
    const slot = page.locator(`#${SECTION_IDS.blog} [data-remote-unavailable]`);
    await slot.waitFor();
    await expect(slot.textContent()).resolves.toMatch(/тимчасово недоступний/);
    await page.locator(`#${SECTION_IDS.hero} ${HOME}`).first().waitFor();
    await page.locator(`#${SECTION_IDS.contact} ${FORMS}`).first().waitFor();
    await expect(page.locator('h1').count()).resolves.toBe(1);

    // The post page of a dead blog remote shows a message instead of a blank page.
    await page.goto(`${deadSite.baseUrl}/blog/1`);
    await expect(page.locator('main [data-remote-unavailable]').textContent()).resolves.toMatch(/статтю/);
    await page.context().close();
  });
});
