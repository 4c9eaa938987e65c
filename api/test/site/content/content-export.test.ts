import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportArticles } from '../../../src/site/content/content-export';
import { articleFiles, syncContent } from '../../../src/site/content/content-sync';
import type { Database } from '../../../src/platform/db/connection';
import { createArticle, publishArticle } from '../../../src/staff/articles/article-work';
import type { Actor } from '../../../src/staff/inbox/lead-work';
import { REPO_CONTENT_DIR } from '../../helpers/app';
import { openMigratedTestDatabase, type MigratedTestDatabase } from '../../helpers/database';

// `npm run content -- export`: the site's articles, the console's included, written as the
// content folder keeps them, and read back by a sync into another database (SQLite, then PostgreSQL).
jest.setTimeout(60_000);

const folders: string[] = [];
const databases: MigratedTestDatabase[] = [];

function folder(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  folders.push(dir);
  return dir;
}

async function database(): Promise<Database> {
  const testDb = await openMigratedTestDatabase();
  databases.push(testDb);
  return testDb.db;
}

afterAll(async () => {
  await Promise.all(databases.map((testDb) => testDb.close()));
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

async function editorOf(db: Database): Promise<Actor> {
  const row = await db.kysely.insertInto('staff_members').values({ email: 'editor@khvylia.example', role: 'editor', created_at: new Date().toISOString() }).returning('id').executeTakeFirstOrThrow();
  return { member: { id: Number(row.id), email: 'editor@khvylia.example', role: 'editor' }, address: '127.0.0.1' };
}

async function publishedPosts(db: Database) {
  const rows = await db.kysely
    .selectFrom('blog_posts')
    .select(['slug', 'title', 'excerpt', 'category', 'author', 'content', 'created_at'])
    .where('unpublished_at', 'is', null)
    .orderBy('slug')
    .execute();
  return rows.map((row) => ({ ...row, created_at: db.dialect.readTimestamp(row.created_at) }));
}

it('writes every article as front matter and Markdown that a sync publishes again as it was', async () => {
  const source = await database();
  const mediaDir = folder('agency-export-media-');
  await syncContent(source, { contentDir: REPO_CONTENT_DIR, mediaDir });
  const editor = await editorOf(source);
  const cover = (await source.kysely.selectFrom('blog_posts').select('image_url').executeTakeFirstOrThrow()).image_url;
  const fields = { category: 'SMM', excerpt: 'Опис: з двокрапкою й "лапками"', author: 'Олена Кравчук', cover, markdown: '## Розділ\n\nТекст статті з консолі.\n' };
  const live = await createArticle(source, { title: 'Стаття з консолі', ...fields }, editor);
  await publishArticle(source, live.id, live.version, editor);
  await createArticle(source, { title: 'Чернетка з консолі', ...fields }, editor);

  const exported = folder('agency-export-');
  const report = await exportArticles(source, { dir: exported, mediaDir });
  expect(report.skipped).toEqual([]);
  expect(report.written).toHaveLength(articleFiles(REPO_CONTENT_DIR).length + 2);
  expect(fs.readFileSync(path.join(exported, report.written.find((file) => file.endsWith('chernetka-z-konsoli.md'))!), 'utf8')).toMatch(/^draft: true$/m);

  const target = await database();
  const readBack = await syncContent(target, { contentDir: exported, mediaDir: folder('agency-export-media-') });
  expect(readBack.refused).toEqual([]);
  expect(readBack.drafts).toEqual([report.written.find((file) => file.endsWith('chernetka-z-konsoli.md'))]);
  expect(await publishedPosts(target)).toEqual(await publishedPosts(source));

  // Exported again into the same folder: the same files are rewritten, none added.
  const again = await exportArticles(source, { dir: exported, mediaDir });
  expect(again.written.sort()).toEqual([...report.written].sort());
  expect(articleFiles(exported)).toHaveLength(report.written.length);
});
