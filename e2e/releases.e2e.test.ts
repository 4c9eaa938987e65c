import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { FORM_TOKEN_FIELD, SECTION_IDS, type RemotesDocument } from '@agency/shared';
import { createDatabase, type Database } from '../api/src/platform/db/connection';
import { compactHistory } from '../api/src/delivery/releases/prune';
import { commitReleaseChange } from '../api/src/delivery/releases/release-change';
import { loadAppReleases } from '../api/src/delivery/releases/release-repository';
import { describeInBrowser, openPage, waitForHydration } from './support/browser';
import { BLOG_POST_PAGE_CODE, changedBlogBuild, NEW_BACK_LINK, OLD_BACK_LINK } from './support/changed-blog-build';
import { runRelease } from './support/site';
import { setUpSiteAndBrowser } from './support/suite';

describeInBrowser('independent releases of a remote', () => {
  const suite = setUpSiteAndBrowser();
  const cleanUp: string[] = [];
  afterAll(() => cleanUp.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  /** `npm run release -- <args>` on this suite's site: its database and release store. */
  const release = (...args: string[]) => runRelease(suite.site, ...args);

  /** `work` on the site's database, as the release command and the server see it. */
  async function onSiteDatabase<T>(work: (db: Database) => Promise<T>): Promise<T> {
    const db = createDatabase(suite.site.databaseUrl);
    try {
      return await work(db);
    } finally {
      await db.destroy();
    }
  }

  /** The blog release the release command made current, as the site's database records it. */
  async function currentBlogRelease(): Promise<string> {
    const current = await onSiteDatabase(async (db) => (await loadAppReleases(db, 'blog')).current?.id);
    if (!current) throw new Error('no blog release is current');
    return current;
  }

  /**
   * Deletes a kept blog release as pruning does, though it is still within the window pruning
   * keeps it for: first from the record (in one change, which every server picks up), then its
   * files from the release store.
   */
  async function deleteBlogRelease(id: string): Promise<void> {
    await onSiteDatabase(async (db) => {
      const state = await loadAppReleases(db, 'blog');
      const kept = new Set(state.releases.map((entry) => entry.id).filter((other) => other !== id));
      await commitReleaseChange(db, {
        app: 'blog',
        startedAt: state.state.revision,
        history: compactHistory(state.history, kept),
        forget: [id],
        events: [{ release: id, action: 'pruned', reason: 'deleted by the end-to-end suite' }],
        actor: 'e2e',
        at: new Date(),
      });
    });
    const store = suite.site.releaseEnv.RELEASE_STORE!.replace(/^file:/, '');
    rmSync(path.join(store, 'blog', id), { recursive: true, force: true });
  }

  async function remotes(): Promise<RemotesDocument> {
    const response = await fetch(`${suite.site.baseUrl}/remotes.json`);
    return (await response.json()) as RemotesDocument;
  }

  /** Waits (bounded) until the running server announces `release` as the blog's current one. */
  async function blogReleaseBecomes(release: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while ((await remotes()).remotes.blog.release !== release) {
      if (Date.now() > deadline) throw new Error(`the server still announces ${(await remotes()).remotes.blog.release}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Waits (bounded) until the running server serves the files of blog release `id` (or no longer does). */
  async function blogReleaseKept(id: string, kept: boolean): Promise<void> {
    const entry = `${suite.site.baseUrl}/remotes/blog/${id}/mf-manifest.json`;
    const deadline = Date.now() + 10_000;
    while ((await fetch(entry)).ok !== kept) {
      if (Date.now() > deadline) throw new Error(`the server still ${kept ? 'does not serve' : 'serves'} blog release ${id}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The shell's HTML and every script it loads first, as a visitor's browser receives them. */
  async function shellFiles(): Promise<Record<string, string>> {
    const html = await (await fetch(`${suite.site.baseUrl}/`)).text();
    // Each response's own form tokens aside, the home page is the same markup.
    const files: Record<string, string> = { '/': html.replace(new RegExp(`(name="${FORM_TOKEN_FIELD}" value=")[^"]*`, 'g'), '$1') };
    for (const [, src] of html.matchAll(/<script[^>]+src="([^"]+)"/g)) {
      files[src!] = await (await fetch(new URL(src!, suite.site.baseUrl))).text();
    }
    return files;
  }

  async function openFirstPost(page: Page): Promise<void> {
    const link = page.locator(`#${SECTION_IDS.blog} article`).first().getByRole('link', { name: /Читати далі/ });
    // Followed in the page (the router), once the teaser's script has taken the server's markup over.
    await waitForHydration(link);
    await link.click();
    await page.getByRole('heading', { level: 1 }).and(page.locator('#blog-post-title')).waitFor();
  }

  const postRelease = (page: Page) =>
    page.locator('[data-remote-module="blog/BlogPostPage"]').getAttribute('data-remote-release');

  it('keeps an open page working across a blog release, serves the new one to the next visitor and rolls back', async () => {
    release('blog');
    const first = await currentBlogRelease();
    await blogReleaseBecomes(first);
    const shellBefore = await shellFiles();

    const openBefore = await openPage(suite.browser, suite.site.baseUrl);
    await openBefore.locator(`#${SECTION_IDS.blog} article`).first().waitFor();
    await expect(
      openBefore.locator('[data-remote-module="blog/BlogTeaser"]').getAttribute('data-remote-release'),
    ).resolves.toBe(first);

    const changed = changedBlogBuild();
    cleanUp.push(changed);
    release('blog', '--dist', changed);
    const second = await currentBlogRelease();
    expect(second).not.toBe(first);
    await blogReleaseBecomes(second);

    // The page opened before the deploy still opens a post, from the release it started with.
    await openFirstPost(openBefore);
    await expect(openBefore.getByRole('link', { name: OLD_BACK_LINK }).count()).resolves.toBeGreaterThan(0);
    await expect(postRelease(openBefore)).resolves.toBe(first);
    await expect(openBefore.locator('[data-remote-unavailable]').count()).resolves.toBe(0);

    // A fresh visitor gets the new release, and the page says which one it runs.
    const fresh = await openPage(suite.browser, `${suite.site.baseUrl}/blog/1`);
    await fresh.getByRole('link', { name: NEW_BACK_LINK }).waitFor();
    await expect(postRelease(fresh)).resolves.toBe(second);
    await expect(fresh.evaluate(() => window.__AGENCY_RELEASES__?.remotes.blog?.release)).resolves.toBe(second);

    // Rollback: the next visitor sees the old text again, with no restart.
    release('blog', '--rollback');
    await expect(currentBlogRelease()).resolves.toBe(first);
    await blogReleaseBecomes(first);
    const afterRollback = await openPage(suite.browser, `${suite.site.baseUrl}/blog/1`);
    await afterRollback.getByRole('link', { name: OLD_BACK_LINK }).waitFor();
    await expect(postRelease(afterRollback)).resolves.toBe(first);

    expect(await shellFiles()).toEqual(shellBefore);
    await Promise.all([openBefore, fresh, afterRollback].map((page) => page.context().close()));
  });

  it('retries a chunk that failed to load, with no message to the visitor', async () => {
    const page = await openPage(suite.browser, suite.site.baseUrl);
    await page.locator(`#${SECTION_IDS.blog} article`).first().waitFor();
    let requests = 0;
    await page.route(BLOG_POST_PAGE_CODE, (route) => (requests++ === 0 ? route.abort() : route.continue()));
    await openFirstPost(page);
    expect(requests).toBe(2);
    await expect(page.locator('[data-remote-unavailable]').count()).resolves.toBe(0);
    await page.context().close();
  });

  it('moves an open page to the current release when the files of its own release are gone', async () => {
    const page = await openPage(suite.browser, suite.site.baseUrl);
    await page.locator(`#${SECTION_IDS.blog} article`).first().waitFor();
    const started = await page.locator('[data-remote-module="blog/BlogTeaser"]').getAttribute('data-remote-release');
    if (!started) throw new Error('the teaser does not say which release it came from');

    const changed = changedBlogBuild();
    cleanUp.push(changed);
    release('blog', '--dist', changed);
    const current = await currentBlogRelease();
    expect(current).not.toBe(started);
    await blogReleaseBecomes(current);
    // As if the old release had been pruned: its chunks now answer 404.
    await deleteBlogRelease(started);
    await blogReleaseKept(started, false);

    await openFirstPost(page);
    await page.getByRole('link', { name: NEW_BACK_LINK }).waitFor();
    await expect(postRelease(page)).resolves.toBe(current);
    await expect(page.locator('[data-remote-unavailable]').count()).resolves.toBe(0);
    await page.context().close();
  });
});
