import { ARTICLE_LIMITS, typeset, type ApiErrorBody, type ArticleConflict, type ArticleDetail, type ArticleRevision, type ArticleRevisionSummary, type ArticleSummary, type BlogPost, type BlogPostSummary, type UploadedImage } from '@agency/shared';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { syncContent } from '../../../src/site/content/content-sync';
import { REPO_CONTENT_DIR, startTestApp, TEST_MEDIA_DIR, type TestContext } from '../../helpers/app';
import { eventually } from '../../helpers/eventually';
import { writeCutJpeg } from '../../helpers/articles';
import { joinWithApp, type JoinedMember } from '../../helpers/staff';

// The console's articles over real HTTP, on a real database (SQLite, then PostgreSQL).
jest.setTimeout(60_000);

let ctx: TestContext;
let editor: JoinedMember;
let colleague: JoinedMember;
let viewer: JoinedMember;
/** A cover the site already serves (a repo article's), until an upload gives a new one. */
let cover: string;

beforeAll(async () => {
  ctx = await startTestApp();
  editor = await joinWithApp(ctx, 'editor@khvylia.example', 'editor');
  colleague = await joinWithApp(ctx, 'colleague@khvylia.example', 'admin');
  viewer = await joinWithApp(ctx, 'viewer@khvylia.example', 'viewer');
  const posts = (await ctx.request('GET', '/api/blog')).json<BlogPostSummary[]>();
  cover = posts[0]!.image_url!;
}, 60_000);

afterAll(async () => {
  await ctx.close();
});

const COMPLETE = {
  category: 'SMM',
  excerpt: 'Як скласти план публікацій на місяць',
  author: 'Олена Кравчук',
  markdown: '## План\n\nТекст про "контент" - і все.\n',
};

async function call<T>(member: JoinedMember, method: string, path: string, json?: unknown, status = 200): Promise<T> {
  const response = await member.browser.request(method, path, json === undefined ? {} : { json });
  expect([method, path, response.statusCode, response.statusCode === status ? '' : response.body]).toEqual([method, path, status, '']);
  return response.json<T>();
}

async function create(title: string, fields: Record<string, unknown> = {}): Promise<ArticleDetail> {
  return call<ArticleDetail>(editor, 'POST', '/api/staff/articles', { title, category: '', excerpt: '', author: '', cover: '', markdown: '', ...fields }, 201);
}

function saveBody(article: ArticleDetail, changes: Partial<ArticleDetail> & { autosave?: boolean } = {}) {
  const { version, slug, title, category, excerpt, author, cover: articleCover, markdown } = { ...article, ...changes };
  return { version, slug, title, category, excerpt, author, cover: articleCover, markdown, ...(changes.autosave !== undefined && { autosave: changes.autosave }) };
}

async function publicPost(id: number): Promise<{ status: number; post?: BlogPost }> {
  const response = await ctx.request('GET', `/api/blog/${id}`);
  return { status: response.statusCode, post: response.statusCode === 200 ? response.json<BlogPost>() : undefined };
}

