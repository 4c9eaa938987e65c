import type { Page } from 'playwright-core';
import { HOME_SECTION_ORDER, SECTION_IDS, typeset, type Service } from '@agency/shared';
import { accessibleExpanded, describeInBrowser, expectNoSeriousA11yViolations, MENU_BUTTON, openPage, SECTION_NAV, waitForHydration } from './support/browser';
import { setUpSiteAndBrowser } from './support/suite';

/** uk-UA groups thousands with U+00A0 or U+202F depending on ICU; a visitor sees a space. */
const normalise = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, ' ').trim();

/** Waits until every remote has filled its slot, so checks see the finished page. */
async function waitForFullPage(page: Page): Promise<void> {
  await page.locator(`#${SECTION_IDS.services} article h3`).first().waitFor();
  await page.locator(`#${SECTION_IDS.blog} h2`).first().waitFor();
  await page.locator(`#${SECTION_IDS.vacancies} form`).waitFor();
  await page.locator(`#${SECTION_IDS.contact} form`).waitFor();
  await page.locator(`#${SECTION_IDS.team} img`).first().waitFor();
}

describeInBrowser('home page', () => {
  const suite = setUpSiteAndBrowser();
  let services: Service[];

  beforeAll(async () => {
    services = (await (await fetch(`${suite.site.baseUrl}/api/services`)).json()) as Service[];
  });

  it('shows every section in the spec order, each under its own heading, then the footer', async () => {
    const page = await openPage(suite.browser, suite.site.baseUrl);
    await waitForFullPage(page);

    const sections = await page.evaluate(() =>
      Array.from(document.querySelectorAll('main section[id]'), (section) => ({
        id: section.id,
        heading: section.querySelector('h1, h2')?.textContent?.trim() ?? '',
      })),
    );
    expect(sections.map((section) => section.id)).toEqual(HOME_SECTION_ORDER);
    for (const section of sections) expect(section.heading).not.toBe('');

    await expect(page.locator('h1').count()).resolves.toBe(1);
    await expect(page.locator(`#${SECTION_IDS.hero} h1`).count()).resolves.toBe(1);
    await expect(page.locator('main ~ footer').count()).resolves.toBe(1);
    await expect(page.locator('[data-remote-unavailable]').count()).resolves.toBe(0);
    await page.context().close();
  });

  it('renders the real services from the API, with "від N ₴" only where price_from is set', async () => {
    expect(services.length).toBeGreaterThan(0);
    expect(services.some((service) => typeof service.price_from !== 'number')).toBe(true);

    const page = await openPage(suite.browser, suite.site.baseUrl);
    const cards = page.locator(`#${SECTION_IDS.services} article`);
    await cards.first().waitFor();
    await expect(cards.count()).resolves.toBe(services.length);

    for (const [index, service] of services.entries()) {
      const card = cards.nth(index);
      await expect(card.locator('h3').textContent()).resolves.toBe(service.title);
      await expect(card.locator('img').getAttribute('src')).resolves.toBe(service.icon_url);
      await expect(card.locator('img').getAttribute('alt')).resolves.toContain(service.title);
      await expect(card.locator('li').allTextContents()).resolves.toEqual(service.features.map(typeset));
      const text = normalise((await card.textContent()) ?? '');
      if (typeof service.price_from !== 'number') {
        expect(text).not.toContain('₴');
      } else {
        const amount = normalise(new Intl.NumberFormat('uk-UA').format(service.price_from));
        expect(text).toContain(`від ${amount} ₴`);
      }
    }
    // The icons are real images the server serves.
    await page.locator(`#${SECTION_IDS.services}`).scrollIntoViewIfNeeded();
    const brokenIcons = await page.evaluate(async (id) => {
      const icons = Array.from(document.querySelectorAll<HTMLImageElement>(`#${id} article img`));
      for (const icon of icons) icon.loading = 'eager';
      await Promise.all(icons.map((icon) => icon.decode().catch(() => undefined)));
      return icons.filter((icon) => icon.naturalWidth === 0).map((icon) => icon.src);
    }, SECTION_IDS.services);
    expect(brokenIcons).toEqual([]);
    await page.context().close();
  });

  it('shows every service of a spec-shaped answer the browser fetches itself: no id or no price_from is no reason to hide one', async () => {
    // Only the spec's fields: one service without an id, one without price_from at all, one with
    // an individual price (null), and one malformed item, which alone is left out.
    const answer = [
      { id: 1, title: 'SMM та просування', description: 'Ведемо сторінки.', icon_url: '/media/services/smm.svg', features: ['Стратегія'], price_from: 12500 },
      { title: 'Контент-маркетинг', description: 'Пишемо.', icon_url: '/media/services/content.svg', features: ['Статті'], price_from: 9000 },
      { id: 3, title: 'Лідогенерація', description: 'Приводимо заявки.', icon_url: '/media/services/leads.svg', features: ['Воронка'] },
      { id: 4, title: 'Аналітика', description: 'Рахуємо.', icon_url: '/media/services/analytics.svg', features: [], price_from: null },
      { id: 5, title: 'Зламана', description: 'Без списку.', icon_url: '/media/services/seo.svg', features: 'не список' },
    ];
    const page = await openPage(suite.browser, `${suite.site.baseUrl}/privacy`);
    let fetched = 0;
    await page.route(
      (url) => url.pathname === '/api/services',
      (route) => {
        fetched += 1;
        return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(answer) });
      },
    );
    // A client-side navigation: the page the server sent stays, so no server data exists for `/`.
    const homeLink = page.locator('header a[href="/"]').first();
    await waitForHydration(homeLink);
    await page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));
    await homeLink.click();
    const cards = page.locator(`#${SECTION_IDS.services} article`);
    await cards.first().waitFor();
    await expect(page.evaluate(() => (window as { stillTheSamePage?: boolean }).stillTheSamePage)).resolves.toBe(true);
    expect(fetched).toBe(1);

    const shown = await cards.evaluateAll((articles) =>
      articles.map((article) => ({ title: article.querySelector('h3')?.textContent, text: article.textContent ?? '' })),
    );
    expect(shown.map((card) => card.title)).toEqual(['SMM та просування', 'Контент-маркетинг', 'Лідогенерація', 'Аналітика']);
    const prices = shown.map((card) => /від ([\d ]+) ₴/.exec(normalise(card.text))?.[1]?.replace(/\D/g, '') ?? null);
    expect(prices).toEqual(['12500', '9000', null, null]);
    expect(page.consoleErrors.some((error) => error.includes('left out 1 malformed item(s)'))).toBe(true);
    await page.context().close();
  });

  it('asks the API for no services or posts on a page the server sent them in, even once every section is hydrated', async () => {
    const page = await openPage(suite.browser);
    const asked: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname === '/api/services' || pathname === '/api/blog') asked.push(pathname);
    });
    await page.goto(suite.site.baseUrl);
    await waitForFullPage(page);
    await waitForHydration(page.locator(`#${SECTION_IDS.services} article`).first());
    await waitForHydration(page.locator(`#${SECTION_IDS.blog} a[href^="/blog/"]`).first());
    expect(asked).toEqual([]);
    await page.context().close();
  });

  it('requests the services and the blog list together on the way home from another page, not one after the other', async () => {
    const page = await openPage(suite.browser, `${suite.site.baseUrl}/privacy`);
    // Each response is held until the other request has been sent: if either waited for the other
    // to finish, neither would ever complete and the page would never show services or posts.
    let servicesSent!: () => void;
    let blogSent!: () => void;
    const servicesRequested = new Promise<void>((resolve) => (servicesSent = resolve));
    const blogRequested = new Promise<void>((resolve) => (blogSent = resolve));
    await page.route(
      (url) => url.pathname === '/api/services',
      async (route) => {
        servicesSent();
        await blogRequested;
        await route.continue();
      },
    );
    await page.route(
      (url) => url.pathname === '/api/blog',
      async (route) => {
        blogSent();
        await servicesRequested;
        await route.continue();
      },
    );
    const homeLink = page.locator('header a[href="/"]').first();
    await waitForHydration(homeLink);
    await homeLink.click();
    await page.locator(`#${SECTION_IDS.services} article h3`).first().waitFor({ timeout: 20_000 });
    await page.locator(`#${SECTION_IDS.blog} a[href^="/blog/"]`).first().waitFor({ timeout: 20_000 });
    await page.context().close();
  });

  it('"Почати проєкт" takes the visitor to the contact form and "Наші кейси" to the case studies', async () => {
    const page = await openPage(suite.browser, suite.site.baseUrl, { reducedMotion: 'reduce' });
    await waitForFullPage(page);

    await page.getByRole('link', { name: 'Почати проєкт' }).click();
    await page.waitForFunction(() => location.hash === '#contact');
    await page.locator(`#${SECTION_IDS.contact} form`).waitFor();
    await expect(page.locator(`#${SECTION_IDS.contact} form`).isVisible()).resolves.toBe(true);
    await page.waitForFunction(() => {
      const top = document.getElementById('contact')?.getBoundingClientRect().top ?? 9999;
      return Math.abs(top) < window.innerHeight / 2;
    });

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('link', { name: 'Наші кейси' }).focus();
    await page.keyboard.press('Enter');
    // The blog listing filtered to case studies (e2e/blog.e2e.test.ts checks what it shows).
    await page.waitForURL(`${suite.site.baseUrl}/blog?category=${encodeURIComponent('Кейси')}`);
    await page.getByRole('heading', { level: 1, name: 'Блог' }).waitFor();
    await page.context().close();
  });

  it.each([360, 375, 768, 1440])('has no horizontal scroll at %i px', async (width) => {
    const page = await openPage(suite.browser, suite.site.baseUrl, { viewport: { width, height: 800 } });
    await waitForFullPage(page);
    const overflow = await page.evaluate(() => {
      const root = document.documentElement;
      const wide = Array.from(document.querySelectorAll('body *'))
        .filter((element) => element.getBoundingClientRect().right > root.clientWidth + 1)
        .slice(0, 5)
        .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
      return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide };
    });
    expect(overflow.wide).toEqual([]);
    expect(overflow.scrollWidth).toBeLessThanOrEqual(overflow.clientWidth);
    await page.context().close();
  });

  it('opens the section menu on a phone and reaches a section from it', async () => {
    const page = await openPage(suite.browser, suite.site.baseUrl, { viewport: { width: 375, height: 800 }, reducedMotion: 'reduce' });
    await waitForFullPage(page);
    const menu = page.locator(MENU_BUTTON);
    const nav = page.getByRole('navigation', SECTION_NAV);
    await expect(menu.innerText()).resolves.toBe('Меню');
    await expect(accessibleExpanded(page, MENU_BUTTON)).resolves.toBe(false);
    await expect(nav.isVisible()).resolves.toBe(false);
    await menu.click();
    await expect(accessibleExpanded(page, MENU_BUTTON)).resolves.toBe(true);
    await expect(menu.innerText()).resolves.toBe('Закрити');
    await nav.getByRole('link', { name: 'Команда' }).click();
    await page.waitForFunction(() => location.hash === '#team');
    await nav.waitFor({ state: 'hidden' });
    await expect(accessibleExpanded(page, MENU_BUTTON)).resolves.toBe(false);
    await expect(menu.innerText()).resolves.toBe('Меню');
    await page.context().close();
  });

  it('has no serious or critical axe-core violations on / (desktop and phone)', async () => {
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 375, height: 800 },
    ]) {
      const page = await openPage(suite.browser, suite.site.baseUrl, { viewport });
      await waitForFullPage(page);
      await expectNoSeriousA11yViolations(page);
      await page.context().close();
    }
  });
});
