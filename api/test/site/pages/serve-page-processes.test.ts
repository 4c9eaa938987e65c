import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { distDir } from '../../../src/delivery/releases/apps';
import { REFRESH_MS } from '../../../src/delivery/releases/reader';
import { loadAppReleases } from '../../../src/delivery/releases/release-repository';
import { REPO_CONTENT_DIR, TEST_MEDIA_DIR } from '../../helpers/app';
import { eventually } from '../../helpers/eventually';
import { httpRequest } from '../../helpers/http';
import { HOME_BUNDLE, HOME_MANIFEST, SHELL_BUNDLE, SHELL_TEMPLATE } from '../../helpers/page-builds';
import { createReleaseFixture, fixtureFiles, type ReleaseFixture } from '../../helpers/releases';
import { runToExit, serverProcesses, type ServerProcess } from '../../helpers/server-process';

// Three real API processes (compiled) on one database and one artifact store (a folder here), as the
// container topology runs them: a content sync or a release made by the command line (which
// writes the database and the store, and talks to no server) shows on the next request of every
// one of them, within about a second, and all send the very same page.
jest.setTimeout(120_000);

const PROCESSES = 3;

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

/** Every process's page, once all show `heading` (within `timeoutMs`); they must then be the same bytes. */
async function allShow(heading: string, timeoutMs = 5000): Promise<Page> {
  const pages = await eventually(
    `all ${PROCESSES} processes to show "${heading}"`,
    () => Promise.all(servers.running.map(page)),
    (all) => all.every((one) => one.heading === heading),
    timeoutMs,
  );
  expect(pages).toHaveLength(PROCESSES);
  for (const other of pages.slice(1)) expect(other.etag).toBe(pages[0]!.etag);
  return pages[0]!;
}

/**
 * How long a process may take to serve a release change: its next look at the database (at most
 * REFRESH_MS after the change), then the render, with room for a loaded machine.
 */
const RELEASE_SHOWN_MS = 3 * REFRESH_MS;

beforeAll(async () => {
  fixture = await createReleaseFixture();
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
    // The fixture's database, artifact store and static root (each process its own cache folder would
    // change nothing: a file: store is read in place).
    ...fixture.env,
    CONTENT_DIR: contentDir,
    SITE_URL: 'https://khvylia.example',
    // The hero shows the title of the first post.
    AGENCY_TEST_HERO_DATA: '/blog/1',
  };
  // One after the other: the first publishes the articles.
  for (let i = 0; i < PROCESSES; i += 1) await servers.start(env);
});

afterAll(async () => {
  await servers.stopAll('SIGTERM');
  await fixture?.cleanup();
  if (contentDir) fs.rmSync(contentDir, { recursive: true, force: true });
});

it('shows an article edited and synced with `npm run content -- sync` on every process', async () => {
  const { title, slug } = await fixture.db.kysely.selectFrom('blog_posts').select(['title', 'slug']).where('id', '=', 1).executeTakeFirstOrThrow();
  const before = await allShow(title);

  const file = fs.readdirSync(contentDir).find((name) => name.endsWith(`-${slug}.md`));
  if (!file) throw new Error(`no article with the slug ${slug}`);
  const edited = 'Контент-план на місяць: оновлено';
  const source = fs.readFileSync(path.join(contentDir, file), 'utf8');
  fs.writeFileSync(path.join(contentDir, file), source.replace(/^title: .*$/m, `title: "${edited}"`));
  const sync = await runToExit('src/site/cli/content.ts', ['sync'], { DATABASE_URL: fixture.env.DATABASE_URL!, CONTENT_DIR: contentDir, MEDIA_DIR: TEST_MEDIA_DIR });
  expect(sync).toMatchObject({ code: 0 });

  const after = await allShow(edited);
  expect(after.etag).not.toBe(before.etag);
});

it('shows a release made with `npm run release`, and a rollback, on every process within about a second', async () => {
  // The command line on the same database and store as the servers, not on any of them.
  const releaseEnv = fixture.env;
  const release = async (label: string, prefix: string) => {
    const dist = fixture.build('home', homeBuild(label, prefix));
    const result = await runToExit('src/delivery/cli/release.ts', ['home', '--dist', dist], releaseEnv);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    return (await loadAppReleases(fixture.db, 'home')).current!.id;
  };
  const { heading: title } = await page(servers.running[0]!);

  const v2 = await release('v2', 'v2 ');
  const second = await allShow(`v2 ${title}`, RELEASE_SHOWN_MS);
  // Its files come from the store through every process, at their release's address.
  for (const server of servers.running) {
    const entry = await httpRequest(server.baseUrl, 'GET', `/remotes/home/${v2}/remoteEntry.js`);
    expect([entry.statusCode, entry.body]).toEqual([200, 'var agency_home; // v2']);
  }
  await release('v3', 'v3 ');
  await allShow(`v3 ${title}`, RELEASE_SHOWN_MS);

  expect(await runToExit('src/delivery/cli/release.ts', ['home', '--rollback'], releaseEnv)).toMatchObject({ code: 0 });
  // The release before again: the very page it gave.
  expect(await allShow(`v2 ${title}`, RELEASE_SHOWN_MS)).toEqual(second);
  expect((await loadAppReleases(fixture.db, 'home')).current?.id).toBe(v2);
});