describe('articles in the console', () => {
  it('refuses a viewer every article route, and a visitor without a session', async () => {
    expect((await viewer.browser.request('GET', '/api/staff/articles')).statusCode).toBe(403);
    const refused = await viewer.browser.request('POST', '/api/staff/articles', { json: { title: 'Не можна', category: '', excerpt: '', author: '', cover: '', markdown: '' } });
    expect(refused.statusCode).toBe(403);
    expect((await ctx.request('GET', '/api/staff/articles')).statusCode).toBe(401);
    const titles = (await call<ArticleSummary[]>(editor, 'GET', '/api/staff/articles')).map((article) => article.title);
    expect(titles).not.toContain('Не можна');
  });

  it('creates a draft with a slug from its Ukrainian title, which visitors cannot see', async () => {
    const draft = await create('Контент-план на тиждень');
    expect(draft).toMatchObject({ slug: 'kontent-plan-na-tyzhden', state: 'draft', owner: 'console', version: 1, updatedBy: editor.email, publishedAt: null });
    expect((await publicPost(draft.id)).status).toBe(404);
    const listed = await call<ArticleSummary[]>(editor, 'GET', `/api/staff/articles?q=${encodeURIComponent('ПЛАН НА ТИЖ')}`);
    expect(listed.map((article) => [article.id, article.state])).toEqual([[draft.id, 'draft']]);
  });

  it('refuses a slug that is taken, with a message, and stores nothing', async () => {
    const first = await create('Дубль адреси');
    const before = await call<ArticleSummary[]>(editor, 'GET', '/api/staff/articles');
    const response = await editor.browser.request('POST', '/api/staff/articles', { json: { title: 'Дубль адреси', category: '', excerpt: '', author: '', cover: '', markdown: '' } });
    expect(response.statusCode).toBe(409);
    expect(response.json<ApiErrorBody>().error).toMatchObject({ code: 'SLUG_TAKEN', message: 'Адреса «dubl-adresy» уже зайнята іншою статтею: змініть її' });
    expect(await call<ArticleSummary[]>(editor, 'GET', '/api/staff/articles')).toEqual(before);
    const renamed = await editor.browser.request('PUT', `/api/staff/articles/${first.id}`, { json: saveBody(first, { slug: 'kontent-plan-na-tyzhden' }) });
    expect([renamed.statusCode, renamed.json<ApiErrorBody>().error.code]).toEqual([409, 'SLUG_TAKEN']);
    expect((await call<ArticleDetail>(editor, 'GET', `/api/staff/articles/${first.id}`)).slug).toBe('dubl-adresy');
  });

  it('gives the second of two editors saving one version a conflict, never a silent overwrite', async () => {
    const article = await create('Дві правки');
    const mine = await call<ArticleDetail>(editor, 'PUT', `/api/staff/articles/${article.id}`, saveBody(article, { markdown: 'Моя версія' }));
    expect(mine.version).toBe(2);
    const theirs = await colleague.browser.request('PUT', `/api/staff/articles/${article.id}`, { json: saveBody(article, { markdown: 'Їхня версія' }) });
    expect(theirs.statusCode).toBe(409);
    const conflict = theirs.json<ArticleConflict>();
    expect(conflict.error.code).toBe('ARTICLE_CHANGED');
    expect(conflict.current).toMatchObject({ version: 2, markdown: 'Моя версія', updatedBy: editor.email });
    expect((await call<ArticleDetail>(editor, 'GET', `/api/staff/articles/${article.id}`)).markdown).toBe('Моя версія');
  });

  it('saves an article as long as the limit allows, past the API’s usual body size, and refuses a longer one', async () => {
    const article = await create('Довга стаття');
    const longest = 'ї'.repeat(ARTICLE_LIMITS.markdown);
    const saved = await call<ArticleDetail>(editor, 'PUT', `/api/staff/articles/${article.id}`, saveBody(article, { markdown: longest }));
    expect(saved.markdown).toHaveLength(ARTICLE_LIMITS.markdown);
    const longer = await editor.browser.request('PUT', `/api/staff/articles/${article.id}`, { json: saveBody(saved, { markdown: `${longest}ї` }) });
    expect(longer.statusCode).toBe(400);
    const huge = await editor.browser.request('PUT', `/api/staff/articles/${article.id}`, { json: saveBody(saved, { markdown: 'ї'.repeat(ARTICLE_LIMITS.markdown * 2) }) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json<ApiErrorBody>().error.message).toMatch(/^Запит завеликий \(максимум \d+ КіБ\)$/);
    expect((await call<ArticleDetail>(editor, 'GET', `/api/staff/articles/${article.id}`)).version).toBe(saved.version);
  });

  it('refuses to publish an incomplete article, naming what is missing', async () => {
    const article = await create('Неповна стаття', { category: 'SEO' });
    const response = await editor.browser.request('POST', `/api/staff/articles/${article.id}/publish`, { json: { version: article.version } });
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiErrorBody>().error).toMatchObject({
      code: 'ARTICLE_INCOMPLETE',
      fields: { excerpt: 'Вкажіть короткий опис', author: 'Вкажіть автора', cover: 'Додайте обкладинку', markdown: 'Напишіть текст статті' },
    });
    expect((await publicPost(article.id)).status).toBe(404);
  });

  it('publishes the working copy to visitors, sanitized and typeset; later edits wait for the next publish', async () => {
    const hostile = '## Розділ\n\nТекст "у лапках".\n\n<script>alert(1)</script>\n\n<img src="https://example.com/x.png" onerror="alert(2)">\n';
    const article = await create('Стаття для відвідувачів', { ...COMPLETE, cover, markdown: hostile });
    const published = await call<ArticleDetail>(editor, 'POST', `/api/staff/articles/${article.id}/publish`, { version: article.version });
    expect(published).toMatchObject({ state: 'published', unpublishedChanges: false });
    expect(published.publishedAt).not.toBeNull();
    const { post } = await eventually('the published post', () => publicPost(article.id), (answer) => answer.status === 200);
    expect(post).toMatchObject({ title: 'Стаття для відвідувачів', category: 'SMM', author: 'Олена Кравчук', image_url: cover });
    expect(post!.content).toContain('<h2>Розділ</h2>');
    expect(post!.content).toMatch(/«у\s?лапках»/);
    expect(post!.content).not.toMatch(/<script|onerror|alert/);
    await eventually('the post first in the blog list', async () => (await ctx.request('GET', '/api/blog')).json<BlogPostSummary[]>()[0]?.id, (id) => id === article.id);

    const edited = await call<ArticleDetail>(editor, 'PUT', `/api/staff/articles/${article.id}`, saveBody(published, { title: 'Оновлена назва' }));
    expect(edited).toMatchObject({ state: 'published', unpublishedChanges: true });
    expect((await publicPost(article.id)).post!.title).toBe('Стаття для відвідувачів');
    await call<ArticleDetail>(editor, 'POST', `/api/staff/articles/${article.id}/publish`, { version: edited.version });
    await eventually('the edited title', () => publicPost(article.id), (answer) => answer.post?.title === 'Оновлена назва');

    const unpublished = await call<ArticleDetail>(editor, 'POST', `/api/staff/articles/${article.id}/unpublish`, { version: edited.version });
    expect(unpublished.state).toBe('unpublished');
    await eventually('the post gone', () => publicPost(article.id), (answer) => answer.status === 404);
  });

  it('previews the fields on screen, saved or not, rendered as visitors would get them', async () => {
    const article = await create('Попередній перегляд');
    const unsaved = { title: 'Назва "з лапками"', category: 'SEO', excerpt: 'Опис', author: 'Олена', cover, markdown: '## Розділ\n\n<script>alert(1)</script>Текст' };
    const post = await call<BlogPost>(editor, 'POST', `/api/staff/articles/${article.id}/preview`, unsaved);
    expect(post).toMatchObject({ id: article.id, title: typeset('Назва «з лапками»'), category: 'SEO', image_url: cover });
    expect(post.content).toContain('<h2>Розділ</h2>');
    expect(post.content).not.toContain('script');
    expect((await call<ArticleDetail>(editor, 'GET', `/api/staff/articles/${article.id}`)).title).toBe('Попередній перегляд');
    expect((await viewer.browser.request('POST', `/api/staff/articles/${article.id}/preview`, { json: unsaved })).statusCode).toBe(403);
  });

  it('keeps every save as a revision, compares and restores one as a new revision', async () => {
    const article = await create('Історія правок', { markdown: 'Перший текст' });
    const second = await call<ArticleDetail>(editor, 'PUT', `/api/staff/articles/${article.id}`, saveBody(article, { markdown: 'Другий текст' }));
    const third = await call<ArticleDetail>(colleague, 'PUT', `/api/staff/articles/${article.id}`, saveBody(second, { markdown: 'Третій текст', title: 'Історія правок (нова)' }));
    const revisions = await call<ArticleRevisionSummary[]>(editor, 'GET', `/api/staff/articles/${article.id}/revisions`);
    expect(revisions.map(({ version, actor, kind }) => ({ version, actor, kind }))).toEqual([
      { version: 3, actor: colleague.email, kind: 'saved' },
      { version: 2, actor: editor.email, kind: 'saved' },
      { version: 1, actor: editor.email, kind: 'created' },
    ]);
    const first = await call<ArticleRevision>(editor, 'GET', `/api/staff/articles/${article.id}/revisions/${revisions[2]!.id}`);
    expect(first).toMatchObject({ markdown: 'Перший текст', title: 'Історія правок', slug: 'istoriia-pravok' });

    const stale = await editor.browser.request('POST', `/api/staff/articles/${article.id}/revisions/${revisions[2]!.id}/restore`, { json: { version: second.version } });
    expect(stale.statusCode).toBe(409);
    const restored = await call<ArticleDetail>(editor, 'POST', `/api/staff/articles/${article.id}/revisions/${revisions[2]!.id}/restore`, { version: third.version });
    expect(restored).toMatchObject({ version: 4, markdown: 'Перший текст', title: 'Історія правок' });
    const after = await call<ArticleRevisionSummary[]>(editor, 'GET', `/api/staff/articles/${article.id}/revisions`);
    expect(after[0]).toMatchObject({ version: 4, kind: 'restored', restoredFrom: revisions[2]!.id, actor: editor.email });
    expect(after).toHaveLength(4);
  });

  it('folds one person’s autosaves in a row into one revision; an explicit save starts a new one', async () => {
    let article = await create('Автозбереження');
    for (const text of ['А', 'Аб', 'Абв']) {
      article = await call<ArticleDetail>(editor, 'PUT', `/api/staff/articles/${article.id}`, saveBody(article, { markdown: text, autosave: true }));
    }
    article = await call<ArticleDetail>(editor, 'PUT', `/api/staff/articles/${article.id}`, saveBody(article, { markdown: 'Абвг' }));
    const unchanged = await call<ArticleDetail>(editor, 'PUT', `/api/staff/articles/${article.id}`, saveBody(article));
    expect(unchanged.version).toBe(article.version);
    const revisions = await call<ArticleRevisionSummary[]>(editor, 'GET', `/api/staff/articles/${article.id}/revisions`);
    expect(revisions.map(({ version, kind }) => [version, kind])).toEqual([
      [5, 'saved'],
      [4, 'autosaved'],
      [1, 'created'],
    ]);
    const autosaved = await call<ArticleRevision>(editor, 'GET', `/api/staff/articles/${article.id}/revisions/${revisions[1]!.id}`);
    expect(autosaved.markdown).toBe('Абв');
  });

  it('schedules only a complete article, in the future', async () => {
    const article = await create('Стаття на понеділок', { ...COMPLETE, cover });
    const past = await editor.browser.request('POST', `/api/staff/articles/${article.id}/schedule`, { json: { version: article.version, publishAt: '2020-01-06T09:00:00+02:00' } });
    expect([past.statusCode, past.json<ApiErrorBody>().error.code]).toEqual([400, 'PUBLISH_TIME_PAST']);
    const monday = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const scheduled = await call<ArticleDetail>(editor, 'POST', `/api/staff/articles/${article.id}/schedule`, { version: article.version, publishAt: monday });
    expect(scheduled).toMatchObject({ state: 'scheduled', publishAt: monday });
    expect((await publicPost(article.id)).status).toBe(404);
    const cancelled = await call<ArticleDetail>(editor, 'POST', `/api/staff/articles/${article.id}/unpublish`, { version: scheduled.version });
    expect(cancelled).toMatchObject({ state: 'draft', publishAt: null });
  });
});

