import type { Page } from 'playwright-core';
import { FORM_RESULTS, FORM_WITHOUT_SCRIPT_NOTE, SECTION_IDS, typeset, VACANCIES, type BlogPostSummary, type Service } from '@agency/shared';
import { createDatabase } from '../api/src/platform/db/connection';
import { describeInBrowser, openPage } from './support/browser';
import { setUpSiteAndBrowser } from './support/suite';

// The whole page in the server's HTML: every section readable with scripts off, the forms usable
// without them, and no layout shift for a visitor who scrolls fast while the sections' code
// arrives (each section keeps the server's markup, and its height, until React adopts it).

jest.setTimeout(180_000);

/** A thumb's fling on a phone: this far, this often (the shifts Google's field data counts). */
const FLING = { pixels: 700, everyMs: 150 };
/** Google's "good" is 0.1; the site keeps half of it. */
const CLS_BUDGET = 0.05;
/** A slow phone network, so the visitor is far down the page before the sections' code arrives. */
const SLOW_NETWORK = { offline: false, latency: 400, downloadThroughput: (400 * 1024) / 8, uploadThroughput: (400 * 1024) / 8 };

/**
 * Each home section's text as a visitor reads it, keyed by section id. A dropdown reads as what it
 * shows (the browser's own <select> would read as all of its options).
 */
function sectionTexts(page: Page): Promise<Record<string, string>> {
  return page.evaluate((ids) => {
    const texts: Record<string, string> = {};
    for (const id of ids) {
      const section = document.getElementById(id);
      if (!section) continue;
      // A section far from the viewport is not rendered (content-visibility), and innerText
      // reads only rendered text: drawn as it is once the visitor reaches it.
      section.style.contentVisibility = 'visible';
      const selects = [...section.querySelectorAll('select')].map((select) => {
        const shown = document.createElement('span');
        shown.textContent = select.selectedOptions[0]?.textContent ?? '';
        select.replaceWith(shown);
        return { select, shown };
      });
      texts[id] = section.innerText.replace(/\s+/g, ' ').trim();
      for (const { select, shown } of selects) shown.replaceWith(select);
      section.style.contentVisibility = '';
    }
    return texts;
  }, Object.values(SECTION_IDS));
}

/** Scrolls down as a fling does until the page's end, then waits for what loads to settle. */
async function fling(page: Page): Promise<void> {
  for (;;) {
    const atEnd = await page.evaluate(() => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2);
    if (atEnd) break;
    await page.mouse.wheel(0, FLING.pixels);
    await page.waitForTimeout(FLING.everyMs);
  }
  await page.waitForLoadState('networkidle');
}

