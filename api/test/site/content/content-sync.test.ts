import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BlogPost } from '@agency/shared';
import type { FastifyBaseLogger } from 'fastify';
import { Migrator } from 'kysely';
import sharp from 'sharp';
import { articleFiles, ContentFolderMissing, syncContent, type SyncOptions } from '../../../src/site/content/content-sync';
import { articleDate, parseFrontMatter, splitFrontMatter } from '../../../src/site/content/front-matter';
import { renderArticle } from '../../../src/site/content/markdown';
import { publishArticles } from '../../../src/site/content/publish-at-start';
import { createDatabase, type Database } from '../../../src/platform/db/connection';
import { migrateToLatest } from '../../../src/platform/db/migrate';
import { migrations } from '../../../src/platform/db/migrations';
import { getBlogPost, listBlogPosts, listPublishedPostDates, readContentRevision } from '../../../src/site/content/content-repository';
import { REPO_CONTENT_DIR, startTestApp } from '../../helpers/app';
import { makeContentDir, writeArticle, writeCutJpeg, writePng } from '../../helpers/articles';
import { createTestDatabase, openMigratedTestDatabase, type MigratedTestDatabase } from '../../helpers/database';
import { eventually } from '../../helpers/eventually';

// Publishing from Markdown files into a real database (SQLite, then PostgreSQL).
jest.setTimeout(60_000);

let testDb: MigratedTestDatabase;
let db: Database;
let options: SyncOptions;

const BODY = [
  'Вступ із **жирним**, *курсивом* і [посиланням](https://example.com).',
  '',
  '## Розділ',
  '',
  '- перший пункт',
  '- другий пункт',
  '',
  '<script>alert(1)</script>',
  '',
].join('\n');

beforeEach(async () => {
  testDb = await openMigratedTestDatabase();
  db = testDb.db;
  options = { contentDir: makeContentDir(), mediaDir: fs.mkdtempSync(path.join(os.tmpdir(), 'agency-media-')) };
});

afterEach(async () => {
  await testDb.close();
  fs.rmSync(options.contentDir, { recursive: true, force: true });
  fs.rmSync(options.mediaDir, { recursive: true, force: true });
});

async function postBySlug(slug: string) {
  return db.kysely.selectFrom('blog_posts').selectAll().where('slug', '=', slug).executeTakeFirst();
}

