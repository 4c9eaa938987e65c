import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase } from '../../src/db/connection';
import { distDir } from '../../src/delivery/releases/apps';
import { REPO_CONTENT_DIR, TEST_MEDIA_DIR } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { eventually } from '../helpers/eventually';
import { httpRequest } from '../helpers/http';
import { HOME_BUNDLE, HOME_MANIFEST, SHELL_BUNDLE, SHELL_TEMPLATE } from '../helpers/page-builds';
import { createReleaseFixture, fixtureFiles, type ReleaseFixture } from '../helpers/releases';
import { runToExit, serverProcesses, type ServerProcess } from '../helpers/server-process';

// Two real API processes (tsx) on one database and one releases folder, as the container topology
// runs them: a content sync or a release made by the command line shows on the next request of
// either, within about a second, and both send the very same page.
jest.setTimeout(120_000);

let testDb: TestDatabase;
let fixture: ReleaseFixture;
let contentDir: string;
const servers = serverProcesses();

/** The home remote's manifest with what a render needs (its entry and the hero's files). */
function homeManifest(label: string): string {
  return JSON.stringify({ ...JSON.parse(fixtureFiles('home', { label })['mf-manifest.json']!), ...HOME_MANIFEST });
}

/** A build of the home remote whose hero heading starts with `prefix`. */
function homeBuild(label: string, prefix: string) {
  return {
    label,
    files: {
      'mf-manifest.json': homeManifest(label),
      'server/render.js': HOME_BUNDLE.replace("<h1>' + heading", `<h1>${prefix}' + heading`),
    },
  };
}

interface Page {
  etag: string;
  heading: string;
}

async function page(server: ServerProcess): Promise<Page> {
  const response = await httpRequest(server.baseUrl, 'GET', '/', { headers: { accept: 'text/html' } });
  expect(response.statusCode).toBe(200);
  return { etag: String(response.headers.etag), heading: /<h1>([^<]*)<\/h1>/.exec(response.body)?.[1] ?? '' };
}

/** Both processes' page, once both show `heading`; they must then be the same bytes. */
async function bothShow(heading: string): Promise<Page> {
  const pages = await eventually(
    `both processes to show "${heading}"`,
    () => Promise.all(servers.running.map(page)),
    (both) => both.every((one) => one.heading === heading),
    5000,
  );
  expect(pages[1]!.etag).toBe(pages[0]!.etag);
  return pages[0]!;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  fixture = createReleaseFixture();
  const shellDist = distDir(fixture.staticRoot, 'shell');
  fs.writeFileSync(path.join(shellDist, 'index.html'), SHELL_TEMPLATE);
  fs.mkdirSync(path.join(shellDist, 'server'), { recursive: true });
  fs.writeFileSync(path.join(shellDist, 'server/render.js'), SHELL_BUNDLE);
  for (const [file, content] of Object.entries(homeBuild('dist', '').files)) {
    fs.mkdirSync(path.dirname(path.join(distDir(fixture.staticRoot, 'home'), file)), { recursive: true });
    fs.writeFileSync(path.join(distDir(fixture.staticRoot, 'home'), file), content);
  }
  contentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-page-content-'));
  fs.cpSync(REPO_CONTENT_DIR, contentDir, { recursive: true });
  const env = {
    DATABASE_URL: testDb.url,
    STATIC_ROOT: fixture.staticRoot,
    RELEASES_DIR: fixture.releasesDir,
    CONTENT_DIR: contentDir,
    SITE_URL: 'https://khvylia.example',
    // The hero shows the title of the first post.
    AGENCY_TEST_HERO_DATA: '/blog/1',
  };
  // One after the other: the first migrates the database and publishes the articles.
  for (let i = 0; i < 2; i += 1) await servers.start(env);
});

afterAll(async () => {
  await servers.stopAll('SIGTERM');
  await testDb?.drop();
  fixture?.cleanup();
  if (contentDir) fs.rmSync(contentDir, { recursive: true, force: true });
});

it('shows an article edited and synced with `npm run content -- sync` on both processes', async () => {
  const db = createDatabase(testDb.url, { poolSize: 1 });
  const { title, slug } = await db.kysely.selectFrom('blog_posts').select(['title', 'slug']).where('id', '=', 1).executeTakeFirstOrThrow();
  await db.destroy();
  const before = await bothShow(title);

  const file = fs.readdirSync(contentDir).find((name) => name.endsWith(`-${slug}.md`));
  if (!file) throw new Error(`no article with the slug ${slug}`);
  const edited = 'Контент-план на місяць: оновлено';
  const source = fs.readFileSync(path.join(contentDir, file), 'utf8');
  fs.writeFileSync(path.join(contentDir, file), source.replace(/^title: .*$/m, `title: "${edited}"`));
  const sync = await runToExit('src/cli/content.ts', ['sync'], { DATABASE_URL: testDb.url, CONTENT_DIR: contentDir, MEDIA_DIR: TEST_MEDIA_DIR });
  expect(sync).toMatchObject({ code: 0 });

  const after = await bothShow(edited);
  expect(after.etag).not.toBe(before.etag);
});

it('shows a release made with `npm run release`, and a rollback, on both processes', async () => {
  const releaseEnv = { STATIC_ROOT: fixture.staticRoot, RELEASES_DIR: fixture.releasesDir };
  const release = async (label: string, prefix: string) => {
    const dist = fixture.build('home', homeBuild(label, prefix));
    const result = await runToExit('src/cli/release.ts', ['home', '--dist', dist], releaseEnv);
    expect(result).toMatchObject({ code: 0 });
  };
  const { heading: title } = await page(servers.running[0]!);

  await release('v2', 'v2 ');
  const second = await bothShow(`v2 ${title}`);
  await release('v3', 'v3 ');
  await bothShow(`v3 ${title}`);

  expect(await runToExit('src/cli/release.ts', ['home', '--rollback'], releaseEnv)).toMatchObject({ code: 0 });
  // The release before again: the very page it gave.
  expect(await bothShow(`v2 ${title}`)).toEqual(second);
});
