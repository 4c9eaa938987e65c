import { rmSync } from 'node:fs';
import { RELEASE_BUCKET_COOKIE, SECTION_IDS, STAFF_CSRF_HEADER, STAFF_PATHS, type RemotesDocument } from '@agency/shared';
import type { Page } from 'playwright-core';
import { eventually } from '../api/test/helpers/eventually';
import { STAFF_MESSAGES } from '../api/src/staff/common/staff-messages';
import { describeInBrowser, expectNoSeriousA11yViolations, launchBrowser, openPage } from './support/browser';
import { TEASER_ERROR, TEASER_SOURCE, throwingBlogBuild } from './support/changed-blog-build';
import { runRelease, startSite, type RunningSite } from './support/site';
import { horizontalOverflow, releaseManagerPage } from './support/staff-console';

// «Релізи» in a real Chromium on one site: a release manager for the blog watches a broken
// candidate beside the current release, promotes and rolls back from the console while a
// visitor's browser follows, is refused when the state moved on under the screen, and can do
// nothing to the forms. One site and one browser for the whole file.
jest.setTimeout(180_000);

/** What a visitor's browser in the candidate's half gets (RELEASE_BUCKETS: 10 000; a 50 % canary takes buckets below 5 000). */
const CANDIDATE_BUCKET = '0';
const CURRENT_BUCKET = '9999';