describe('a file’s article', () => {
  it('is read-only until the console takes it over; then the folder sync leaves it alone', async () => {
    const articles = await call<ArticleSummary[]>(editor, 'GET', '/api/staff/articles');
    const fromFile = articles.find((article) => article.owner === 'files' && article.state === 'published')!;
    const detail = await call<ArticleDetail>(editor, 'GET', `/api/staff/articles/${fromFile.id}`);
    expect(detail.version).toBe(0);
    expect(detail.markdown).not.toBe('');

    const refused = await editor.browser.request('PUT', `/api/staff/articles/${fromFile.id}`, { json: { ...saveBody(detail, { title: 'Тихцем' }), version: 1 } });
    expect([refused.statusCode, refused.json<ApiErrorBody>().error.code]).toEqual([409, 'ARTICLE_FILE_OWNED']);

    const taken = await call<ArticleDetail>(editor, 'POST', `/api/staff/articles/${fromFile.id}/take-over`, {});
    expect(taken).toMatchObject({ owner: 'console', state: 'published', version: 1, unpublishedChanges: false, markdown: detail.markdown, title: detail.title });
    const edited = await call<ArticleDetail>(editor, 'PUT', `/api/staff/articles/${fromFile.id}`, saveBody(taken, { title: 'Назва з консолі' }));
    await call<ArticleDetail>(editor, 'POST', `/api/staff/articles/${fromFile.id}/publish`, { version: edited.version });

    const report = await syncContent(ctx.db, { contentDir: REPO_CONTENT_DIR, mediaDir: TEST_MEDIA_DIR });
    expect(report.console).toHaveLength(1);
    expect(report.updated).toEqual([]);
    expect(report.unpublished).toEqual([]);
    await eventually('the console’s title', () => publicPost(fromFile.id), (answer) => answer.post?.title === typeset('Назва з консолі'));
  });
});

