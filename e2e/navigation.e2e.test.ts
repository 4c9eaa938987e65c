import type { Page } from 'playwright-core';
import { SECTION_IDS, type BlogPostSummary } from '@agency/shared';
import { accessibleExpanded, describeInBrowser, MENU_BUTTON, openPage, SECTION_NAV } from './support/browser';
import { setUpSiteAndBrowser } from './support/suite';

jest.setTimeout(90_000);

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 800 };

/**
 * The first h1/h2 of an element's section, as a visitor sees it: its distance below the sticky
 * header, read again and again until it has not moved for a second and a half (the remotes and
 * their images have arrived).
 */
async function settledGapUnderHeader(page: Page, sectionId: string): Promise<number> {
  const read = () =>
    page.evaluate((id) => {
      const heading = document.getElementById(id)?.querySelector('h1, h2');
      const header = document.querySelector('header');
      return heading && header ? heading.getBoundingClientRect().top - header.getBoundingClientRect().bottom : null;
    }, sectionId);
  return settled(page, read);
}

async function settled(page: Page, read: () => Promise<number | null>): Promise<number> {
  const deadline = Date.now() + 30_000;
  let last: number | null = null;
  let stableSince = Date.now();
  while (Date.now() < deadline) {
    const value = await read();
    if (value === null || last === null || Math.abs(value - last) >= 1) stableSince = Date.now();
    else if (Date.now() - stableSince >= 1500) return value;
    last = value;
    await page.waitForTimeout(150);
  }
  throw new Error(`Never settled (last value ${last})`);
}

