import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { blogListingPageMeta, blogListingPath, CASE_STUDIES_CATEGORY, SECTION_IDS, type BlogPostSummary } from '@agency/shared';
import type { Locator, Page, Response } from 'playwright-core';
import sharp from 'sharp';
import { describeInBrowser, expectNoSeriousA11yViolations, openPage, waitForHydration } from './support/browser';
import { setUpSiteAndBrowser } from './support/suite';

const NOT_FOUND = 'Стаття не знайдена';
const CASES = CASE_STUDIES_CATEGORY;
const CASES_LISTING = blogListingPath({ category: CASES });

/** Cards of the listing (or any list of cards) by their titles, in page order. */
function cardTitles(page: Page, scope = 'main'): Promise<string[]> {
  return page.locator(`${scope} article`).evaluateAll((cards) => cards.map((card) => card.querySelector('h2, h3')?.textContent?.trim() ?? ''));
}

/**
 * Clicks the middle of an element as a visitor would, whatever covers it (a card's stretched link),
 * once the browser has drawn it there: a home section the page was just scrolled to is drawn in a
 * later frame (content-visibility), and until then a click at that point reaches the section alone.
 */
async function clickWhereItIs(page: Page, locator: Locator): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  await locator.evaluate(
    (element) =>
      new Promise<void>((resolve) => {
        const card = element.closest('article') ?? element;
        const check = () => {
          const box = element.getBoundingClientRect();
          const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
          if (hit && card.contains(hit)) resolve();
          else requestAnimationFrame(check);
        };
        check();
      }),
  );
  const box = (await locator.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}