describe('images', () => {
  let article: ArticleDetail;
  beforeAll(async () => {
    article = await create('Стаття з картинками');
  });

  const photo = (width: number, height: number, format: 'png' | 'webp' | 'jpeg' | 'gif' = 'png') =>
    sharp({ create: { width, height, channels: 3, background: '#0e7c86' } }).toFormat(format).toBuffer();

  function upload(use: string, body: Buffer, type = 'image/png', member = editor) {
    return member.browser.request('POST', `/api/staff/articles/${article.id}/images?use=${use}`, { body, headers: { 'content-type': type } });
  }

  async function stored(): Promise<number> {
    const row = await ctx.db.kysely.selectFrom('media_files').select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async function served(url: string) {
    const response = await ctx.request('GET', url);
    expect([url, response.statusCode]).toEqual([url, 200]);
    return { type: response.headers['content-type'], cache: response.headers['cache-control'], ...(await sharp(response.raw).metadata()) };
  }

  it('makes an uploaded cover the 1200×630 JPEG every cover is, served to visitors', async () => {
    const response = await upload('cover', await photo(1600, 1000));
    expect(response.statusCode).toBe(201);
    const image = response.json<UploadedImage>();
    expect(image).toMatchObject({ width: 1200, height: 630 });
    expect(image.url).toMatch(/^\/media\/posts\/stattia-z-kartynkamy\.[0-9a-f]{10}\.jpg$/);
    expect(await served(image.url)).toMatchObject({ type: 'image/jpeg', cache: 'public, max-age=31536000, immutable', format: 'jpeg', width: 1200, height: 630 });
  });

  it('keeps an inline picture’s shape at most a cover wide, its size in its name, and the page reserves its space', async () => {
    const response = await upload('inline', await photo(2000, 1500, 'webp'), 'application/octet-stream');
    expect(response.statusCode).toBe(201);
    const image = response.json<UploadedImage>();
    expect(image).toMatchObject({ width: 1200, height: 900 });
    expect(await served(image.url)).toMatchObject({ format: 'jpeg', width: 1200, height: 900 });

    const withPicture = await create('Стаття з картинкою в тексті', { ...COMPLETE, cover, markdown: `Текст.\n\n![Графік](${image.url})\n` });
    await call<ArticleDetail>(editor, 'POST', `/api/staff/articles/${withPicture.id}/publish`, { version: withPicture.version });
    const { post } = await eventually('the post', () => publicPost(withPicture.id), (answer) => answer.status === 200);
    expect(post!.content).toContain(`<img src="${image.url}" alt="Графік" width="1200" height="900" loading="lazy" />`);
  });

  it('serves an upload on a machine whose disk never had it, from the database', async () => {
    const image = (await upload('inline', await photo(640, 480, 'jpeg'), 'image/jpeg')).json<UploadedImage>();
    fs.rmSync(path.join(TEST_MEDIA_DIR, image.url.replace(/^\/media\//, '')));
    expect(await served(image.url)).toMatchObject({ format: 'jpeg', width: 640, height: 480 });
  });

  it.each([
    ['text named as a PNG', async () => Buffer.from('це не картинка'), 'image/png', 400, 'Файл не є зображенням JPEG, PNG чи WebP'],
    ['a GIF', () => photo(800, 600, 'gif'), 'image/gif', 400, 'Формат GIF не підтримується: завантажте JPEG, PNG чи WebP'],
    ['a cover too small', () => photo(300, 200), 'image/png', 400, 'Обкладинка замала (300×200): потрібно щонайменше 600×315, краще 1200×630'],
    ['a photo cut short', async () => {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'agency-cut-')), 'cut.jpg');
      await writeCutJpeg(file);
      return fs.readFileSync(file);
    }, 'image/jpeg', 400, 'Зображення пошкоджене: його не вдалося обробити'],
    ['more than 10 MiB', async () => Buffer.alloc(10 * 1024 * 1024 + 1, 1), 'image/png', 413, 'Запит завеликий (максимум 10 МіБ)'],
  ])('refuses %s with a clear message and stores nothing', async (_what, bytes, type, status, message) => {
    const before = await stored();
    const files = fs.readdirSync(path.join(TEST_MEDIA_DIR, 'posts')).length;
    const response = await upload('cover', await bytes(), type);
    expect([response.statusCode, response.json<ApiErrorBody>().error.message]).toEqual([status, message]);
    expect(await stored()).toBe(before);
    expect(fs.readdirSync(path.join(TEST_MEDIA_DIR, 'posts'))).toHaveLength(files);
  });

  it('refuses a viewer', async () => {
    const response = await upload('cover', await photo(1600, 1000), 'image/png', viewer);
    expect(response.statusCode).toBe(403);
  });
});
