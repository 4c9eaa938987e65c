import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import sharp from 'sharp';
import type { BlogPost, Service } from '@agency/shared';
import { eventually } from '../api/test/helpers/eventually';
import { describeInBrowser, expectNoSeriousA11yViolations, launchBrowser } from './support/browser';
import { startPostgres, type RunningPostgres } from './support/postgres';
import { startSite, type RunningSite } from './support/site';
import { horizontalOverflow, invitationLink, joinWithApp, joinWithPasskey, pageWithAuthenticator } from './support/staff-console';

// Articles and services written, previewed, scheduled and published in the staff console: a real
// Chromium with Chrome's virtual authenticator, the real API on PostgreSQL, and what a visitor
// then gets from the site.
jest.setTimeout(240_000);

const HOSTILE_MARKDOWN = 'Текст.\n\n<script>window.__xss = 1</script>\n\n<img src="/x.png" onerror="window.__xss = 2">\n\n[посилання](javascript:window.__xss=3)\n';

let images: string;

beforeAll(async () => {
  images = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-e2e-images-'));
  const photo = (width: number, height: number, color: string) => sharp({ create: { width, height, channels: 3, background: color } });
  await photo(1600, 900, '#0e7c86').png().toFile(path.join(images, 'cover.png'));
  await photo(900, 600, '#f2b134').webp().toFile(path.join(images, 'chart.webp'));
  fs.writeFileSync(path.join(images, 'not-an-image.png'), 'це текст, а не картинка');
});

afterAll(() => fs.rmSync(images, { recursive: true, force: true }));

async function publicPost(site: RunningSite, id: number): Promise<{ status: number; post?: BlogPost }> {
  const response = await fetch(`${site.baseUrl}/api/blog/${id}`);
  return { status: response.status, post: response.ok ? ((await response.json()) as BlogPost) : undefined };
}

/** The article's id, read from the editor's address. */
const articleIdOf = (page: Page) => Number(/\/staff\/articles\/(\d+)/.exec(page.url())![1]);

/** The preview frame drawn at `width` (375 or 1280). */
async function previewFrame(page: Page, width: number): Promise<Frame> {
  const handle = await page.getByTestId(`preview-${width}`).elementHandle();
  return (await handle!.contentFrame())!;
}

async function newArticle(page: Page, site: RunningSite, title: string): Promise<number> {
  await page.goto(`${site.siteUrl}/staff/articles`);
  await page.getByLabel('Назва нової статті').fill(title);
  await page.getByRole('button', { name: 'Створити чернетку' }).click();
  await page.getByRole('heading', { name: title, level: 1 }).waitFor();
  return articleIdOf(page);
}

async function waitSaved(page: Page): Promise<void> {
  await page.getByTestId('save-state').getByText('Усі зміни збережено').waitFor({ timeout: 20_000 });
}

/** Types into the Markdown editor's text area (replacing what is there). */
async function writeMarkdown(page: Page, text: string): Promise<void> {
  const area = page.getByLabel('Текст статті (Markdown)');
  await area.fill(text);
}

