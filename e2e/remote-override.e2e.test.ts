import { readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { REMOTE_OVERRIDE_BANNER, REMOTE_OVERRIDE_COOKIE, STAFF_PATHS, type BlogPostSummary, type RemotesDocument } from '@agency/shared';
import type { Page } from 'playwright-core';
import { describeInBrowser, expectNoSeriousA11yViolations, launchBrowser, openPage } from './support/browser';
import { changedBlogBuild, NEW_BACK_LINK, OLD_BACK_LINK } from './support/changed-blog-build';
import { startSite, type RunningSite } from './support/site';
import { releaseManagerPage } from './support/staff-console';

// An override for one browser in a real Chromium: a release manager of the blog points the blog of
// the live site at a build their own machine serves (here, a changed blog build the test serves on
// a port of 127.0.0.1, reached as http://localhost:<port>, as a team's dev server would be), from
// the console. Their browser gets it, with the banner; another browser and the server's page
// cache get the released blog, before and after; the banner's exit ends it.
jest.setTimeout(180_000);

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.html': 'text/html',
};

/** A build served as a remote's dev server serves it: its files, with CORS for any site. */
function serveBuild(dir: string, requested: string[]): http.Server {
  return http.createServer(async (request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    requested.push(pathname);
    const file = path.join(dir, path.normalize(pathname).replace(/^(\.\.[/\\])+/, ''));
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'access-control-allow-origin': '*', 'cache-control': 'no-cache' });
      response.end(body);
    } catch {
      response.writeHead(404, { 'access-control-allow-origin': '*' }).end();
    }
  });
}

describeInBrowser('an override of the blog for one browser', () => {
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let site: RunningSite;
  let build: string;
  let server: http.Server;
  let port: number;
  let manager: Page & { consoleErrors: string[] };
  /** The paths the build's server was asked for. */
  const requested: string[] = [];
  let postPath: string;

  /** A page as a browser without the override gets it: the released blog, with its old back link. */
  async function expectReleasedBlog(page: Page): Promise<void> {
    await page.getByRole('link', { name: OLD_BACK_LINK }).waitFor();
    await expect(page.getByRole('link', { name: NEW_BACK_LINK }).count()).resolves.toBe(0);
    await expect(page.locator('[data-override-banner]').count()).resolves.toBe(0);
    await expect(page.evaluate(() => window.__AGENCY_RELEASES__?.remotes.blog?.release)).resolves.toBe('dist');
  }

  /** The post page as the server sends it without any cookie: what a shared cache and the page cache hold. */
  async function pageForEveryone(): Promise<string> {
    const response = await fetch(`${site.baseUrl}${postPath}`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    return response.text();
  }

  beforeAll(async () => {
    build = changedBlogBuild();
    server = serveBuild(build, requested);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    [browser, site] = await Promise.all([launchBrowser(), startSite({}, { siteHost: 'localhost' })]);
    const [post] = (await (await fetch(`${site.baseUrl}/api/blog?limit=1`)).json()) as BlogPostSummary[];
    postPath = `/blog/${post!.id}`;
    manager = await releaseManagerPage(browser, site, 'blog-team@khvylia.example', ['blog']);
  });

  afterAll(async () => {
    await Promise.all([browser?.close(), site?.stop(), new Promise((resolve) => server?.close(resolve))]);
    await rm(build, { recursive: true, force: true });
  });

  it('loads the build from localhost in that browser only, never through a cache, until the banner’s exit', async () => {
    // Another browser first: the page cache now holds the released post page.
    const other = await openPage(browser, `${site.siteUrl}${postPath}`);
    await expectReleasedBlog(other);

    // The release manager sets the override from «Релізи».
    await manager.goto(`${site.siteUrl}${STAFF_PATHS.releases}?app=blog`);
    const form = manager.getByRole('region', { name: 'Підміна blog у цьому браузері' });
    await form.getByRole('radio', { name: 'Збірка з мого компʼютера' }).check();
    await form.getByRole('spinbutton', { name: 'Порт на localhost' }).fill(String(port));
    await form.getByRole('button', { name: 'Підмінити' }).click();
    await form.getByRole('status').getByText('Підміну ввімкнено.').waitFor();
    const cookie = (await manager.context().cookies()).find((each) => each.name === REMOTE_OVERRIDE_COOKIE);
    expect(cookie).toMatchObject({ path: '/', httpOnly: true, sameSite: 'Strict' });

    // «Відкрити сайт у новій вкладці»: the site in that browser, with the blog from localhost.
    const [opened] = await Promise.all([manager.context().waitForEvent('page'), form.getByRole('link', { name: 'Відкрити сайт у новій вкладці' }).click()]);
    const overriding = opened as Page;
    const errors: string[] = [];
    overriding.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await overriding.goto(`${site.siteUrl}${postPath}`);
    const banner = overriding.locator('[data-override-banner]');
    await expect(banner.locator('span').textContent()).resolves.toBe(REMOTE_OVERRIDE_BANNER.local('blog', `http://localhost:${port}`));
    await overriding.getByRole('link', { name: NEW_BACK_LINK }).waitFor();
    await expect(overriding.evaluate(() => window.__AGENCY_RELEASES__?.remotes.blog)).resolves.toEqual({
      entry: `http://localhost:${port}/mf-manifest.json`,
      release: `localhost-${port}`,
    });
    expect(requested).toContain('/mf-manifest.json');
    expect(requested).toContain('/remoteEntry.js');
    // The page's own policy let the build in: nothing was refused.
    expect(errors.filter((text) => /Content Security Policy|CORS/i.test(text))).toEqual([]);
    // The banner is part of the page for assistive technology too.
    await expectNoSeriousA11yViolations(overriding);

    // Everyone else, right after: the released blog, from the page cache and in another browser.
    const html = await pageForEveryone();
    expect(html).toContain(OLD_BACK_LINK);
    expect(html).not.toContain(NEW_BACK_LINK);
    expect(html).not.toContain('data-override-banner');
    expect(html).not.toContain(`localhost:${port}`);
    await other.reload();
    await expectReleasedBlog(other);
    const remotes = (await (await fetch(`${site.baseUrl}/remotes.json`)).json()) as RemotesDocument;
    expect(remotes.remotes.blog).toEqual({ entry: '/remotes/blog/mf-manifest.json', release: 'dist' });

    // The banner's exit: back on the same page, as everyone sees it, the cookie gone.
    await banner.getByRole('link', { name: REMOTE_OVERRIDE_BANNER.exit }).click();
    await overriding.waitForURL(`${site.siteUrl}${postPath}`);
    await expectReleasedBlog(overriding);
    expect((await overriding.context().cookies()).map((each) => each.name)).not.toContain(REMOTE_OVERRIDE_COOKIE);
    await Promise.all([overriding.close(), other.context().close()]);
  });
});