describeInBrowser('«Релізи» in the staff console', () => {
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let site: RunningSite;
  let manager: Page & { consoleErrors: string[] };
  const cleanUp: string[] = [];
  const visitors: Page[] = [];
  let good = '';
  let broken = '';
  let brokenLine = 0;

  /** `npm run release -- <args>` on the site, as an operator on the server (another "tab" changing the state). */
  const release = (...args: string[]) => runRelease(site, ...args);

  /** The blog release `/remotes.json` names for a browser of bucket `bucket`. */
  async function servedBlog(bucket?: string): Promise<string> {
    const response = await fetch(`${site.baseUrl}/remotes.json`, { headers: bucket ? { cookie: `${RELEASE_BUCKET_COOKIE}=${bucket}` } : {} });
    return ((await response.json()) as RemotesDocument).remotes.blog.release;
  }

  /** A visitor's browser of bucket `bucket`, on the home page. */
  async function visitor(bucket: string): Promise<Page> {
    const page = await openPage(browser, undefined, { lazySections: true });
    await page.context().addCookies([{ name: RELEASE_BUCKET_COOKIE, value: bucket, url: site.siteUrl }]);
    await page.goto(site.siteUrl);
    visitors.push(page);
    return page;
  }

  /** The blog release the visitor's page would load now (its remotes document, as a page asks after a failed load). */
  const visitorBlog = (page: Page) => page.evaluate(async () => ((await (await fetch('/remotes.json')).json()) as { remotes: { blog: { release: string } } }).remotes.blog.release);

  /** Polls the visitor's remotes document until it names `id`; fails past `ms`. */
  async function visitorSees(page: Page, id: string, ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    for (;;) {
      const seen = await visitorBlog(page);
      if (seen === id) return;
      if (Date.now() > deadline) throw new Error(`the visitor's browser still loads blog ${seen}, not ${id}, ${ms} ms after the console's change`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const openBlog = async () => {
    await manager.goto(`${site.siteUrl}${STAFF_PATHS.releases}?app=blog`);
    await manager.getByRole('heading', { name: 'Застосунок blog' }).waitFor();
  };

  /** Clicks `button` of the actions, then the dialog's `confirm`; resolves once the console says it is done or refused. */
  async function act(button: string, dialog: string, confirm: string): Promise<void> {
    const actions = manager.getByRole('region', { name: 'Дії з релізами blog' });
    await actions.getByRole('button', { name: button }).click();
    await manager.getByRole('dialog', { name: dialog }).getByRole('button', { name: confirm }).click();
    await actions.locator('[role="status"], [role="alert"]').first().waitFor();
  }

  beforeAll(async () => {
    const throwing = throwingBlogBuild();
    cleanUp.push(throwing.dir);
    brokenLine = throwing.line;
    [browser, site] = await Promise.all([launchBrowser(), startSite({}, { siteHost: 'localhost' })]);
    good = /blog release (\S+) is now current/.exec(release('blog'))![1]!;
    release('forms');
    // A 50 % canary of a blog whose teaser throws in the browser, judged only after many views: it stays a candidate.
    broken = /blog release (\S+) is the candidate/.exec(release('blog', '--canary', '50', '--dist', throwing.dist, '--min-views', '100000'))![1]!;
    // The site reads the releases about once a second.
    await eventually('the site to serve both releases', () => Promise.all([servedBlog(CURRENT_BUCKET), servedBlog(CANDIDATE_BUCKET)]), (served) => served.join() === [good, broken].join(), 10_000, 100);
    manager = await releaseManagerPage(browser, site, 'rm-blog@khvylia.example', ['blog']);
  });

  afterAll(async () => {
    await Promise.all([browser?.close(), site?.stop()]);
    cleanUp.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  });

  it("shows a broken candidate's errors, at their source, beside the current release's", async () => {
    // A visitor in the candidate's half sees the teaser fail, and leaves: its browser reports it.
    const page = await visitor(CANDIDATE_BUCKET);
    await page.locator(`#${SECTION_IDS.blog}`).scrollIntoViewIfNeeded();
    await page.locator(`#${SECTION_IDS.blog} [data-remote-unavailable="blog/BlogTeaser"]`).waitFor();
    await page.goto('about:blank');

    await openBlog();
    const errors = manager.getByRole('region', { name: 'Найчастіші помилки' });
    const candidateErrors = errors.getByRole('region', { name: 'Помилки: Кандидат (50 %)' });
    await eventually(
      "the candidate's error in «Релізи»",
      async () => {
        await manager.getByRole('button', { name: 'Оновити' }).click();
        await manager.getByRole('heading', { name: 'Застосунок blog' }).waitFor();
        return (await candidateErrors.textContent({ timeout: 10_000 })) ?? '';
      },
      (text) => text.includes(TEASER_ERROR),
      60_000,
      500,
    );
    await expect(candidateErrors.textContent()).resolves.toMatch(new RegExp(`у ${TEASER_SOURCE.replaceAll('.', '\\.')}:${brokenLine}:\\d+`));
    await expect(errors.getByRole('region', { name: 'Помилки: Поточний' }).textContent()).resolves.toContain('Помилок не повідомлено.');
    const compare = manager.getByRole('table', { name: 'Показники релізів поруч' });
    await expect(compare.getByRole('columnheader').allTextContents()).resolves.toEqual(['Показник', `Кандидат (50 %)${broken}`, `Поточний${good}`]);
    const errorRow = (await compare.getByRole('row', { name: /^Помилки на сторінці/ }).getByRole('cell').allTextContents()).map(Number);
    expect(errorRow[0]).toBeGreaterThan(0);
    expect(errorRow[1]).toBe(0);
    await expect(manager.getByRole('region', { name: 'Канарка' }).textContent()).resolves.toContain('Сайт чекає на більше даних');
  });

  it('is clean for axe and no wider than the screen, at 375 and 1280 px', async () => {
    manager.consoleErrors.length = 0;
    await openBlog();
    for (const width of [375, 1280]) {
      await manager.setViewportSize({ width, height: 800 });
      await manager.getByRole('region', { name: 'Дії з релізами blog' }).waitFor();
      const overflow = await horizontalOverflow(manager);
      // What sticks out, named in the failure (elements in a table's own scroller are clipped by it).
      const wide =
        overflow === 0
          ? []
          : await manager.evaluate(() =>
              [...document.querySelectorAll('body *')]
                .filter((element) => !element.closest('thead') && element.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
                .slice(0, 5)
                .map((element) => `${element.tagName}.${element.className} ${Math.round(element.getBoundingClientRect().width)} px: ${element.textContent?.slice(0, 60)}`),
            );
      expect({ width, overflow, wide }).toEqual({ width, overflow: 0, wide: [] });
      await expectNoSeriousA11yViolations(manager);
      await manager.getByRole('region', { name: 'Дії з релізами blog' }).getByRole('button', { name: 'Відкотити кандидата' }).click();
      await manager.getByRole('dialog', { name: 'Відкотити кандидата?' }).waitFor();
      await expectNoSeriousA11yViolations(manager);
      await manager.getByRole('dialog').getByRole('button', { name: 'Скасувати' }).click();
    }
    expect(manager.consoleErrors).toEqual([]);
  });

  it("promotes and rolls back from the console, and a visitor's browser follows within 2 s", async () => {
    const page = await visitor(CURRENT_BUCKET);
    await expect(visitorBlog(page)).resolves.toBe(good);
    await openBlog();

    await act('Зробити кандидата поточним', 'Зробити кандидата поточним?', 'Зробити поточним');
    await expect(manager.getByText(`${broken} тепер поточний.`).count()).resolves.toBe(1);
    await visitorSees(page, broken, 2_000);

    await manager.getByRole('region', { name: 'Дії з релізами blog' }).getByRole('button', { name: 'Відкотити до попереднього' }).waitFor();
    await act('Відкотити до попереднього', 'Відкотити реліз?', 'Відкотити');
    await expect(manager.getByText(`Відкочено: поточний знову ${good}.`).count()).resolves.toBe(1);
    await visitorSees(page, good, 2_000);

    // The history, read again after the change, names who did it and why, newest first.
    const newest = manager.getByRole('region', { name: 'Історія рішень' }).getByRole('row').nth(1);
    await newest.filter({ hasText: 'rolled back by hand' }).waitFor();
    await expect(newest.textContent()).resolves.toMatch(/відкочено.*rm-blog@khvylia\.example \(консоль\)rolled back by hand/);
  });

  it('refuses a click on a screen the state has left, with the API’s message, and shows the state now', async () => {
    release('blog', '--canary', '25', '--id', broken, '--min-views', '100000');
    await openBlog();
    await manager.getByRole('region', { name: 'Канарка' }).waitFor();
    // Another tab, or the command line, drops the candidate while this screen shows it.
    release('blog', '--abort');

    await act('Зробити кандидата поточним', 'Зробити кандидата поточним?', 'Зробити поточним');
    const alert = manager.getByRole('region', { name: 'Дії з релізами blog' }).getByRole('alert');
    await expect(alert.textContent()).resolves.toMatch(new RegExp(`aborted ${broken} by cli:`));
    // The screen is read again: no candidate any more.
    await manager.getByRole('region', { name: 'Канарка' }).waitFor({ state: 'detached' });
    expect(await servedBlog(CANDIDATE_BUCKET)).toBe(good);
  });

  it('gives a release manager for the blog no action on the forms, and refuses a forged one', async () => {
    await manager.goto(`${site.siteUrl}${STAFF_PATHS.releases}?app=forms`);
    await manager.getByRole('heading', { name: 'Застосунок forms' }).waitFor();
    await manager.getByText(/^Змінювати релізи forms може лише менеджер релізів/).waitFor();
    await expect(manager.getByRole('region', { name: 'Дії з релізами forms' }).count()).resolves.toBe(0);
    await expect(manager.getByRole('button', { name: /Відкотити|Зробити|канарку/ }).count()).resolves.toBe(0);

    const forged = await manager.evaluate(async (header) => {
      const session = (await (await fetch('/api/staff/session')).json()) as { csrfToken: string };
      const response = await fetch('/api/staff/releases/forms/rollback', {
        method: 'POST',
        headers: { 'content-type': 'application/json', [header]: session.csrfToken },
        body: JSON.stringify({ expect: { revision: 1 } }),
      });
      return { status: response.status, body: (await response.json()) as { error: { message: string } } };
    }, STAFF_CSRF_HEADER);
    expect(forged).toEqual({ status: 403, body: { error: { code: 'FORBIDDEN', message: STAFF_MESSAGES.releasesNotYours('forms') } } });
  });
});