// On PostgreSQL only: the console's pages are the same on either database, and the API suites run
// every article, service and schedule route on both (api/test/staff).
describe('articles and services in the console on PostgreSQL', () => {
  describeInBrowser('in Chromium', () => {
    let browser: Browser;
    let site: RunningSite;
    let postgres: RunningPostgres | undefined;
    let editor: Page & { consoleErrors: string[] };
    /** The article the first test schedules, which the last one expects on the site. */
    let scheduled: { id: number; title: string } | undefined;

    beforeAll(async () => {
      postgres = await startPostgres();
      [browser, site] = await Promise.all([launchBrowser(), startSite({ DATABASE_URL: postgres.url }, { siteHost: 'localhost' })]);
      editor = await pageWithAuthenticator(browser);
      await joinWithPasskey(editor, invitationLink(site, 'editor@khvylia.example', 'editor'));
    });

    afterAll(async () => {
      await Promise.all([browser?.close(), site?.stop()]);
      await postgres?.stop();
    });

    it('writes an article with a cover and an inline picture, previews it at both widths, and schedules it', async () => {
      await editor.getByRole('link', { name: 'Статті' }).click();
      await editor.getByRole('heading', { name: 'Статті', level: 1 }).waitFor();
      const id = await newArticle(editor, site, 'Контент-план на тиждень для кавʼярні');
      // The slug comes from the Ukrainian title by the site's transliteration.
      await expect(editor.getByLabel('Адреса (slug)', { exact: false }).inputValue()).resolves.toBe('kontent-plan-na-tyzhden-dlia-kaviarni');
      await editor.getByLabel('Рубрика').fill('SMM');
      await editor.getByLabel('Автор').fill('Олена Кравчук');
      await editor.getByLabel('Короткий опис (для картки й пошуку)').fill('Сім днів, сім публікацій: як спланувати тиждень.');

      // Not an image (by its content, whatever its name): refused with a message, nothing changes.
      await editor.getByLabel('Обкладинка').setInputFiles(path.join(images, 'not-an-image.png'));
      await editor.getByRole('alert').getByText('Файл не є зображенням JPEG, PNG чи WebP').waitFor();
      await editor.getByLabel('Обкладинка').setInputFiles(path.join(images, 'cover.png'));
      await editor.getByRole('img', { name: 'Обкладинка статті' }).waitFor();

      await writeMarkdown(editor, '## Понеділок\n\nПочинаємо з історії бренду.\n\n');
      const chooser = editor.waitForEvent('filechooser');
      await editor.getByRole('button', { name: 'Зображення' }).click();
      await (await chooser).setFiles(path.join(images, 'chart.webp'));
      await eventually('the picture in the text', () => editor.getByLabel('Текст статті (Markdown)').inputValue(), (text) => /!\[chart\]\(\/media\/posts\/[^)]+\.900x600\.jpg\)/.test(text), 15_000);
      await waitSaved(editor);

      // The preview is the blog's own post view, at a phone's and a desktop's width.
      for (const width of [375, 1280]) {
        const frame = await previewFrame(editor, width);
        await frame.getByRole('heading', { name: 'Понеділок' }).waitFor({ timeout: 30_000 });
        await frame.getByRole('heading', { level: 1 }).getByText('Контент-план на тиждень', { exact: false }).waitFor();
        const picture = frame.locator('[data-testid="blog-post-content"] img');
        await expect(picture.getAttribute('width')).resolves.toBe('900');
        await expect(frame.evaluate(() => document.documentElement.clientWidth)).resolves.toBe(width);
      }

      // About a minute ahead (the field takes whole minutes), in Kyiv time.
      const inAMinute = new Date(Date.now() + 90_000);
      const wall = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Kyiv', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).format(inAMinute).replace(' ', 'T');
      await editor.getByLabel('Дата й час', { exact: false }).fill(wall);
      await editor.getByRole('button', { name: 'Запланувати' }).click();
      await editor.getByText('Заплановано на').waitFor();
      expect((await publicPost(site, id)).status).toBe(404);
      // The last test finds it on the site: the minute and a half goes by while the others run.
      scheduled = { id, title: 'Контент-план на тиждень' };
    });

    it('shows an edit of a published article to visitors once published again, and hostile Markdown stays inert', async () => {
      const id = await newArticle(editor, site, 'Стаття з пасткою');
      await editor.getByLabel('Рубрика').fill('Безпека');
      await editor.getByLabel('Автор').fill('Олена Кравчук');
      await editor.getByLabel('Короткий опис (для картки й пошуку)').fill('Що робить сайт із небезпечним текстом.');
      await editor.getByLabel('Обкладинка').setInputFiles(path.join(images, 'cover.png'));
      await editor.getByRole('img', { name: 'Обкладинка статті' }).waitFor();
      await writeMarkdown(editor, HOSTILE_MARKDOWN);
      await waitSaved(editor);
      await editor.getByRole('button', { name: 'Опублікувати зараз' }).click();
      await editor.getByText('Опубліковано', { exact: true }).waitFor();

      const frame = await previewFrame(editor, 1280);
      await frame.getByText('Текст.').waitFor({ timeout: 30_000 });
      expect(await frame.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();

      const visitor = await browser.newPage();
      await visitor.goto(`${site.siteUrl}/blog/${id}`);
      await visitor.getByText('Текст.').waitFor();
      expect(await visitor.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
      // The script and the handler are gone; the javascript: link stays text.
      expect(await visitor.locator('[data-testid="blog-post-content"]').innerHTML()).not.toMatch(/<script|onerror|href="javascript:/);

      await writeMarkdown(editor, 'Виправлений текст без пасток.\n');
      await waitSaved(editor);
      await editor.getByText('є зміни, яких відвідувачі ще не бачать').waitFor();
      expect((await publicPost(site, id)).post!.content).not.toContain('Виправлений');
      await editor.getByRole('button', { name: 'Опублікувати зміни' }).click();
      await eventually('the edit on the public page', () => publicPost(site, id), (answer) => answer.post?.content.includes('Виправлений текст') === true, 5_000);
      await visitor.reload();
      await visitor.getByText('Виправлений текст без пасток.').waitFor();
      await visitor.close();
    });

    it('gives the second of two editors a conflict instead of overwriting, and restores an earlier revision', async () => {
      const id = await newArticle(editor, site, 'Спільна стаття');
      await writeMarkdown(editor, 'Перша версія тексту.');
      await editor.getByRole('button', { name: 'Зберегти' }).click();
      await waitSaved(editor);

      const colleague = await pageWithAuthenticator(browser);
      await joinWithApp(colleague, invitationLink(site, 'colleague@khvylia.example', 'editor'));
      await colleague.goto(`${site.siteUrl}/staff/articles/${id}`);
      await colleague.getByRole('heading', { name: 'Спільна стаття', level: 1 }).waitFor();

      await writeMarkdown(editor, 'Друга версія від редактора.');
      await editor.getByRole('button', { name: 'Зберегти' }).click();
      await waitSaved(editor);
      await writeMarkdown(colleague, 'Версія колеги поверх старої.');
      await colleague.getByRole('alert').getByText('зберіг цю статтю', { exact: false }).waitFor({ timeout: 20_000 });
      await colleague.getByRole('button', { name: 'Взяти їхню версію' }).click();
      await expect(colleague.getByLabel('Текст статті (Markdown)').inputValue()).resolves.toBe('Друга версія від редактора.');
      await colleague.context().close();

      await editor.reload();
      await editor.getByRole('heading', { name: 'Історія змін' }).waitFor();
      const revisions = editor.getByRole('checkbox');
      await eventually('three revisions', () => revisions.count(), (count) => count >= 3);
      // Newest first: the second version, the first, the creation.
      await revisions.nth(0).check();
      await revisions.nth(1).check();
      await editor.getByRole('button', { name: 'Порівняти' }).click();
      const diff = editor.getByTestId('revision-diff');
      await diff.locator('del').getByText('Перша версія тексту.').waitFor();
      await diff.locator('ins').getByText('Друга версія від редактора.').waitFor();
      await editor.getByRole('button', { name: /^Відновити версію/ }).nth(1).click();
      await eventually('the first text back', () => editor.getByLabel('Текст статті (Markdown)').inputValue(), (text) => text === 'Перша версія тексту.');
    });

    it('reorders, edits and publishes services for the home page, by keyboard as by pointer', async () => {
      const before = (await (await fetch(`${site.baseUrl}/api/services`)).json()) as Service[];
      await editor.goto(`${site.siteUrl}/staff/services`);
      await editor.getByRole('heading', { name: 'Послуги', level: 1 }).waitFor();
      // The keyboard: the first service taken with Space, moved down one, put down.
      const handle = editor.getByRole('button', { name: new RegExp(`^Перемістити «${before[0]!.title}»`) });
      await handle.focus();
      // Each step waits for what a screen reader is told.
      const announced = (text: string) => editor.locator('[id^="DndLiveRegion"]').getByText(text, { exact: false }).waitFor({ state: 'attached' });
      await editor.keyboard.press('Space');
      await announced(`Узято «${before[0]!.title}»`);
      await editor.keyboard.press('ArrowDown');
      await announced(`над «${before[1]!.title}»`);
      await editor.keyboard.press('Space');
      await announced('поставлено на місце');
      const order = async () => ((await (await fetch(`${site.baseUrl}/api/services`)).json()) as Service[]).map((service) => service.id);
      await eventually('the new order on the home page', order, (ids) => ids[0] === before[1]!.id && ids[1] === before[0]!.id, 10_000);

      // The pointer: the third service dragged by its handle above the first.
      const from = (await editor.getByRole('button', { name: new RegExp(`^Перемістити «${before[2]!.title}»`) }).boundingBox())!;
      const to = (await editor.getByRole('button', { name: new RegExp(`^Перемістити «${before[1]!.title}»`) }).boundingBox())!;
      await editor.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await editor.mouse.down();
      await editor.mouse.move(to.x + to.width / 2, to.y + 2, { steps: 12 });
      await editor.mouse.up();
      await eventually('the dragged order on the home page', order, (ids) => ids.slice(0, 3).join() === [before[2]!.id, before[1]!.id, before[0]!.id].join(), 10_000);

      await editor.getByRole('button', { name: 'Додати послугу' }).click();
      await editor.getByRole('heading', { name: 'Нова послуга', level: 2 }).waitFor();
      await editor.getByLabel('Назва').fill('Email-маркетинг');
      await editor.getByLabel('Опис').fill('Розсилки, які читають і за якими купують.');
      await editor.getByLabel('Що входить', { exact: false }).fill('Сегментація бази\nАвтоворонки');
      await editor.getByLabel('Ціна «від», ₴', { exact: false }).fill('7000');
      const frame = await previewFrame(editor, 375);
      await frame.getByRole('heading', { name: 'Email-маркетинг' }).waitFor({ timeout: 30_000 });
      await editor.getByRole('button', { name: 'Зберегти' }).click();
      await editor.getByRole('button', { name: 'Показати на головній' }).click();
      await editor.getByText('Показується на головній.').waitFor();
      const shown = await eventually('the new service', async () => (await (await fetch(`${site.baseUrl}/api/services`)).json()) as Service[], (services) => services.some((service) => service.title === 'Email-маркетинг'));
      expect(shown.at(-1)).toMatchObject({ title: 'Email-маркетинг', features: ['Сегментація бази', 'Автоворонки'], price_from: 7000 });
    });

    it('refuses a viewer the articles and services', async () => {
      const page = await pageWithAuthenticator(browser);
      await joinWithApp(page, invitationLink(site, 'reader@khvylia.example', 'viewer'));
      await expect(page.getByRole('link', { name: 'Статті' }).count()).resolves.toBe(0);
      for (const address of ['/staff/articles', '/staff/services']) {
        await page.goto(`${site.siteUrl}${address}`);
        await page.getByText('Ваша роль не дозволяє відкрити цю сторінку.').waitFor();
      }
      const response = await page.evaluate(() => fetch('/api/staff/articles').then((answer) => answer.status));
      expect(response).toBe(403);
      await page.context().close();
    });

    it.each([375, 1280])('passes axe on the articles, the editor and the services at %i px, with nothing wider than the screen', async (width) => {
      await editor.setViewportSize({ width, height: 900 });
      const title = `Доступність на ${width} px`;
      await newArticle(editor, site, title);
      const pages: [string, (page: Page) => Promise<unknown>][] = [
        ['/staff/articles', (page) => page.getByRole('link', { name: title }).waitFor()],
        ['/staff/articles', async (page) => {
          await page.getByRole('link', { name: title }).click();
          await page.getByRole('heading', { name: 'Історія змін' }).waitFor();
          await page.getByRole('button', { name: 'Жирний' }).waitFor();
        }],
        ['/staff/services', (page) => page.getByRole('heading', { name: 'Порядок на головній' }).waitFor()],
      ];
      for (const [address, ready] of pages) {
        await editor.goto(`${site.siteUrl}${address}`);
        await ready(editor);
        await expectNoSeriousA11yViolations(editor);
        expect([editor.url(), await horizontalOverflow(editor)]).toEqual([editor.url(), 0]);
      }
    });

    it('publishes the scheduled article by itself when its time comes, with nobody acting on it', async () => {
      if (!scheduled) throw new Error('the first test scheduled no article');
      const { id, title } = scheduled;
      const { post } = await eventually('the scheduled article on the site', () => publicPost(site, id), (answer) => answer.status === 200, 150_000);
      expect(post!.title).toContain(title);
      const visitor = await browser.newPage();
      await visitor.goto(`${site.siteUrl}/blog/${id}`);
      await visitor.getByRole('heading', { name: 'Понеділок' }).waitFor();
      await visitor.close();
    });
  });
});