describeInBrowser('every section in the server’s HTML', () => {
  const suite = setUpSiteAndBrowser();

  it('sends every section of the home page with the text a visitor reads once the page has run', async () => {
    const scripted = await openPage(suite.browser, `${suite.site.baseUrl}/`);
    await fling(scripted);
    await scripted.waitForFunction(() => document.querySelectorAll('[data-remote-pending]').length === 0);
    const withScripts = await sectionTexts(scripted);
    expect(scripted.consoleErrors).toEqual([]);
    await scripted.context().close();

    const plain = await openPage(suite.browser, `${suite.site.baseUrl}/`, { javaScriptEnabled: false });
    const withoutScripts = await sectionTexts(plain);
    await plain.context().close();
    for (const id of Object.values(SECTION_IDS)) expect([id, withoutScripts[id]]).toEqual([id, withScripts[id]]);

    // What each section is about, by the data it shows.
    const html = await (await fetch(`${suite.site.baseUrl}/`)).text();
    const services = (await (await fetch(`${suite.site.baseUrl}/api/services`)).json()) as Service[];
    const posts = (await (await fetch(`${suite.site.baseUrl}/api/blog?limit=3`)).json()) as BlogPostSummary[];
    const expected = [...services.map((service) => service.title), ...VACANCIES.map((vacancy) => vacancy.title), ...posts.map((post) => post.title)];
    expect(expected.filter((text) => !html.includes(text))).toEqual([]);
  });

  it('stores a contact message sent with scripts off, and says it was sent', async () => {
    const email = 'no.script.e2e@kava.lviv.ua';
    const page = await openPage(suite.browser, `${suite.site.baseUrl}/`, { javaScriptEnabled: false });
    const form = page.locator(`#${SECTION_IDS.contact} form`);
    await form.getByLabel(/^Імʼя/).fill('Ігор Бойко');
    await form.getByLabel(/^Електронна пошта/).fill(email);
    await form.getByLabel(/^Телефон/).fill('+380 67 222 33 44');
    await form.getByLabel(/^Послуга/).selectOption('smm');
    await form.getByLabel(/^Повідомлення/).fill('Пишу без JavaScript: потрібен сайт для пекарні.');
    await Promise.all([page.waitForURL('**/forms/contact/sent'), form.getByRole('button', { name: 'Надіслати повідомлення' }).click()]);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(FORM_RESULTS.contact.sent);
    await page.context().close();

    const db = createDatabase(suite.site.databaseUrl, { poolSize: 1 });
    try {
      const rows = await db.kysely.selectFrom('contact_messages').select(['name', 'service_type', 'message']).where('email', '=', email).execute();
      expect(rows).toEqual([{ name: 'Ігор Бойко', service_type: 'smm', message: 'Пишу без JavaScript: потрібен сайт для пекарні.' }]);
    } finally {
      await db.destroy();
    }
  });

  it('leaves the forms the server sent usable when their code cannot load: says so by the button, and the lead is stored', async () => {
    const email = 'forms.code.blocked@kava.lviv.ua';
    const page = await openPage(suite.browser, undefined, { lazySections: true });
    await page.route(/\/remotes\/forms\//, (route) => route.abort('blockedbyclient'));
    await page.goto(`${suite.site.baseUrl}/`);
    const form = page.locator(`#${SECTION_IDS.contact} form`);
    await form.scrollIntoViewIfNeeded();
    const note = form.getByText(typeset(FORM_WITHOUT_SCRIPT_NOTE));
    await note.waitFor({ state: 'visible', timeout: 30_000 });
    // Beside the button, and the message that the section is unavailable is not shown over the form.
    const [button, noteBox] = [await form.getByRole('button', { name: 'Надіслати повідомлення' }).boundingBox(), await note.boundingBox()];
    expect(noteBox!.y - (button!.y + button!.height)).toBeLessThan(80);
    await expect(page.locator('[data-remote-unavailable]').count()).resolves.toBe(0);

    await form.getByLabel(/^Імʼя/).fill('Оксана Гнатюк');
    await form.getByLabel(/^Електронна пошта/).fill(email);
    await form.getByLabel(/^Телефон/).fill('+380 50 444 55 66');
    await form.getByLabel(/^Повідомлення/).fill('Код форми не завантажився, але повідомлення дійшло.');
    await Promise.all([page.waitForURL('**/forms/contact/sent'), form.getByRole('button', { name: 'Надіслати повідомлення' }).click()]);
    await page.context().close();

    const db = createDatabase(suite.site.databaseUrl, { poolSize: 1 });
    try {
      await expect(db.kysely.selectFrom('contact_messages').select('name').where('email', '=', email).execute()).resolves.toEqual([{ name: 'Оксана Гнатюк' }]);
    } finally {
      await db.destroy();
    }
  });

  describe('a visitor who flings down the page', () => {
    const cases = [375, 1280].flatMap((width) => ['home', 'post'].flatMap((pageName) => ['fast', 'slow'].map((network) => ({ width, pageName, network }))));

    it.each(cases)('shifts nothing at $width px on the $pageName page on a $network network', async ({ width, pageName, network }) => {
      const path = pageName === 'home' ? '/' : `/blog/${((await (await fetch(`${suite.site.baseUrl}/api/blog?limit=1`)).json()) as BlogPostSummary[])[0]!.id}`;
      const page = await openPage(suite.browser, undefined, { viewport: { width, height: width < 800 ? 740 : 900 }, lazySections: true });
      await page.addInitScript(() => {
        const shifts: { value: number; sources: string[] }[] = [];
        (window as unknown as { __shifts: typeof shifts }).__shifts = shifts;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node?: Node }[] })[]) {
            if (entry.hadRecentInput) continue;
            shifts.push({ value: entry.value, sources: (entry.sources ?? []).map((source) => (source.node as Element | undefined)?.className?.toString() ?? source.node?.nodeName ?? '') });
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      if (network === 'slow') {
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Network.emulateNetworkConditions', SLOW_NETWORK);
      }
      // The fling starts as soon as the first screen is there, before the sections' code arrives.
      await page.goto(`${suite.site.baseUrl}${path}`, { waitUntil: 'domcontentloaded' });
      await fling(page);
      const shifts = await page.evaluate(() => (window as unknown as { __shifts: { value: number; sources: string[] }[] }).__shifts);
      const cls = shifts.reduce((sum, shift) => sum + shift.value, 0);
      expect({ cls: cls <= CLS_BUDGET ? 'within budget' : cls, shifts: cls <= CLS_BUDGET ? [] : shifts }).toEqual({ cls: 'within budget', shifts: [] });
      expect(page.consoleErrors).toEqual([]);
      await page.context().close();
    });
  });
});