describeInBrowser('navigation between pages', () => {
  const suite = setUpSiteAndBrowser();
  let postPath: string;

  beforeAll(async () => {
    const posts = (await (await fetch(`${suite.site.baseUrl}/api/blog`)).json()) as BlogPostSummary[];
    postPath = `/blog/${posts[posts.length - 1]!.id}`;
  });

  // Sections below the first screen load as they near the viewport, as for visitors: what lies
  // above the target keeps arriving after the jump.
  const open = (path: string, viewport: typeof DESKTOP) =>
    openPage(suite.browser, `${suite.site.baseUrl}${path}`, { viewport, lazySections: true });

  async function followSectionLink(page: Page, from: 'header' | 'footer', label: string): Promise<void> {
    if (from === 'header') {
      const menu = page.locator(MENU_BUTTON);
      if (await menu.isVisible()) await menu.click();
      await page.getByRole('navigation', SECTION_NAV).getByRole('link', { name: label, exact: true }).click();
    } else {
      await page.locator('footer').getByRole('link', { name: label, exact: true }).click();
    }
  }

  it.each([
    { size: 'desktop', viewport: DESKTOP, from: 'header', label: 'Блог', sectionId: SECTION_IDS.blog },
    { size: 'desktop', viewport: DESKTOP, from: 'header', label: 'Контакти', sectionId: SECTION_IDS.contact },
    { size: 'desktop', viewport: DESKTOP, from: 'footer', label: 'Команда', sectionId: SECTION_IDS.team },
    { size: '375 px', viewport: PHONE, from: 'header', label: 'Блог', sectionId: SECTION_IDS.blog },
    { size: '375 px', viewport: PHONE, from: 'header', label: 'Контакти', sectionId: SECTION_IDS.contact },
    { size: '375 px', viewport: PHONE, from: 'footer', label: 'Вакансії', sectionId: SECTION_IDS.vacancies },
  ] as const)('from a post page ($size), the $from link "$label" lands on its section heading', async ({ viewport, from, label, sectionId }) => {
    const page = await open(postPath, viewport);
    await page.locator('article h1').waitFor();
    await followSectionLink(page, from, label);
    await page.waitForURL((url) => url.pathname === '/' && url.hash === `#${sectionId}`);
    const gap = await settledGapUnderHeader(page, sectionId);
    expect(gap).toBeGreaterThanOrEqual(0);
    expect(gap).toBeLessThanOrEqual(40);
    await page.context().close();
  });

  it('brings the visitor back to where they were on the home page after reading a post', async () => {
    const page = await open('/', DESKTOP);
    const card = page.locator(`#${SECTION_IDS.blog} a[href^="/blog/"]`).first();
    await page.locator(`#${SECTION_IDS.blog}`).scrollIntoViewIfNeeded();
    await card.waitFor();
    await card.scrollIntoViewIfNeeded();
    // What the visitor sees: where the card they click sits on the screen.
    const cardTop = () => card.evaluate((element) => element.getBoundingClientRect().top);
    const before = await settled(page, cardTop);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);

    await card.click();
    await page.locator('article h1').waitFor();
    await expect(page.evaluate(() => window.scrollY)).resolves.toBe(0);
    await page.mouse.move(200, 400);
    await page.mouse.wheel(0, 600);
    const postScroll = await settled(page, () => page.evaluate(() => window.scrollY));
    expect(postScroll).toBeGreaterThan(300);

    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/');
    await card.waitFor();
    const after = await settled(page, cardTop);
    expect(Math.abs(after - before)).toBeLessThanOrEqual(40);

    // And forward again: the post opens where it was left.
    await page.goForward();
    await page.locator('article h1').waitFor();
    const forward = await settled(page, () => page.evaluate(() => window.scrollY));
    expect(Math.abs(forward - postScroll)).toBeLessThanOrEqual(40);
    await page.context().close();
  });

  it('opens the phone menu over a dimmed page with a visible close control; a tap beside it closes it', async () => {
    const page = await open(postPath, PHONE);
    const menu = page.locator(MENU_BUTTON);
    await menu.click();
    const nav = page.getByRole('navigation', SECTION_NAV);
    await expect(nav.isVisible()).resolves.toBe(true);
    await expect(menu.innerText()).resolves.toBe('Закрити');
    await expect(menu.isVisible()).resolves.toBe(true);
    // The panel hangs right under the bar, across the screen.
    const [bar, panel] = await Promise.all([page.getByRole('banner').boundingBox(), nav.boundingBox()]);
    expect(panel).toMatchObject({ x: 0, width: PHONE.width });
    expect(Math.abs(panel!.y - (bar!.y + bar!.height))).toBeLessThanOrEqual(1);

    const backdrop = page.getByTestId('menu-backdrop');
    const box = await backdrop.boundingBox();
    expect(box).toEqual({ x: 0, y: 0, width: PHONE.width, height: PHONE.height });
    await expect(backdrop.evaluate((el) => getComputedStyle(el).backgroundColor)).resolves.toMatch(/^rgba\(.+, 0\.\d+\)$/);

    await page.mouse.click(PHONE.width / 2, PHONE.height - 20);
    await expect(nav.isVisible()).resolves.toBe(false);
    await expect(accessibleExpanded(page, MENU_BUTTON)).resolves.toBe(false);
    await expect(backdrop.isVisible()).resolves.toBe(false);

    // Escape closes it too, and leaves the focus on the button.
    await menu.click();
    await nav.waitFor();
    await page.keyboard.press('Escape');
    await expect(nav.isVisible()).resolves.toBe(false);
    await expect(menu.evaluate((button) => button === document.activeElement)).resolves.toBe(true);
    await page.context().close();
  });

  it('opens and closes the phone menu with JavaScript off', async () => {
    const page = await openPage(suite.browser, `${suite.site.baseUrl}/`, { viewport: PHONE, javaScriptEnabled: false });
    const menu = page.locator(MENU_BUTTON);
    const nav = page.getByRole('navigation', SECTION_NAV);
    await expect(menu.innerText()).resolves.toBe('Меню');
    await expect(nav.isVisible()).resolves.toBe(false);

    await menu.click();
    await expect(nav.getByRole('link', { name: 'Команда' }).isVisible()).resolves.toBe(true);
    await expect(menu.innerText()).resolves.toBe('Закрити');
    await expect(accessibleExpanded(page, MENU_BUTTON)).resolves.toBe(true);
    await expect(page.getByTestId('menu-backdrop').isVisible()).resolves.toBe(true);

    await menu.click();
    await expect(nav.isVisible()).resolves.toBe(false);
    await expect(accessibleExpanded(page, MENU_BUTTON)).resolves.toBe(false);
    await page.context().close();
  });

  it('keeps the post page header on one uncrowded row at 360 and 375 px', async () => {
    for (const width of [360, 375]) {
      const page = await open(postPath, { width, height: 800 });
      await page.locator('article h1').waitFor();
      const items = await page.evaluate(() =>
        Array.from(document.querySelectorAll('header a, header button'))
          .filter((element) => element.getBoundingClientRect().width > 0)
          .map((element) => {
            const { left, right, top, bottom } = element.getBoundingClientRect();
            return { text: (element as HTMLElement).innerText.trim(), left, right, top, bottom };
          }),
      );
      expect(items.map((item) => item.text)).toEqual(['Хвиля', '← На головну', 'Меню']);
      // One row: every control shares the row's vertical middle; none touches its neighbour.
      const middles = items.map((item) => (item.top + item.bottom) / 2);
      expect(Math.max(...middles) - Math.min(...middles)).toBeLessThanOrEqual(4);
      for (let index = 1; index < items.length; index += 1) {
        expect(items[index]!.left - items[index - 1]!.right).toBeGreaterThanOrEqual(8);
      }
      expect(items[items.length - 1]!.right).toBeLessThanOrEqual(width);
      await page.context().close();
    }
  });

  it('lines the header up with the content grid on a wide screen', async () => {
    const page = await open('/', { width: 1440, height: 900 });
    await page.locator('#about h2').waitFor();
    const edges = await page.evaluate(() => {
      const brand = document.querySelector('header a')!.getBoundingClientRect();
      const cta = Array.from(document.querySelectorAll('header nav a')).pop()!.getBoundingClientRect();
      const section = document.getElementById('about')!;
      const style = getComputedStyle(section);
      const box = section.getBoundingClientRect();
      return {
        brandLeft: brand.left,
        ctaRight: cta.right,
        gridLeft: box.left + parseFloat(style.paddingLeft),
        gridRight: box.right - parseFloat(style.paddingRight),
        headingLeft: document.querySelector('#about h2')!.getBoundingClientRect().left,
        heroHeadingLeft: document.querySelector('#hero h1')!.getBoundingClientRect().left,
        contentWidth: parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--content-width')),
      };
    });
    // The grid is the content width, centred: the header's ends and the sections' text share it.
    expect(edges.gridRight - edges.gridLeft).toBe(edges.contentWidth);
    expect(Math.abs(edges.brandLeft - edges.gridLeft)).toBeLessThanOrEqual(1);
    expect(Math.abs(edges.ctaRight - edges.gridRight)).toBeLessThanOrEqual(1);
    expect(Math.abs(edges.headingLeft - edges.gridLeft)).toBeLessThanOrEqual(1);
    expect(Math.abs(edges.heroHeadingLeft - edges.gridLeft)).toBeLessThanOrEqual(1);
    await page.context().close();
  });

  it('shows the 404 page inside the site frame for an unknown path, with a way home', async () => {
    const page = await open('/no-such-page', DESKTOP);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Сторінку не знайдено');
    await expect(page.locator('header').getByRole('link', { name: /на головну/ }).first().isVisible()).resolves.toBe(true);
    await expect(page.locator('footer').isVisible()).resolves.toBe(true);
    await page.locator('main').getByRole('link', { name: 'На головну' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.locator(`#${SECTION_IDS.hero} h1`).waitFor();
    await page.context().close();
  });
});