const UK_DATE = /^\d{1,2} [а-яіїєґʼ']+ \d{4} р\.$/;

describeInBrowser('blog', () => {
  const suite = setUpSiteAndBrowser();
  let newest: BlogPostSummary[];

  beforeAll(async () => {
    const response = await fetch(`${suite.site.baseUrl}/api/blog`);
    newest = (await response.json()) as BlogPostSummary[];
    // The seed must hold more posts than the teaser shows, or the 3-post cut proves nothing.
    expect(newest.length).toBeGreaterThan(3);
  });

  /** On a post, the first "Читайте також" card's link once the page has taken over, and the post it opens. */
  async function firstRelatedPost(page: Page): Promise<{ link: Locator; post: BlogPostSummary }> {
    const link = page.getByRole('region', { name: 'Читайте також' }).getByRole('link', { name: /Читати далі/ }).first();
    await waitForHydration(link);
    const href = await link.getAttribute('href');
    return { link, post: newest.find((summary) => `/blog/${summary.id}` === href)! };
  }

  it('opens a post from its teaser card and comes back home with the browser back button', async () => {
    const page = await openPage(suite.browser, suite.site.baseUrl);
    const homeTitle = await page.title();
    const cards = page.locator(`#${SECTION_IDS.blog} article`);
    await cards.first().waitFor();
    await expect(cards.count()).resolves.toBe(3);

    const first = cards.first();
    const cardTitle = (await first.getByRole('heading', { level: 3 }).textContent())?.trim();
    expect(cardTitle).toBe(newest[0]?.title);
    await first.getByRole('link', { name: /Читати далі/ }).click();

    await page.waitForURL(`${suite.site.baseUrl}/blog/${newest[0]?.id}`);
    // Wait for the post's own h1: right after the URL changes the home hero's h1 may still be there.
    await page.getByRole('heading', { level: 1, name: cardTitle, exact: true }).waitFor();
    await expect(page.getByRole('heading', { level: 1 }).count()).resolves.toBe(1);
    // Focus moves to the new page's heading; the page starts at its top.
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    await expect(page.evaluate(() => window.scrollY)).resolves.toBe(0);
    await expect(page.title()).resolves.toContain(cardTitle);

    // The shell's header (brand link, way home) and footer frame the post page.
    await expect(page.getByRole('link', { name: /Хвиля — на головну/ }).count()).resolves.toBe(1);
    await expect(page.getByRole('link', { name: '← На головну' }).count()).resolves.toBe(1);
    await expect(page.locator('footer').last().isVisible()).resolves.toBe(true);

    await page.goBack();
    await page.waitForURL(`${suite.site.baseUrl}/`);
    await page.locator(`#${SECTION_IDS.blog} article`).first().waitFor();
    await expect(page.title()).resolves.toBe(homeTitle);
    await page.context().close();
  });

  it('loads a post directly by its address, with every part of the spec and no serious a11y issue', async () => {
    const post = newest[1]!;
    const page = await openPage(suite.browser, `${suite.site.baseUrl}/blog/${post.id}`);
    await page.getByRole('heading', { level: 1, name: post.title }).waitFor();

    const image = page.getByRole('img', { name: `Ілюстрація до статті «${post.title}»` });
    await expect(image.getAttribute('src')).resolves.toBe(post.image_url);
    await page.waitForFunction(
      () => Array.from(document.querySelectorAll('main img')).every((img) => (img as HTMLImageElement).naturalWidth > 0),
    );
    expect(post.category).toEqual(expect.any(String));
    await expect(page.getByText(String(post.category), { exact: true }).count()).resolves.toBeGreaterThan(0);
    const time = page.locator(`main time[datetime="${post.created_at}"]`);
    await expect(time.textContent()).resolves.toMatch(UK_DATE);
    await expect(page.getByText(`Автор: ${post.author}`).count()).resolves.toBe(1);
    // The HTML content is rendered as markup.
    await expect(page.locator('main article h2').count()).resolves.toBeGreaterThan(0);
    await expect(page.getByRole('link', { name: 'Повернутися на головну' }).getAttribute('href')).resolves.toBe('/');
    await expect(
      page.evaluate(() => document.querySelector('meta[name="description"]')?.getAttribute('content')),
    ).resolves.toBe(post.excerpt);

    await expectNoSeriousA11yViolations(page);
    await page.context().close();
  });

  it('a post opened directly brings no HTTP client and no sanitizer; a post opened from it fetches both', async () => {
    const page = await openPage(suite.browser);
    const libraries: string[] = [];
    // Every read of a script's body is awaited before the page closes, and a read that fails is
    // listed rather than thrown: a rejection left behind in a listener fails every test of the
    // file (it did so in a run on a busy machine, a read pending as the page closed).
    const reads: Promise<void>[] = [];
    const readScript = (response: Response) => {
      if (response.request().resourceType() !== 'script') return;
      reads.push(
        response.text().then(
          (code) => {
            // A string only each library's own code holds.
            if (code.includes('ERR_BAD_RESPONSE')) libraries.push('axios');
            if (code.includes('ALLOWED_TAGS')) libraries.push('DOMPurify');
          },
          (error: Error) => void libraries.push(`unreadable ${response.url()}: ${error.message}`),
        ),
      );
    };
    page.on('response', readScript);
    await page.goto(`${suite.site.baseUrl}/blog/${newest[1]!.id}`, { waitUntil: 'networkidle' });
    await expect(page.locator('main article h2').count()).resolves.toBeGreaterThan(0);
    await Promise.all(reads);
    expect(libraries).toEqual([]);

    const { link: related, post: next } = await firstRelatedPost(page);
    await related.click();
    await page.waitForURL(`${suite.site.baseUrl}/blog/${next.id}`);
    // The next post came over the API, sanitized in the browser.
    await page.getByRole('heading', { level: 1, name: next.title }).waitFor();
    await page.getByTestId('blog-post-content').locator('p').first().waitFor();
    page.off('response', readScript);
    await Promise.all(reads);
    expect(libraries.sort()).toEqual(['DOMPurify', 'axios']);
    expect(page.consoleErrors).toEqual([]);
    await page.context().close();
  });

  it('fetches the HTTP client again for the next post when it failed to load', async () => {
    const page = await openPage(suite.browser);
    let refused = 0;
    await page.route('**/remotes/blog/*.js', async (route) => {
      const response = await route.fetch();
      const code = await response.text();
      if (code.includes('ERR_BAD_RESPONSE') && refused++ === 0) return route.abort();
      return route.fulfill({ response });
    });
    const post = newest[1]!;
    await page.goto(`${suite.site.baseUrl}/blog/${post.id}`);
    const { link: related, post: next } = await firstRelatedPost(page);

    await related.click();
    await page.getByRole('heading', { level: 1, name: NOT_FOUND }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: post.title }).waitFor();
    await related.click();
    await page.getByRole('heading', { level: 1, name: next.title }).waitFor();
    expect(refused).toBe(2);
    await page.context().close();
  });

  it('shows an article written in Markdown with its formatting: headings, list, emphasis, table and quote', async () => {
    // content/blog/2026-09-02-keis-kaviarnia-lviv.md, published from its Markdown file at start.
    const post = newest.find((summary) => summary.category === 'Кейси')!;
    const page = await openPage(suite.browser, `${suite.site.baseUrl}/blog/${post.id}`);
    const article = page.locator('main article');
    await article.getByRole('heading', { level: 2, name: 'Що ми зробили' }).waitFor();
    await expect(article.getByRole('heading', { level: 2 }).allTextContents()).resolves.toEqual([
      'Що ми зробили',
      'Результати за три місяці',
      'Головний висновок',
    ]);
    await expect(article.getByRole('listitem').count()).resolves.toBe(4);
    await expect(article.locator('strong').first().textContent()).resolves.toBe('з\u00a0140 до 290 на місяць');
    const table = article.getByRole('table');
    await expect(table.getByRole('columnheader').allTextContents()).resolves.toEqual(['Показник', 'До початку', 'Через три місяці']);
    await expect(table.getByRole('row', { name: /Бронювання на місяць 140 290/ }).count()).resolves.toBe(1);
    await expect(article.locator('blockquote').textContent()).resolves.toContain('Це приємна проблема.');
    await expect(article.locator('blockquote em').textContent()).resolves.toBe('власниця кавʼярні');
    await expectNoSeriousA11yViolations(page);
    await page.context().close();
  });

  it.each(['999999', 'abc'])('shows "Стаття не знайдена" for /blog/%s', async (postId) => {
    const page = await openPage(suite.browser, `${suite.site.baseUrl}/blog/${postId}`);
    await page.getByRole('heading', { level: 1, name: NOT_FOUND }).waitFor();
    await expect(page.getByRole('link', { name: 'Повернутися на головну' }).count()).resolves.toBe(1);
    await expect(page.locator('footer').count()).resolves.toBeGreaterThan(0);
    await page.context().close();
  });

  it('runs nothing from hostile post content, even if the API let it through', async () => {
    // The site's CSP alone would block inline handlers; bypassing it here tests the sanitizer itself.
    const page = await openPage(suite.browser, undefined, { bypassCSP: true });
    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs += 1;
      void dialog.dismiss();
    });
    const post = newest[0]!;
    // Only this request is answered by the test: the rest of the site stays real.
    await page.route('**/api/blog/777777', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          ...post,
          id: 777777,
          content:
            '<p>Звичайний абзац</p>' +
            '<img src="/no-such-image.png" alt="" onerror="window.__xss = 1; alert(1)">' +
            '<script>window.__xss = 2</script>' +
            '<a href="javascript:window.__xss=3">Підозріле посилання</a>' +
            '<svg><script>window.__xss = 4</script></svg>',
        }),
      }),
    );
    // Reached by client-side navigation, so the browser asks the (mocked) API: a page loaded
    // directly would come rendered by the server from the real database.
    await page.goto(suite.site.baseUrl);
    // The teaser comes in the server's HTML: its router listens for popstate once React has taken over.
    await waitForHydration(page.locator(`#${SECTION_IDS.blog} article a`));
    await page.evaluate(() => {
      history.pushState({}, '', '/blog/777777');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.getByText('Звичайний абзац').waitFor();
    await page.getByText('Підозріле посилання').click();
    // Let the broken image's error event fire, had its handler survived.
    await page.waitForLoadState('networkidle');

    await expect(page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).resolves.toBeUndefined();
    expect(dialogs).toBe(0);
    await expect(page.locator('main article [onerror], main article script').count()).resolves.toBe(0);
    expect(page.url()).toBe(`${suite.site.baseUrl}/blog/777777`);
    await page.context().close();
  });

  it('/blog comes from the server with every post newest first, and filters by category', async () => {
    // The pages themselves, as `curl -i` gets them: status and cards in the HTML.
    const listingHtml = await fetch(`${suite.site.baseUrl}/blog`);
    expect(listingHtml.status).toBe(200);
    const html = await listingHtml.text();
    expect(html).toContain('<link rel="canonical" href="');
    for (const post of newest) expect(html).toContain(`href="/blog/${post.id}"`);
    const casesHtml = await fetch(`${suite.site.baseUrl}${CASES_LISTING}`);
    expect(casesHtml.status).toBe(200);
    const casesBody = await casesHtml.text();
    for (const post of newest) expect(casesBody.includes(`href="/blog/${post.id}"`)).toBe(post.category === CASES);

    const page = await openPage(suite.browser, `${suite.site.baseUrl}/blog`);
    await page.getByRole('heading', { level: 1, name: 'Блог' }).waitFor();
    await expect(cardTitles(page)).resolves.toEqual(newest.map((post) => post.title));
    // No second page for this many posts.
    await expect(page.getByRole('navigation', { name: 'Сторінки блогу' }).count()).resolves.toBe(0);

    const filter = page.getByRole('navigation', { name: 'Рубрики блогу' });
    await waitForHydration(filter.getByRole('link'));
    await expect(filter.locator('[aria-current="page"]').textContent()).resolves.toMatch(/^Усі \d+$/);
    await filter.getByRole('link', { name: new RegExp(`^${CASES} `) }).click();
    await page.waitForURL(`${suite.site.baseUrl}${CASES_LISTING}`);
    const cases = newest.filter((post) => post.category === CASES);
    expect(cases.length).toBeGreaterThanOrEqual(2);
    await page.waitForFunction((count) => document.querySelectorAll('main article').length === count, cases.length);
    await expect(cardTitles(page)).resolves.toEqual(cases.map((post) => post.title));
    await expect(filter.locator('[aria-current="page"]').textContent()).resolves.toBe(`${CASES} ${cases.length}`);
    await expectNoSeriousA11yViolations(page);
    expect(page.consoleErrors).toEqual([]);
    await page.context().close();
  });

  it("opens a post from a card's title, shows related posts, and leads back to the filtered listing", async () => {
    const page = await openPage(suite.browser, `${suite.site.baseUrl}${CASES_LISTING}`);
    const titles = page.locator('main article h2');
    await waitForHydration(page.locator('main article a'));
    const [first, second] = newest.filter((post) => post.category === CASES);
    await clickWhereItIs(page, titles.first());

    await page.waitForURL(`${suite.site.baseUrl}/blog/${first!.id}`);
    await page.getByRole('heading', { level: 1, name: first!.title }).waitFor();
    // Related posts: the other case study first, then the newest of the rest.
    const related = page.getByRole('region', { name: 'Читайте також' });
    await related.locator('article').first().waitFor();
    const relatedTitles = await cardTitles(page, 'main section[aria-labelledby="related-posts-title"]');
    expect(relatedTitles).toEqual([second!.title, ...newest.filter((post) => post.category !== CASES).slice(0, 2).map((post) => post.title)]);

    await page.getByRole('link', { name: `До статей рубрики «${CASES}»` }).click();
    await page.waitForURL(`${suite.site.baseUrl}${CASES_LISTING}`);
    await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'Блог');
    await expect(page.locator('main [aria-current="page"]').first().textContent()).resolves.toMatch(new RegExp(`^${CASES} `));
    await page.context().close();
  });

  it("leads back from a post opened on the home page to the home's blog section", async () => {
    const page = await openPage(suite.browser, suite.site.baseUrl);
    const cards = page.locator(`#${SECTION_IDS.blog} article`);
    await waitForHydration(cards.locator('a'));
    await expect(page.locator(`#${SECTION_IDS.blog}`).getByRole('link', { name: 'Усі статті' }).getAttribute('href')).resolves.toBe('/blog');
    await clickWhereItIs(page, cards.first().getByRole('heading', { level: 3 }));
    await page.waitForURL(`${suite.site.baseUrl}/blog/${newest[0]!.id}`);

    await page.getByRole('link', { name: 'Повернутися на головну' }).click();
    await page.waitForURL(`${suite.site.baseUrl}/#${SECTION_IDS.blog}`);
    // The blog section's heading, not the top of the page, is on screen.
    await page.waitForFunction((id) => {
      const top = document.getElementById(id)?.querySelector('h2')?.getBoundingClientRect().top ?? -1;
      return top >= 0 && top < window.innerHeight / 2;
    }, SECTION_IDS.blog);
    await expect(page.evaluate(() => window.scrollY)).resolves.toBeGreaterThan(0);
    await page.context().close();
  });

  it('"Наші кейси" on the home page opens the listing of case studies', async () => {
    const page = await openPage(suite.browser, suite.site.baseUrl);
    await page.getByRole('link', { name: 'Наші кейси' }).click();
    await page.waitForURL(`${suite.site.baseUrl}${CASES_LISTING}`);
    await page.getByRole('heading', { level: 1, name: 'Блог' }).waitFor();
    await page.locator('main article').first().waitFor();
    await expect(cardTitles(page)).resolves.toEqual(newest.filter((post) => post.category === CASES).map((post) => post.title));
    await page.context().close();
  });

  it('answers 404 for a listing page past the last', async () => {
    const response = await fetch(`${suite.site.baseUrl}/blog?page=99`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('<meta name="robots" content="noindex">');
    const page = await openPage(suite.browser, `${suite.site.baseUrl}/blog?page=99`);
    await page.getByText('Такої сторінки блогу немає.').waitFor();
    await expect(page.getByRole('link', { name: 'До першої сторінки' }).getAttribute('href')).resolves.toBe('/blog');
    await page.context().close();
  });

  it('answers 404 for an unknown category, whose name goes into no title, description or preview', async () => {
    const address = `/blog?category=${encodeURIComponent('Fake «Реклама» <b>')}`;
    const response = await fetch(`${suite.site.baseUrl}${address}`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('<meta name="robots" content="noindex">');
    // What a search result or a link preview shows: the title and every description (the page's
    // own address, og:url, aside).
    const shown = [
      /<title>([^<]*)<\/title>/.exec(html)?.[1],
      ...[...html.matchAll(/<meta (?:name|property)="(?:description|og:title|og:description|og:image:alt|twitter:[a-z:]+)" content="([^"]*)">/g)].map((match) => match[1]),
    ];
    expect(shown.length).toBeGreaterThan(5);
    expect(shown.join('\n')).not.toMatch(/Fake|Реклама/);
    expect((await fetch(`${suite.site.baseUrl}/api/blog/listing?category=Fake`)).status).toBe(404);

    // Every title the tab shows, from the server's through hydration (the remote's code loads
    // after the shell's) to the next page.
    const page = await openPage(suite.browser);
    await page.addInitScript(() => {
      const titles: string[] = [];
      (window as { shownTitles?: string[] }).shownTitles = titles;
      new MutationObserver(() => {
        if (document.title !== titles.at(-1)) titles.push(document.title);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await page.goto(`${suite.site.baseUrl}${address}`);
    const shownTitles = () => page.evaluate(() => (window as { shownTitles?: string[] }).shownTitles ?? []);
    const allPosts = page.getByRole('link', { name: 'Переглянути всі статті' });
    await waitForHydration(allPosts);
    await expect(allPosts.getAttribute('href')).resolves.toBe('/blog');
    const notFoundTitles = await shownTitles();
    expect(notFoundTitles.length).toBeGreaterThan(0);
    expect(notFoundTitles.join('\n')).not.toMatch(/Fake|Реклама/);

    // On to the listing in the browser: its title replaces the one for the page that was not found.
    await allPosts.click();
    await page.waitForURL(`${suite.site.baseUrl}/blog`);
    await page.locator('article').first().waitFor();
    await expect(page.title()).resolves.toBe(blogListingPageMeta({ category: null, page: 1 }).title);
    await page.context().close();
  });

  it('fits the listing on a 375 px wide screen without horizontal scrolling', async () => {
    const page = await openPage(suite.browser, `${suite.site.baseUrl}/blog`, { viewport: { width: 375, height: 800 } });
    await page.locator('main article').first().waitFor();
    await expect(
      page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
    ).resolves.toBe(true);
    await page.context().close();
  });

  it('fits a 360 px wide screen without horizontal scrolling', async () => {
    const page = await openPage(suite.browser, `${suite.site.baseUrl}/blog/${newest[0]?.id}`, { viewport: { width: 360, height: 740 } });
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expect(
      page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
    ).resolves.toBe(true);
    await page.context().close();
  });
});

describeInBrowser('blog: an article written in Markdown', () => {
  // A content folder of its own (CONTENT_DIR) with one article using every formatting the
  // agency's guide offers, published by the server at start; its 1800×1200 photo becomes the
  // 1200×630 cover.
  let folder: string;
  const ARTICLE = [
    '---',
    'title: "Формат статті: усе, що вміє Markdown"',
    'slug: format-statti',
    'category: "Перевірка"',
    'author: "Олена Кравчук"',
    'date: 2026-11-02',
    'excerpt: "Стаття з усіма елементами розмітки."',
    'cover: images/photo.png',
    '---',
    '',
    'Вступ із **жирним**, *курсивом*, `кодом` і [посиланням на сайт](https://khvylia.com.ua/).',
    '',
    '## Перший розділ',
    '',
    '- перший пункт',
    '- другий пункт',
    '',
    '### Підрозділ',
    '',
    '1. крок один',
    '2. крок два',
    '',
    '| Показник | Значення |',
    '|---|---|',
    '| Бронювання | 290 |',
    '',
    '> Цитата клієнта.',
    '',
  ].join('\n');

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-e2e-content-'));
    fs.mkdirSync(path.join(folder, 'blog', 'images'), { recursive: true });
    await sharp({ create: { width: 1800, height: 1200, channels: 3, background: '#0e7c86' } })
      .png()
      .toFile(path.join(folder, 'blog/images/photo.png'));
    fs.writeFileSync(path.join(folder, 'blog', 'format-statti.md'), ARTICLE);
  });
  const suite = setUpSiteAndBrowser(() => ({ CONTENT_DIR: path.join(folder, 'blog'), MEDIA_DIR: path.join(folder, 'media') }));
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('renders its headings, lists, emphasis, code, link, table and quote, with the resized cover', async () => {
    const [post] = (await (await fetch(`${suite.site.baseUrl}/api/blog`)).json()) as BlogPostSummary[];
    expect(post?.image_url).toMatch(/^\/media\/posts\/format-statti\.[0-9a-f]{10}\.jpg$/);
    const page = await openPage(suite.browser, `${suite.site.baseUrl}/blog/${post!.id}`);
    const article = page.locator('main article');
    await article.getByRole('heading', { level: 2, name: 'Перший розділ' }).waitFor();
    await expect(article.getByRole('heading', { level: 3 }).allTextContents()).resolves.toEqual(['Підрозділ']);
    await expect(article.locator('ul > li').allTextContents()).resolves.toEqual(['перший пункт', 'другий пункт']);
    await expect(article.locator('ol > li').allTextContents()).resolves.toEqual(['крок один', 'крок два']);
    await expect(article.locator('strong').textContent()).resolves.toBe('жирним');
    await expect(article.locator('em').textContent()).resolves.toBe('курсивом');
    await expect(article.locator('code').textContent()).resolves.toBe('кодом');
    const link = article.getByRole('link', { name: 'посиланням на сайт' });
    await expect(link.getAttribute('href')).resolves.toBe('https://khvylia.com.ua/');
    await expect(link.getAttribute('rel')).resolves.toBe('noopener noreferrer');
    await expect(article.getByRole('table').getByRole('columnheader').allTextContents()).resolves.toEqual(['Показник', 'Значення']);
    await expect(article.getByRole('row', { name: 'Бронювання 290' }).count()).resolves.toBe(1);
    await expect(article.locator('blockquote').textContent()).resolves.toContain('Цитата клієнта.');

    const cover = page.getByRole('img', { name: `Ілюстрація до статті «${post!.title}»` });
    await expect(cover.getAttribute('src')).resolves.toBe(post!.image_url);
    await page.waitForFunction(() => (document.querySelector('main img') as HTMLImageElement | null)?.naturalWidth === 1200);
    await expect(page.evaluate(() => (document.querySelector('main img') as HTMLImageElement).naturalHeight)).resolves.toBe(630);
    await expectNoSeriousA11yViolations(page);
    await page.context().close();
  });
});

describeInBrowser('blog: a listing of more than one page', () => {
  // A content folder of its own with 14 articles, more than a page of the listing (12).
  let folder: string;
  const COUNT = 14;

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-e2e-listing-'));
    fs.mkdirSync(path.join(folder, 'blog', 'images'), { recursive: true });
    await sharp({ create: { width: 1200, height: 630, channels: 3, background: '#16307a' } })
      .png()
      .toFile(path.join(folder, 'blog/images/cover.png'));
    for (let number = 1; number <= COUNT; number += 1) {
      const day = String(number).padStart(2, '0');
      const article = [
        '---',
        `title: "Стаття для сторінок ${number}"`,
        `slug: stattia-${number}`,
        `category: "${number % 3 === 0 ? CASES : 'SMM'}"`,
        'author: "Олена Кравчук"',
        `date: 2026-02-${day}`,
        `excerpt: "Опис статті ${number}."`,
        'cover: images/cover.png',
        '---',
        '',
        `Текст статті ${number}.`,
        '',
      ].join('\n');
      fs.writeFileSync(path.join(folder, 'blog', `stattia-${number}.md`), article);
    }
  });
  const suite = setUpSiteAndBrowser(() => ({ CONTENT_DIR: path.join(folder, 'blog'), MEDIA_DIR: path.join(folder, 'media') }));
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('paginates past 12 posts: the pages together are every post, newest first', async () => {
    const all = (await (await fetch(`${suite.site.baseUrl}/api/blog`)).json()) as BlogPostSummary[];
    expect(all).toHaveLength(COUNT);
    expect((await fetch(`${suite.site.baseUrl}/blog?page=2`)).status).toBe(200);
    expect((await fetch(`${suite.site.baseUrl}/blog?page=3`)).status).toBe(404);

    const page = await openPage(suite.browser, `${suite.site.baseUrl}/blog`);
    await page.locator('main article').first().waitFor();
    await expect(cardTitles(page)).resolves.toEqual(all.slice(0, 12).map((post) => post.title));
    const pages = page.getByRole('navigation', { name: 'Сторінки блогу' });
    await expect(pages.locator('[aria-current="page"]').textContent()).resolves.toBe('Сторінка 1');
    await waitForHydration(pages.getByRole('link'));

    await pages.getByRole('link', { name: /Наступна/ }).click();
    await page.waitForURL(`${suite.site.baseUrl}/blog?page=2`);
    await page.waitForFunction((count) => document.querySelectorAll('main article').length === count, COUNT - 12);
    await expect(cardTitles(page)).resolves.toEqual(all.slice(12).map((post) => post.title));
    await expect(pages.locator('[aria-current="page"]').textContent()).resolves.toBe('Сторінка 2');
    // The new page starts at the listing's top.
    await page.waitForFunction(() => (document.querySelector('main h1')?.getBoundingClientRect().top ?? -1) >= 0);

    // A post opened from page 2 leads back to page 2.
    await clickWhereItIs(page, page.locator('main article h2').first());
    await page.waitForURL(`${suite.site.baseUrl}/blog/${all[12]!.id}`);
    await page.getByRole('link', { name: 'До всіх статей' }).click();
    await page.waitForURL(`${suite.site.baseUrl}/blog?page=2`);
    await page.context().close();
  });
});