function mediaFile(url: string): string {
  return path.join(options.mediaDir, url.replace(/^\/media\//, ''));
}

it('inserts new articles as sanitized HTML with their covers prepared at 1200×630', async () => {
  writeArticle(options.contentDir, 'first.md', { slug: 'pershyi', title: 'Перша', date: '2026-02-03T10:00:00Z' }, BODY);
  await writePng(path.join(options.contentDir, 'images', 'photo.png'), 1600, 1000);
  writeArticle(options.contentDir, 'second.md', { slug: 'druhyi', title: 'Друга', cover: 'images/photo.png' });

  const report = await syncContent(db, options);
  expect(report).toMatchObject({ added: ['pershyi', 'druhyi'], updated: [], unpublished: [], refused: [] });

  const first = await postBySlug('pershyi');
  expect(first?.content).toBe(
    '<p>Вступ із <strong>жирним</strong>, <em>курсивом</em> і\u00a0<a href="https://example.com" rel="noopener noreferrer">посиланням</a>.</p>\n' +
      '<h2>Розділ</h2>\n<ul>\n<li>перший пункт</li>\n<li>другий пункт</li>\n</ul>',
  );
  expect(db.dialect.readTimestamp(first?.created_at)).toBe('2026-02-03T10:00:00.000Z');
  // The SVG is served as drawn, its JPEG twin (for link previews) beside it.
  expect(first?.image_url).toMatch(/^\/media\/posts\/pershyi\.[0-9a-f]{10}\.svg$/);
  expect(fs.readFileSync(mediaFile(first!.image_url))).toEqual(fs.readFileSync(path.join(options.contentDir, 'images/analytics.svg')));
  await expect(sharp(mediaFile(first!.image_url.replace(/\.svg$/, '.jpg'))).metadata()).resolves.toMatchObject({ format: 'jpeg', width: 1200, height: 630 });

  const second = await postBySlug('druhyi');
  expect(second?.image_url).toMatch(/^\/media\/posts\/druhyi\.[0-9a-f]{10}\.jpg$/);
  await expect(sharp(mediaFile(second!.image_url)).metadata()).resolves.toMatchObject({ format: 'jpeg', width: 1200, height: 630 });
  // A bare date is that day at 09:00 in Kyiv.
  expect(db.dialect.readTimestamp(second?.created_at)).toBe('2026-02-03T07:00:00.000Z');
});

it("stores an article's own HTML sanitized, whatever it holds", async () => {
  const html =
    '<h2 onclick="alert(1)">Заголовок</h2><script>alert(1)</script><p>Текст <a href="javascript:alert(1)">посилання</a></p><img src="x" onerror="alert(1)"><iframe src="https://evil.example"></iframe>';
  writeArticle(options.contentDir, 'xss.md', { slug: 'xss-attempt' }, `${html}\n`);
  await syncContent(db, options);
  const post = await postBySlug('xss-attempt');
  expect(post?.content).toContain('<h2>Заголовок</h2>');
  expect(post?.content).toContain('посилання');
  expect(post?.content).not.toMatch(/script|onclick|onerror|javascript:|iframe/i);
});

it("publishes title, excerpt and text with the site's typography, code as written", async () => {
  const body = ["Кав'ярня \"Зерно\" — місце, де я п’ю каву.", '', '```', "const a = \"в коді — п'ять\";", '```', ''].join('\n');
  writeArticle(options.contentDir, 'a.md', { slug: 'a', title: "П'ять звітів і \"висновки\"", excerpt: 'Коротко — про все, що в GA4' }, body);
  await syncContent(db, options);
  const post = await postBySlug('a');
  expect(post?.title).toBe('Пʼять звітів і\u00a0«висновки»');
  expect(post?.excerpt).toBe('Коротко\u00a0— про все, що в\u00a0GA4');
  expect(post?.content).toBe(
    '<p>Кавʼярня «Зерно»\u00a0— місце, де я\u00a0пʼю каву.</p>\n<pre><code>const a = "в коді — п\'ять";\n</code></pre>',
  );
  // Typeset text hashes the same every time: a second sync finds nothing to update.
  expect(await syncContent(db, options)).toMatchObject({ updated: [], unchanged: ['a'] });
});

it('changes nothing when run again: no write, the content revision stays', async () => {
  writeArticle(options.contentDir, 'a.md', { slug: 'a' });
  writeArticle(options.contentDir, 'b.md', { slug: 'b' });
  await syncContent(db, options);
  const revision = await readContentRevision(db);
  const report = await syncContent(db, options);
  expect(report).toMatchObject({ added: [], updated: [], unpublished: [], unchanged: ['a', 'b'], refused: [] });
  expect(await readContentRevision(db)).toBe(revision);
});

it('updates a changed file matched by its slug, keeping the post id', async () => {
  const file = writeArticle(options.contentDir, 'a.md', { slug: 'a', title: 'Стара назва' });
  await syncContent(db, options);
  const before = await postBySlug('a');
  const revision = await readContentRevision(db);
  writeArticle(options.contentDir, 'a.md', { slug: 'a', title: 'Нова назва' }, 'Новий *текст*.');
  expect(path.basename(file)).toBe('a.md');

  const report = await syncContent(db, options);
  expect(report).toMatchObject({ added: [], updated: ['a'], unchanged: [] });
  const after = await getBlogPost(db, Number(before!.id));
  expect(after).toMatchObject({ title: 'Нова назва', content: '<p>Новий <em>текст</em>.</p>' });
  expect(await readContentRevision(db)).toBeGreaterThan(revision);
  const [dates] = await listPublishedPostDates(db);
  expect(new Date(dates!.updated_at).getTime()).toBeGreaterThan(new Date(db.dialect.readTimestamp(before!.updated_at)).getTime());
});

it('unpublishes a removed file, and publishes it again under the same id when it comes back', async () => {
  const file = writeArticle(options.contentDir, 'a.md', { slug: 'a' });
  writeArticle(options.contentDir, 'b.md', { slug: 'b' });
  await syncContent(db, options);
  const id = Number((await postBySlug('a'))!.id);
  const text = fs.readFileSync(file, 'utf8');
  fs.rmSync(file);

  expect(await syncContent(db, options)).toMatchObject({ unpublished: ['a'], unchanged: ['b'] });
  expect(await getBlogPost(db, id)).toBeUndefined();
  expect((await listBlogPosts(db, 50)).map((post) => post.id)).not.toContain(id);
  expect((await listPublishedPostDates(db)).map((post) => post.id)).not.toContain(id);
  expect(await syncContent(db, options)).toMatchObject({ unpublished: [], unchanged: ['b'] });

  fs.writeFileSync(file, text);
  expect(await syncContent(db, options)).toMatchObject({ updated: ['a'] });
  expect((await getBlogPost(db, id))?.id).toBe(id);
});

it('keeps a draft off the site, and turning a published article into a draft takes it down', async () => {
  writeArticle(options.contentDir, 'draft.md', { slug: 'draft', draft: true, cover: 'images/not-there-yet.jpg' });
  writeArticle(options.contentDir, 'live.md', { slug: 'live' });
  expect(await syncContent(db, options)).toMatchObject({ added: ['live'], drafts: ['draft.md'], refused: [] });
  expect(await postBySlug('draft')).toBeUndefined();

  writeArticle(options.contentDir, 'live.md', { slug: 'live', draft: true });
  expect(await syncContent(db, options)).toMatchObject({ unpublished: ['live'], drafts: ['draft.md', 'live.md'] });
});

it('keeps the Markdown of each article, and stores it for a post synced before it was kept without rewriting the post', async () => {
  writeArticle(options.contentDir, 'a.md', { slug: 'a' }, BODY);
  await syncContent(db, options);
  expect((await postBySlug('a'))?.markdown).toBe(`\n${BODY}`);
  await db.kysely.updateTable('blog_posts').set({ markdown: null }).execute();
  const before = await postBySlug('a');
  const report = await syncContent(db, options);
  expect(report).toMatchObject({ added: [], updated: [], unchanged: ['a'] });
  expect(await postBySlug('a')).toEqual({ ...before, markdown: `\n${BODY}` });
});

it('never writes nor unpublishes an article the console owns: its file is reported and left', async () => {
  writeArticle(options.contentDir, 'kept.md', { slug: 'kept', title: 'З файлу' });
  writeArticle(options.contentDir, 'gone.md', { slug: 'gone' });
  await syncContent(db, options);
  await db.kysely.updateTable('blog_posts').set({ owner: 'console', title: 'З консолі' }).execute();
  writeArticle(options.contentDir, 'kept.md', { slug: 'kept', title: 'Змінено у файлі' });
  fs.rmSync(path.join(options.contentDir, 'gone.md'));
  const revision = await readContentRevision(db);

  const report = await syncContent(db, options);
  expect(report).toMatchObject({ added: [], updated: [], unpublished: [], console: ['kept.md'], refused: [] });
  expect((await postBySlug('kept'))).toMatchObject({ title: 'З консолі', unpublished_at: null });
  expect((await postBySlug('gone'))).toMatchObject({ title: 'З консолі', unpublished_at: null });
  expect(await readContentRevision(db)).toBe(revision);
});

describe('a broken article', () => {
  it.each([
    ['no title', { title: undefined }, 'title', 'бракує поля «title»'],
    ['an empty category', { category: '' }, 'category', 'поле «category»: потрібно непорожній текст до 100 символів'],
    ['a date that does not exist', { date: '2026-02-30' }, 'date', 'такої дати немає'],
    ['a date in another format', { date: '03.02.2026' }, 'date', 'поле «date»: потрібно дата РРРР-ММ-ДД'],
    ['a slug with capitals', { slug: 'Mii-Post' }, 'slug', 'поле «slug»: потрібно малі латинські літери'],
    ['a misspelt field', { titel: 'Друкарська помилка' }, 'titel', 'невідоме поле «titel»'],
    ['a draft flag that is not true or false', { draft: 'так' }, 'draft', 'поле «draft»: потрібно true або false'],
    ['a missing cover', { cover: 'images/missing.jpg' }, 'cover', 'файл «images/missing.jpg» не знайдено'],
    ['a cover outside the folder', { cover: '../../etc/passwd' }, 'cover', 'лежить поза текою статей'],
    ['a cover of another format', { cover: 'images/notes.txt' }, 'cover', 'підтримуються SVG, JPEG, PNG і WebP'],
  ])('with %s is refused with its file name and field; the rest is published', async (_case, fields, field, message) => {
    fs.writeFileSync(path.join(options.contentDir, 'images', 'notes.txt'), 'not a picture');
    writeArticle(options.contentDir, 'good.md', { slug: 'good' });
    writeArticle(options.contentDir, 'broken.md', { slug: 'broken', ...fields });
    const report = await syncContent(db, options);
    expect(report.added).toEqual(['good']);
    expect(report.refused).toEqual([{ file: 'broken.md', field, message: expect.stringContaining(message) }]);
    expect(await postBySlug('broken')).toBeUndefined();
  });

  it('with YAML that does not parse, no front matter, a tiny or unsafe cover, or a slug taken is refused', async () => {
    fs.writeFileSync(path.join(options.contentDir, 'yaml.md'), '---\ntitle: Назва: з двокрапкою\n---\nТекст');
    fs.writeFileSync(path.join(options.contentDir, 'plain.md'), '# Лише текст\n');
    await writePng(path.join(options.contentDir, 'images', 'tiny.png'), 300, 200);
    writeArticle(options.contentDir, 'tiny.md', { slug: 'tiny', cover: 'images/tiny.png' });
    fs.writeFileSync(path.join(options.contentDir, 'images', 'evil.svg'), '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');
    writeArticle(options.contentDir, 'evil.md', { slug: 'evil', cover: 'images/evil.svg' });
    writeArticle(options.contentDir, 'a-first.md', { slug: 'same' });
    writeArticle(options.contentDir, 'b-second.md', { slug: 'same' });
    const report = await syncContent(db, options);
    expect(report.added).toEqual(['same']);
    expect(report.refused.map(({ file, field }) => [file, field])).toEqual([
      ['b-second.md', 'slug'],
      ['evil.md', 'cover'],
      ['plain.md', 'front matter'],
      ['tiny.md', 'cover'],
      ['yaml.md', 'front matter'],
    ]);
    expect(report.refused[0]?.message).toContain('slug «same» уже має a-first.md');
    expect(report.refused[3]?.message).toContain('замале (300×200)');
  });

  it('with a photo cut short (its header reads, the picture does not) is refused for its cover', async () => {
  await writeCutJpeg(path.join(options.contentDir, 'images', 'cut.jpg'));
    writeArticle(options.contentDir, 'good.md', { slug: 'good' });
    writeArticle(options.contentDir, 'cut.md', { slug: 'cut', cover: 'images/cut.jpg' });
    const report = await syncContent(db, options);
    expect(report.added).toEqual(['good']);
    expect(report.refused).toEqual([{ file: 'cut.md', field: 'cover', message: '«images/cut.jpg» пошкоджене: не вдалося його обробити' }]);
  });

  it('leaves its post published as it was', async () => {
    writeArticle(options.contentDir, 'a.md', { slug: 'a', title: 'Жива стаття' });
    await syncContent(db, options);
    writeArticle(options.contentDir, 'a.md', { slug: 'a', title: 'Жива стаття', date: 'вчора' });
    const report = await syncContent(db, options);
    expect(report).toMatchObject({ unpublished: [], refused: [{ file: 'a.md', field: 'date' }] });
    expect((await listBlogPosts(db, 50)).map((post) => post.title)).toEqual(['Жива стаття']);
  });
});

it('changes nothing when the content folder is missing', async () => {
  writeArticle(options.contentDir, 'a.md', { slug: 'a' });
  await syncContent(db, options);
  await expect(syncContent(db, { ...options, contentDir: path.join(options.contentDir, 'nope') })).rejects.toThrow(ContentFolderMissing);
  expect(await listBlogPosts(db, 50)).toHaveLength(1);
});

it('never keeps the server from starting: broken articles are logged with file and field, the rest published', async () => {
  writeArticle(options.contentDir, 'good.md', { slug: 'good', title: 'Добра' });
  writeArticle(options.contentDir, 'no-title.md', { slug: 'no-title', title: undefined });
  await writeCutJpeg(path.join(options.contentDir, 'images', 'cut.jpg'));
  writeArticle(options.contentDir, 'cut.md', { slug: 'cut', cover: 'images/cut.jpg' });
  const warnings: { file?: string; field?: string; msg: string }[] = [];
  const log = { warn: (entry: { file?: string; field?: string }, msg: string) => warnings.push({ ...entry, msg }), info: () => undefined };
  await publishArticles(db, options, log as unknown as FastifyBaseLogger);
  expect(warnings).toEqual([
    { file: 'cut.md', field: 'cover', msg: 'article not published: «images/cut.jpg» пошкоджене: не вдалося його обробити' },
    { file: 'no-title.md', field: 'title', msg: 'article not published: бракує поля «title»' },
  ]);

  const ctx = await startTestApp(options);
  try {
    const posts = (await ctx.request('GET', '/api/blog')).json<BlogPost[]>();
    expect(posts.map((post) => post.title)).toEqual(['Добра']);
  } finally {
    await ctx.close();
  }
});

it('publishes at server start, serves the covers, and shows a later edit or removal without a restart', async () => {
  writeArticle(options.contentDir, 'a.md', { slug: 'a', title: 'До оновлення' });
  const ctx = await startTestApp(options);
  try {
    const [summary] = (await ctx.request('GET', '/api/blog')).json<BlogPost[]>();
    expect(summary?.title).toBe('До оновлення');
    const cover = await ctx.request('GET', summary!.image_url);
    expect(cover.statusCode).toBe(200);
    expect(cover.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(cover.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const twin = await ctx.request('GET', summary!.image_url.replace(/\.svg$/, '.jpg'));
    expect(twin.statusCode).toBe(200);
    expect(twin.headers['content-type']).toBe('image/jpeg');

    // Another process (here: another connection) syncs an edited file.
    writeArticle(options.contentDir, 'a.md', { slug: 'a', title: 'Після оновлення' }, '## Новий розділ');
    await syncContent(ctx.db, options);
    const post = await eventually(
      'the API to serve the edited post',
      async () => (await ctx.request('GET', `/api/blog/${summary!.id}`)).json<BlogPost>(),
      (value) => value.title === 'Після оновлення',
    );
    expect(post.content).toBe('<h2>Новий розділ</h2>');

    // Removed from the folder: gone from the API and the sitemap, without a restart.
    fs.rmSync(path.join(options.contentDir, 'a.md'));
    await syncContent(ctx.db, options);
    await eventually('the post to be gone', async () => (await ctx.request('GET', `/api/blog/${summary!.id}`)).statusCode, (status) => status === 404);
    await expect(ctx.request('GET', '/api/blog').then((response) => response.json<BlogPost[]>())).resolves.toEqual([]);
    expect((await ctx.request('GET', '/sitemap.xml')).body).not.toContain(`/blog/${summary!.id}`);
  } finally {
    await ctx.close();
  }
});

it('takes over a database seeded before articles were files: matched by slug, same ids, updated once', async () => {
  const oldTestDb = await createTestDatabase();
  const old = createDatabase(oldTestDb.url);
  try {
    // The schema and rows as the code-seeded blog left them (before migration 0005).
    const { error } = await new Migrator({ db: old.kysely, provider: { getMigrations: async () => migrations } }).migrateTo('0004_lead_outbox');
    expect(error).toBeUndefined();
    const files = articleFiles(REPO_CONTENT_DIR);
    const ids = new Map<string, number>();
    for (const file of [...files, 'stara-stattia']) {
      const source = files.includes(file) ? splitFrontMatter(fs.readFileSync(path.join(REPO_CONTENT_DIR, file), 'utf8')) : undefined;
      const meta = source ? parseFrontMatter(source.yaml) : { slug: file, title: 'Стара', excerpt: '…', category: 'SMM', author: 'Хтось', date: '2025-01-01', cover: 'x.svg' };
      const row = await old.kysely
        .insertInto('blog_posts')
        .values({
          slug: meta.slug,
          title: meta.title,
          excerpt: meta.excerpt,
          category: meta.category,
          author: meta.author,
          image_url: `/media/blog/${path.basename(meta.cover)}`,
          content: source ? renderArticle(source.body) : '<p>Стара стаття.</p>',
          created_at: old.dialect.timestamp(articleDate(meta.date)),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.set(meta.slug, Number(row.id));
    }
    await migrateToLatest(old);

    const report = await syncContent(old, { ...options, contentDir: REPO_CONTENT_DIR });
    const slugs = [...ids.keys()].filter((slug) => slug !== 'stara-stattia');
    expect(report).toMatchObject({ added: [], unchanged: [], unpublished: ['stara-stattia'], refused: [] });
    expect([...report.updated].sort()).toEqual([...slugs].sort());
    const published = await listBlogPosts(old, 50);
    expect(published.map((post) => post.id).sort((a, b) => a - b)).toEqual(slugs.map((slug) => ids.get(slug)).sort((a, b) => a! - b!));
    for (const post of published) expect(post.image_url).toMatch(/^\/media\/posts\/[a-z0-9-]+\.[0-9a-f]{10}\.svg$/);

    const revision = await readContentRevision(old);
    expect(await syncContent(old, { ...options, contentDir: REPO_CONTENT_DIR })).toMatchObject({ added: [], updated: [], unpublished: [] });
    expect(await readContentRevision(old)).toBe(revision);
  } finally {
    await old.destroy();
    await oldTestDb.drop();
  }
});
