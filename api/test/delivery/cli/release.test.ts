import { APP_NAMES } from '@agency/shared';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../../src/platform/config';
import { loadAppReleases } from '../../../src/delivery/releases/release-repository';
import type { ReleaseStatus } from '../../../src/delivery/status/release-status';
import { setUpReleaseSuite, type FixtureBuild } from '../../helpers/releases';
import { eventually } from '../../helpers/eventually';
import { runApiProcess } from '../../helpers/server-process';
import { browserError, eventuallyStored } from '../../helpers/telemetry';

// Runs the real command (src/delivery/cli/release.ts, compiled, as `npm run release` runs it) with --dist
// builds, on the database and artifact store of a server that must keep serving through a refusal;
// then the same command from "another machine": through the server's release API with a team's
// token (--site, --token), which must print what it prints locally.
jest.setTimeout(90_000);

const suite = setUpReleaseSuite();

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function release(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const child = runApiProcess('src/delivery/cli/release.ts', args, { ...suite.fixture.env, ...env });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

async function publishBuild(app: string, build: FixtureBuild = {}, extra: string[] = []): Promise<Run> {
  return release([app, '--dist', suite.fixture.build(app, build), ...extra]);
}

/** Every file under `dir` with a hash of its content. */
function filesUnder(dir: string): Record<string, string> {
  if (!fs.existsSync(dir)) return {};
  const files = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((name) => fs.statSync(path.join(dir, name)).isFile());
  return Object.fromEntries(files.sort().map((name) => [name, createHash('sha256').update(fs.readFileSync(path.join(dir, name))).digest('hex')]));
}

/**
 * The releases' record (every row of the tables that hold it) and every file of the artifact
 * store: what a refused command must leave as it was. (Tokens are left out: a call with one
 * notes when it was last used, whatever the call.)
 */
async function releasesSnapshot(): Promise<{ rows: Record<string, string[]>; store: Record<string, string> }> {
  const { kysely } = suite.fixture.db;
  const rows: Record<string, string[]> = {};
  for (const table of ['releases', 'release_apps', 'release_events', 'release_revision'] as const) {
    rows[table] = (await kysely.selectFrom(table).selectAll().execute()).map((row) => JSON.stringify(row)).sort();
  }
  return { rows, store: filesUnder(suite.fixture.storeDir) };
}

const idOf = (run: Run) => /release (\S+) is now current/.exec(run.stdout)?.[1] ?? '';
const remotesJson = async () => (await suite.ctx.request('GET', '/remotes.json')).json<{ remotes: Record<string, { release: string }> }>();
const keptIds = async (app: string) => (await loadAppReleases(suite.fixture.db, app)).releases.map((kept) => kept.id).sort();
const storedIds = (app: string) => (fs.existsSync(path.join(suite.fixture.storeDir, app)) ? fs.readdirSync(path.join(suite.fixture.storeDir, app)).sort() : []);

describe('npm run release', () => {
  let first = '';
  let second = '';
  let refused = '';

  it('is the root script only, which builds shared and api first', () => {
    const scripts = (file: string) => (JSON.parse(fs.readFileSync(file, 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts(path.join(REPO_ROOT, 'package.json')).release).toMatch(/^node scripts\/build-if-stale\.mjs shared api && node api\/dist\/delivery\/cli\/release\.js$/);
    expect(scripts(path.join(REPO_ROOT, 'api/package.json')).release).toBeUndefined();
  });

  it.each(['--help', '-h', 'blog --list --help'])('prints the usage to stdout for "%s", exit code 0', async (line) => {
    const help = await release(line.split(' '));
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout.split('\n')).toContain(`Usage: npm run release -- <${APP_NAMES.join('|')}> [--dist <dir>] [--keep <n>]`);
    expect(help.stdout).toMatch(/^ +npm run release -- --help +print this help$/m);
  });

  it('prints the problem and the usage for bad arguments, exit code 2', async () => {
    const unknown = await release(['blogg']);
    expect([unknown.code, unknown.stderr.split('\n')[0]]).toEqual([2, `Unknown app "blogg": ${APP_NAMES.join('|')}`]);
    expect((await release(['blog', '--list', '--rollback'])).stderr).toMatch(/^Choose one of --list, --rollback/);
    expect((await release(['blog', '--rollback', '--keep', '2'])).code).toBe(2);
    const since = await release(['blog', '--since', '1h']);
    expect([since.code, since.stderr.split('\n')[0]]).toEqual([2, '--since only applies to --status']);
    const site = await release(['blog', '--list', '--site', 'https://khvylia.example']);
    expect([site.code, site.stderr.split('\n')[0]]).toEqual([2, '--site needs --token <token> (or RELEASE_TOKEN): a release token of the team']);
  });

  it('publishes a build, which --list then shows as current', async () => {
    const run = await publishBuild('blog', { label: 'b1', stamp: '2026-11-22T06:15:00Z' });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    first = idOf(run);
    expect(first).toMatch(/^1\.0\.0-\S+-20261122T061500Z$/);
    expect(run.stdout).toContain(`Published blog release ${first} from ${suite.fixture.scratch}`);
    const listing = await release(['blog', '--list']);
    expect(listing.code).toBe(0);
    expect(listing.stdout).toMatch(new RegExp(`^\\* ${first.replace(/\./g, '\\.')} +2026-11-22T06:15:00.000Z +\\S+ +\\S+ +current$`, 'm'));
    // In the database and the store, as the server reads them.
    expect(await keptIds('blog')).toEqual([first]);
    expect(storedIds('blog')).toEqual([first]);
  });

  it('refuses a misspelt option, exit 2, and publishes nothing', async () => {
    const before = await releasesSnapshot();
    // Were `--kep` ignored, this would publish the build and prune to one release.
    const run = await publishBuild('blog', { label: 'typo' }, ['--kep', '1']);
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr.split('\n')[0]).toBe('Unknown option --kep');
    expect(run.stderr).toMatch(/^Usage: npm run release -- /m);
    expect(run.stderr).toContain('npm run release -- --help');
    expect(await releasesSnapshot()).toEqual(before);
  });

  it('refuses an incompatible release, exit 1, while the server keeps serving the current one', async () => {
    const run = await publishBuild('blog', { label: 'bad', required: { 'react-dom': '^99.0.0' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^Refused: blog release \S+ needs react-dom \^99\.0\.0, but the current shell \(release dist\) provides react-dom 19\.3\.1\. /,
    );
    expect(run.stderr).toContain(`The current blog release stays ${first}.`);
    // The build is kept, for a --promote once the shell provides what it needs.
    refused = /Release (\S+) is kept: make it current later with --promote \1\./.exec(run.stderr)?.[1] ?? '';
    expect(refused).not.toBe('');
    expect((await loadAppReleases(suite.fixture.db, 'blog')).current?.id).toBe(first);
    // Longer than the server's re-read interval: it has seen whatever the database now says.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect((await remotesJson()).remotes.blog?.release).toBe(first);
    const file = await suite.ctx.request('GET', `/remotes/blog/${first}/remoteEntry.js`);
    expect([file.statusCode, file.body]).toEqual([200, 'var agency_blog; // b1']);
  });

  it('rolls back and promotes; an unknown release changes nothing', async () => {
    second = idOf(await publishBuild('blog', { label: 'b2' }));
    expect(second).not.toBe('');
    const back = await release(['blog', '--rollback']);
    expect([back.code, back.stdout.trim()]).toEqual([0, `Rolled back blog: release ${first} is now current (was ${second})`]);
    const forward = await release(['blog', '--promote', second]);
    expect([forward.code, forward.stdout.trim()]).toEqual([0, `blog release ${second} is now current (was ${first})`]);
    const before = await releasesSnapshot();
    const unknown = await release(['blog', '--promote', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^There is no blog release nope\. Kept releases: /);
    expect(await releasesSnapshot()).toEqual(before);
  });

  it('prunes to --keep, never the current or previous release, nor one current within the skew window', async () => {
    const third = idOf(await publishBuild('blog', { label: 'b3' }, ['--keep', '1']));
    // The refused build was never current: it goes. The first was current minutes ago: pages opened then still load its files.
    expect(await keptIds('blog')).toEqual([first, second, third].sort());
    expect(storedIds('blog')).toEqual([first, second, third].sort());
    expect(storedIds('blog')).not.toContain(refused);

    // A day on (as the record says), the first goes too: from the record and from the store.
    const dayAgo = new Date(Date.now() - 25 * 3_600_000).toISOString();
    await suite.fixture.db.kysely.updateTable('releases').set({ current_until: dayAgo }).where('app', '=', 'blog').where('id', '=', first).execute();
    const fourth = idOf(await publishBuild('blog', { label: 'b4' }, ['--keep', '1']));
    expect(fourth).not.toBe('');
    expect(await keptIds('blog')).toEqual([second, third, fourth].sort());
    expect(storedIds('blog')).toEqual([second, third, fourth].sort());
  });

  it('reports what visitors\' browsers saw of the releases (--status), from the server\'s database', async () => {
    const current = (await loadAppReleases(suite.fixture.db, 'blog')).current?.id ?? '';
    // A report counts for the release the server serves: once it reads the new state (within a second).
    await eventually('the current release served', remotesJson, (remotes) => remotes.remotes.blog?.release === current);
    const beacon = {
      page_views: [{ page: '/blog', releases: { shell: 'dist', blog: current } }],
      errors: [browserError({ kind: 'boundary', app: 'blog', release: current, page: '/blog', message: 'Teaser failed' })],
    };
    expect((await suite.ctx.request('POST', '/api/telemetry', { json: beacon })).statusCode).toBe(204);
    await eventuallyStored(suite.ctx.db, 'blog', current, (stored) => stored.errorMinutes.length > 0);

    const run = await release(['blog', '--status', '--format', 'json']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const status = JSON.parse(run.stdout) as ReleaseStatus;
    expect(status.app).toBe('blog');
    expect(status.releases[0]).toMatchObject({ id: current, current: true, page_views: 1, errors: 1, error_rate: 1 });
    expect(status.releases[0]?.top_errors).toEqual([{ message: 'Teaser failed', kind: 'boundary', page: '/blog', count: 1, source: null }]);
    expect(status.releases.slice(1).every((kept) => !kept.current && kept.page_views === 0)).toBe(true);

    const text = await release(['blog', '--status']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`* ${current}  (current)\n    page views 1 · errors 1 (1 per page view)`);
  });
});

describe('npm run release -- --site <url> --token <token>', () => {
  let token = '';
  /**
   * The command on a machine with no access to the site's database or store: a DATABASE_URL
   * nothing listens at and a store folder that does not exist, which a local run would fail on.
   */
  const remote = (args: string[], as = token) =>
    release([...args, '--site', suite.ctx.baseUrl, '--token', as], {
      DATABASE_URL: 'postgres://nobody:nothing@127.0.0.1:9/none',
      RELEASE_STORE: `file:${path.join(suite.fixture.scratch, 'no-store-here')}`,
    });

  beforeAll(async () => {
    const created = await release(['tokens', 'create', 'blog-ci', '--apps', 'blog']);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toContain('Created the token "blog-ci", which may release blog:');
    token = /^ {2}(rt_blog-ci_\S+)$/m.exec(created.stdout)?.[1] ?? '';
    expect(token).not.toBe('');
  });

  it('publishes an uploaded build and says so as the command does on the server', async () => {
    const dist = suite.fixture.build('blog', { label: 'ci1' });
    const run = await remote(['blog', '--dist', dist]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const id = idOf(run);
    expect(run.stdout.trim().split('\n')).toEqual([`Published blog release ${id} from an upload by blog-ci`, `blog release ${id} is now current`]);
    const state = await loadAppReleases(suite.fixture.db, 'blog');
    expect(state.current).toMatchObject({ id, publishedBy: 'token:blog-ci' });
    expect(state.events.at(-1)).toMatchObject({ release: id, action: 'published', actor: 'token:blog-ci' });
    expect(fs.readFileSync(path.join(suite.fixture.storeDir, 'blog', id, 'remoteEntry.js'), 'utf8')).toBe('var agency_blog; // ci1');
    await eventually('the uploaded release served', remotesJson, (remotes) => remotes.remotes.blog?.release === id);
    // The same build again: a kept release holds it, as locally.
    const again = await remote(['blog', '--dist', dist]);
    expect(again.stdout.trim().split('\n')).toEqual([`blog release ${id} already holds this build`, `${id} is already the current blog release`]);
  });

  it('lists the releases with the very text of the command on the server', async () => {
    const local = await release(['blog', '--list']);
    const listed = await remote(['blog', '--list']);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(listed.stdout).toBe(local.stdout);
    expect(listed.stdout).toMatch(/^blog releases, newest first \(\* = current\):$/m);
  });

  it('rolls back, with the very text of the command on the server', async () => {
    const { current, previous } = await loadAppReleases(suite.fixture.db, 'blog');
    const run = await remote(['blog', '--rollback']);
    expect([run.code, run.stderr, run.stdout.trim()]).toEqual([0, '', `Rolled back blog: release ${previous!.id} is now current (was ${current!.id})`]);
    expect((await loadAppReleases(suite.fixture.db, 'blog')).current?.id).toBe(previous!.id);
    // Back again locally: the same sentence for the same change, whoever ran it.
    const forward = await remote(['blog', '--promote', current!.id]);
    const local = await release(['blog', '--rollback']);
    expect(forward.stdout.trim()).toBe(`blog release ${current!.id} is now current (was ${previous!.id})`);
    expect(local.stdout).toBe(run.stdout);
    expect(local.stdout).not.toBe('');
  });

  it('starts a canary of an uploaded build with its rules, and drops it', async () => {
    const { current } = await loadAppReleases(suite.fixture.db, 'blog');
    const run = await remote(['blog', '--dist', suite.fixture.build('blog', { label: 'ci-canary' }), '--canary', '12.5', '--min-views', '30', '--keep', '9']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const { candidate } = await loadAppReleases(suite.fixture.db, 'blog');
    expect(candidate).toMatchObject({ share: 12.5, minViews: 30, promoteAfter: null });
    expect(run.stdout.trim().split('\n')).toEqual([
      `Published blog release ${candidate!.id} from an upload by blog-ci`,
      `blog release ${candidate!.id} is the candidate for 12.5 % of visitors, judged after 30 page views, promoted by hand; the others get ${current!.id}`,
    ]);
    const dropped = await remote(['blog', '--abort']);
    expect([dropped.code, dropped.stdout.trim()]).toEqual([0, `Dropped blog candidate ${candidate!.id}: every visitor gets ${current!.id}`]);
    expect((await loadAppReleases(suite.fixture.db, 'blog')).candidate).toBeUndefined();
  });

  it('refuses an app the token may not release, exit 1, and changes nothing', async () => {
    const before = await releasesSnapshot();
    const run = await remote(['forms', '--dist', suite.fixture.build('forms', { label: 'not-yours' })]);
    expect([run.code, run.stdout, run.stderr.trim()]).toEqual([1, '', 'The token blog-ci may release blog, not forms.']);
    const rollback = await remote(['forms', '--rollback']);
    expect([rollback.code, rollback.stderr.trim()]).toEqual([1, 'The token blog-ci may release blog, not forms.']);
    expect(await releasesSnapshot()).toEqual(before);
  });

  it('refuses an unknown token, exit 1, and changes nothing', async () => {
    const before = await releasesSnapshot();
    const run = await remote(['blog', '--dist', suite.fixture.build('blog', { label: 'stolen' })], `${token.slice(0, -4)}AAAA`);
    expect([run.code, run.stdout, run.stderr.trim()]).toEqual([1, '', 'The release token is unknown or revoked.']);
    expect(await releasesSnapshot()).toEqual(before);
  });
});
