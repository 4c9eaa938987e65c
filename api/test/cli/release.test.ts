import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../src/config';
import { loadAppReleases } from '../../src/delivery/releases/store';
import type { ReleaseStatus } from '../../src/delivery/status/release-status';
import { setUpReleaseSuite, type FixtureBuild } from '../helpers/releases';
import { eventually } from '../helpers/eventually';
import { runTs } from '../helpers/server-process';
import { browserError, eventuallyStored } from '../helpers/telemetry';

// Runs the real command (src/cli/release.ts through tsx, the code `npm run release` runs
// compiled) with --dist builds, next to a server that must keep serving through a refusal.
jest.setTimeout(90_000);

const suite = setUpReleaseSuite();

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function release(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const child = runTs('src/cli/release.ts', args, { RELEASES_DIR: suite.fixture.releasesDir, STATIC_ROOT: suite.fixture.staticRoot, ...env });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

async function publishBuild(app: string, build: FixtureBuild = {}, extra: string[] = []): Promise<Run> {
  return release([app, '--dist', suite.fixture.build(app, build), ...extra]);
}

/** Every file under RELEASES_DIR with its content: what a refused command must leave as it was. */
function releasesSnapshot(): Record<string, string> {
  const dir = suite.fixture.releasesDir;
  const files = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((name) => fs.statSync(path.join(dir, name)).isFile());
  return Object.fromEntries(files.sort().map((name) => [name, fs.readFileSync(path.join(dir, name), 'utf8')]));
}

const idOf = (run: Run) => /release (\S+) is now current/.exec(run.stdout)?.[1] ?? '';
const remotesJson = async () => (await suite.ctx.request('GET', '/remotes.json')).json<{ remotes: Record<string, { release: string }> }>();

describe('npm run release', () => {
  let first = '';
  let second = '';

  it('is the root script only, which builds shared and api first', () => {
    const scripts = (file: string) => (JSON.parse(fs.readFileSync(file, 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts(path.join(REPO_ROOT, 'package.json')).release).toMatch(/^node scripts\/build-if-stale\.mjs shared api && node api\/dist\/cli\/release\.js$/);
    expect(scripts(path.join(REPO_ROOT, 'api/package.json')).release).toBeUndefined();
  });

  it.each(['--help', '-h', 'blog --list --help'])('prints the usage to stdout for "%s", exit code 0', async (line) => {
    const help = await release(line.split(' '));
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: npm run release -- <shell\|home\|blog\|forms> \[--dist <dir>\] \[--keep <n>\]$/m);
    expect(help.stdout).toMatch(/^ +npm run release -- --help +print this help$/m);
  });

  it('prints the problem and the usage for bad arguments, exit code 2', async () => {
    const unknown = await release(['blogg']);
    expect([unknown.code, unknown.stderr.split('\n')[0]]).toEqual([2, 'Unknown app "blogg": shell|home|blog|forms']);
    expect((await release(['blog', '--list', '--rollback'])).stderr).toMatch(/^Choose one of --list, --rollback/);
    expect((await release(['blog', '--rollback', '--keep', '2'])).code).toBe(2);
    const since = await release(['blog', '--since', '1h']);
    expect([since.code, since.stderr.split('\n')[0]]).toEqual([2, '--since only applies to --status']);
  });

  it('publishes a build, which --list then shows as current', async () => {
    const run = await publishBuild('blog', { label: 'b1', stamp: '2026-11-22T06:15:00Z' });
    expect(run.code).toBe(0);
    first = idOf(run);
    expect(first).toMatch(/^1\.0\.0-\S+-20261122T061500Z$/);
    expect(run.stdout).toContain(`Published blog release ${first} from `);
    const listing = await release(['blog', '--list']);
    expect(listing.code).toBe(0);
    expect(listing.stdout).toMatch(new RegExp(`^\\* ${first.replace(/\./g, '\\.')} +2026-11-22T06:15:00.000Z +\\S+ +\\S+ +current$`, 'm'));
  });

  it('refuses a misspelt option, exit 2, and publishes nothing', async () => {
    const before = releasesSnapshot();
    // Were `--kep` ignored, this would publish the build and prune to one release.
    const run = await publishBuild('blog', { label: 'typo' }, ['--kep', '1']);
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr.split('\n')[0]).toBe('Unknown option --kep');
    expect(run.stderr).toMatch(/^Usage: npm run release -- /m);
    expect(run.stderr).toContain('npm run release -- --help');
    expect(releasesSnapshot()).toEqual(before);
  });

  it('refuses an incompatible release, exit 1, while the server keeps serving the current one', async () => {
    const run = await publishBuild('blog', { label: 'bad', required: { 'react-dom': '^99.0.0' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^Refused: blog release \S+ needs react-dom \^99\.0\.0, but the current shell \(release dist\) provides react-dom 19\.3\.1\. /,
    );
    expect(run.stderr).toContain(`The current blog release stays ${first}.`);
    // Longer than the server's re-read interval: it has seen whatever state.json now says.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect((await remotesJson()).remotes.blog?.release).toBe(first);
    const file = await suite.ctx.request('GET', `/remotes/blog/${first}/remoteEntry.js`);
    expect([file.statusCode, file.body]).toEqual([200, 'var agency_blog; // b1']);
  });

  it('rolls back and promotes', async () => {
    second = idOf(await publishBuild('blog', { label: 'b2' }));
    expect(second).not.toBe('');
    const back = await release(['blog', '--rollback']);
    expect([back.code, back.stdout.trim()]).toEqual([0, `Rolled back blog: release ${first} is now current (was ${second})`]);
    const forward = await release(['blog', '--promote', second]);
    expect([forward.code, forward.stdout.trim()]).toEqual([0, `blog release ${second} is now current (was ${first})`]);
    const unknown = await release(['blog', '--promote', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^There is no blog release nope\. Kept releases: /);
  });

  it('prunes to --keep, never the current or previous release', async () => {
    const third = idOf(await publishBuild('blog', { label: 'b3' }, ['--keep', '1']));
    const kept = fs.readdirSync(path.join(suite.fixture.releasesDir, 'blog')).filter((name) => name.startsWith('1.'));
    expect(kept.sort()).toEqual([second, third].sort());
  });

  it('reports what visitors\' browsers saw of the releases (--status), from the server\'s database', async () => {
    const current = (await loadAppReleases(suite.fixture.releasesDir, 'blog')).current?.id ?? '';
    // A report counts for the release the server serves: once it reads the new state (within a second).
    await eventually('the current release served', remotesJson, (remotes) => remotes.remotes.blog?.release === current);
    const beacon = {
      page_views: [{ page: '/blog', releases: { shell: 'dist', blog: current } }],
      errors: [browserError({ kind: 'boundary', app: 'blog', release: current, page: '/blog', message: 'Teaser failed' })],
    };
    expect((await suite.ctx.request('POST', '/api/telemetry', { json: beacon })).statusCode).toBe(204);
    await eventuallyStored(suite.ctx.db, 'blog', current, (stored) => stored.errorMinutes.length > 0);

    const run = await release(['blog', '--status', '--format', 'json'], { DATABASE_URL: suite.ctx.testDb.url });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const status = JSON.parse(run.stdout) as ReleaseStatus;
    expect(status.app).toBe('blog');
    expect(status.releases[0]).toMatchObject({ id: current, current: true, page_views: 1, errors: 1, error_rate: 1 });
    expect(status.releases[0]?.top_errors).toEqual([{ message: 'Teaser failed', kind: 'boundary', page: '/blog', count: 1, source: null }]);
    expect(status.releases.slice(1).every((kept) => !kept.current && kept.page_views === 0)).toBe(true);

    const text = await release(['blog', '--status'], { DATABASE_URL: suite.ctx.testDb.url });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`* ${current}  (current)\n    page views 1 · errors 1 (1 per page view)`);
  });

  it('refuses to run while another release command holds the lock', async () => {
    const lock = path.join(suite.fixture.releasesDir, '.lock');
    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, host: os.hostname(), since: '2026-01-01T00:00:00.000Z', command: 'publish shell' }));
    try {
      const run = await release(['blog', '--rollback']);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`Another release command is running (publish shell, pid ${process.pid} on ${os.hostname()}`);
      expect(run.stderr).toContain(`delete ${lock}`);
    } finally {
      fs.rmSync(lock);
    }
  });
});
