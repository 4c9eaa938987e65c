import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase } from '../../../src/platform/db/connection';
import { listBlogPosts } from '../../../src/site/content/content-repository';
import { makeContentDir, writeArticle } from '../../helpers/articles';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { runApiProcess } from '../../helpers/server-process';

// The real `npm run content` command (src/site/cli/content.ts, compiled, as `npm run content` runs it) on a folder and database of its own.
jest.setTimeout(60_000);

let testDb: TestDatabase;
let contentDir: string;
let mediaDir: string;

beforeEach(async () => {
  testDb = await createTestDatabase();
  contentDir = makeContentDir();
  mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-media-'));
});

afterEach(async () => {
  await testDb.drop();
  fs.rmSync(contentDir, { recursive: true, force: true });
  fs.rmSync(mediaDir, { recursive: true, force: true });
});

function runContent(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = runApiProcess('src/site/cli/content.ts', args, { DATABASE_URL: testDb.url, CONTENT_DIR: contentDir, MEDIA_DIR: mediaDir });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

async function publishedTitles(): Promise<string[]> {
  const db = createDatabase(testDb.url, { poolSize: 1 });
  try {
    return (await listBlogPosts(db, 50)).map((post) => post.title);
  } finally {
    await db.destroy();
  }
}

it('sync publishes the folder into the database and says what it did; a second run changes nothing', async () => {
  writeArticle(contentDir, 'a.md', { slug: 'a', title: 'Перша стаття' });
  const first = await runContent(['sync']);
  expect(first).toMatchObject({ code: 0, stderr: '' });
  expect(first.stdout).toBe('Додано (1): a\n');
  expect(await publishedTitles()).toEqual(['Перша стаття']);
  const second = await runContent(['sync']);
  expect(second).toMatchObject({ code: 0, stdout: 'Без змін (1): сайт уже показує статті такими, як у файлах.\n' });
});

it('sync reports a refused file with its name and exits 1, publishing the rest', async () => {
  writeArticle(contentDir, 'good.md', { slug: 'good', title: 'Добра' });
  writeArticle(contentDir, 'bad.md', { slug: 'bad', excerpt: undefined });
  const result = await runContent(['sync']);
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('Додано (1): good\nВІДХИЛЕНО bad.md: бракує поля «excerpt»\n');
  expect(await publishedTitles()).toEqual(['Добра']);
});

it('new writes a draft with the front matter filled in, which sync then leaves unpublished', async () => {
  const created = await runContent(['new', 'Кавʼярня «Зерно»: кейс']);
  expect(created.code).toBe(0);
  const [file] = fs.readdirSync(contentDir).filter((name) => name.endsWith('.md'));
  expect(file).toMatch(/^\d{4}-\d{2}-\d{2}-kaviarnia-zerno-keis\.md$/);
  expect(created.stdout).toContain(file);
  const text = fs.readFileSync(path.join(contentDir, file!), 'utf8');
  expect(text).toContain('title: "Кавʼярня «Зерно»: кейс"\nslug: kaviarnia-zerno-keis\n');
  expect(text).toContain('\ndraft: true\n---\n');

  const sync = await runContent(['sync']);
  expect(sync).toMatchObject({ code: 0 });
  expect(sync.stdout).toContain(`Чернетки, не опубліковано (1): ${file}`);
  expect(await publishedTitles()).toEqual([]);

  // Ready: the draft line goes, a cover is added, and the article is published.
  fs.copyFileSync(path.join(contentDir, 'images', 'analytics.jpg'), path.join(contentDir, 'images', 'kaviarnia-zerno-keis.jpg'));
  fs.writeFileSync(path.join(contentDir, file!), text.replace(/^#.*\ndraft: true\n/m, ''));
  expect(await runContent(['sync'])).toMatchObject({ code: 0, stdout: 'Додано (1): kaviarnia-zerno-keis\n' });
  expect(await publishedTitles()).toEqual(['Кавʼярня «Зерно»: кейс']);
});

it('new refuses to overwrite an existing article', async () => {
  expect((await runContent(['new', 'Одна назва'])).code).toBe(0);
  const again = await runContent(['new', 'Одна назва']);
  expect(again.code).toBe(2);
  expect(again.stderr).toMatch(/Файл уже є: .*odna-nazva\.md/);
});

it.each([
  [[], /Вкажіть команду: sync, new або export/],
  [['publish'], /Невідома команда «publish»/],
  [['new'], /Вкажіть назву статті/],
  [['sync', 'extra'], /Зайві аргументи: extra/],
  [['sync', '--sync'], /^Невідомий параметр --sync$/m],
])('refuses %p with exit code 2 and the usage', async (args, message) => {
  const result = await runContent(args);
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).toContain('Використання: npm run content -- sync');
});

it.each(['--help', '-h', 'new --help'])('prints the usage to stdout for "%s", exit code 0', async (line) => {
  const result = await runContent(line.split(' '));
  expect(result).toMatchObject({ code: 0, stderr: '' });
  expect(result.stdout).toMatch(/^Використання: npm run content -- sync$/m);
  expect(result.stdout).toMatch(/^ +npm run content -- --help +ця довідка$/m);
});

it('refuses a misspelt option, exit 2, and publishes or writes nothing', async () => {
  writeArticle(contentDir, 'a.md', { slug: 'a', title: 'Перша стаття' });
  expect((await runContent(['sync'])).code).toBe(0);
  // A sync that ignored the misspelt option would publish this one.
  writeArticle(contentDir, 'b.md', { slug: 'b', title: 'Друга стаття' });
  const filesBefore = fs.readdirSync(contentDir).sort();
  for (const args of [['sync', '--dry-run'], ['new', 'Нова стаття', '--force']]) {
    const result = await runContent(args);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr.split('\n')[0]).toBe(`Невідомий параметр ${args[args.length - 1]}`);
    expect(result.stderr).toContain('npm run content -- --help');
  }
  expect(fs.readdirSync(contentDir).sort()).toEqual(filesBefore);
  expect(await publishedTitles()).toEqual(['Перша стаття']);
});
