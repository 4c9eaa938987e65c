import AxeBuilder from '@axe-core/playwright';
import path from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from './chromium';

/** `describe` for browser suites: skipped (loudly, by the global setup) when no Chromium exists. */
// Under CI the browser suite always runs (the global setup fails there when Chromium is missing).
export const describeInBrowser = process.env.E2E_SKIP && !process.env.CI ? describe.skip : describe;

/** The header's menu button on narrow screens; its name follows its state, aria-controls names it for good. */
export const MENU_BUTTON = 'button[aria-controls="site-nav"]';

/** The header's section navigation, which the menu button opens on narrow screens. */
export const SECTION_NAV = { name: 'Розділи сайту' } as const;

/**
 * Whether the browser tells assistive technology that the element is expanded: read from
 * Chromium's accessibility tree, which also knows states no attribute carries (a popover's
 * invoker, for one). Undefined when the element has no such state.
 */
export async function accessibleExpanded(page: Page, selector: string): Promise<boolean | undefined> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    const expanded = nodes[0]?.properties?.find((property) => property.name === 'expanded');
    return expanded === undefined ? undefined : Boolean(expanded.value.value);
  } finally {
    await cdp.detach();
  }
}

/** Starts Chromium at the priority of the suite that starts it (the script says why). */
const CHROMIUM_AT_GIVEN_PRIORITY = path.join(__dirname, 'chromium-at-given-priority.sh');

/** The suite's Chromium; `extraArgs` after the suite's own flags (`--user-agent=…`). */
export function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  const executable = findChromium();
  const args = [...CHROMIUM_ARGS, ...extraArgs];
  if (!executable) return chromium.launch({ headless: true, args });
  return chromium.launch({
    executablePath: CHROMIUM_AT_GIVEN_PRIORITY,
    env: { ...process.env, SUITE_CHROMIUM: executable },
    headless: true,
    args,
  });
}

export interface OpenPageOptions extends BrowserContextOptions {
  /**
   * Keep the home page's lower sections unloaded until scrolled near, as for visitors. Off by
   * default: most suites test what the sections do, so the page behaves as in a browser without
   * IntersectionObserver, where every section loads at once (the site's own fallback).
   */
  lazySections?: boolean;
}

/** A page in its own context (what @axe-core/playwright needs), with browser errors collected. */
export async function openPage(
  browser: Browser,
  url?: string,
  { lazySections = false, ...options }: OpenPageOptions = {},
): Promise<Page & { consoleErrors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'uk-UA', ...options });
  if (!lazySections) {
    await context.addInitScript(() => {
      delete (window as { IntersectionObserver?: unknown }).IntersectionObserver;
    });
  }
  const page = (await context.newPage()) as Page & { consoleErrors: string[] };
  page.consoleErrors = [];
  page.on('console', (message) => {
    // A failed resource's message does not say which one; its location does.
    const { url } = message.location();
    if (message.type() === 'error') page.consoleErrors.push(url && message.text().startsWith('Failed to load resource') ? `${message.text()} ${url}` : message.text());
  });
  page.on('pageerror', (error) => page.consoleErrors.push(error.message));
  if (url) await page.goto(url);
  return page;
}

/**
 * Waits until React has taken over `locator`'s element (its remote loaded and hydrated the server's
 * markup): before that a link is a plain one, which reloads the page and carries no history state.
 */
export async function waitForHydration(locator: Locator): Promise<void> {
  await locator.first().waitFor();
  await locator
    .first()
    .evaluate((element) =>
      new Promise<void>((resolve) => {
        const check = () => (Object.keys(element).some((key) => key.startsWith('__reactFiber')) ? resolve() : setTimeout(check, 50));
        check();
      }),
    );
}

/**
 * axe-core for the page, reporting violations in full: a test reads nothing else, and axe then
 * names one element, not every element, of each rule that passed or did not apply, which is most
 * of its time on a long page.
 */
export function violationsAxe(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
}

/** Runs axe-core and fails on serious or critical violations, listing them readably. */
export async function expectNoSeriousA11yViolations(page: Page, include?: string): Promise<void> {
  let builder = violationsAxe(page);
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(report).toEqual([]);
}

/**
 * In the page: what has not finished loading (a pending slot, a placeholder, a slot React has not
 * taken over), as a list when `report`, else whether nothing is left. A pending section passed over
 * while the page was still growing is brought into view. Self-contained: it runs in the browser.
 */
function unfinished(report: boolean): string[] | boolean {
  const pending = Array.from(document.querySelectorAll('[data-remote-pending]'));
  const placeholders = document.querySelectorAll('[data-testid$="placeholder"], [data-testid$="placeholders"]');
  // A lower section the server sent stays as sent until the visitor nears it.
  const unhydrated = Array.from(document.querySelectorAll('[data-remote-module]')).filter(
    (slot) => !Object.keys(slot).some((key) => key.startsWith('__reactFiber')),
  );
  // The slot's wrapper has no box of its own (display: contents): its parent is scrolled to.
  (pending[0] ?? unhydrated[0]?.parentElement)?.scrollIntoView({ block: 'center' });
  const parts = [
    ...pending.map((slot) => `pending ${slot.getAttribute('data-remote-pending')}`),
    ...Array.from(placeholders, (element) => `placeholder ${element.getAttribute('data-testid')}`),
    ...unhydrated.map((slot) => `not hydrated ${slot.getAttribute('data-remote-module')}`),
  ];
  return report ? parts : parts.length === 0;
}

/**
 * Brings the page to what a visitor ends with: scrolled through from top to bottom, so every
 * section below the first screen loads its remote, then waits until nothing is unfinished. On
 * time-out it says what was still missing.
 */
export async function loadEverything(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  for (let y = 0; ; y += 600) {
    const height = await page.evaluate((top) => {
      // Instant: the site scrolls smoothly, and animating each step only costs the browser time.
      window.scrollTo({ top, behavior: 'instant' });
      return document.documentElement.scrollHeight;
    }, y);
    if (y > height) break;
    await page.waitForTimeout(50);
  }
  try {
    await page.waitForFunction(unfinished, false, { timeout: 30_000, polling: 100 });
  } catch (error) {
    const left = await page.evaluate(unfinished, true);
    throw new Error(`${page.url()} did not finish loading: ${String(left)}`, { cause: error });
  }
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
}
