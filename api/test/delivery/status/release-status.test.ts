import { APP_NAMES } from '@agency/shared';
import { SourceMapGenerator } from 'source-map';
import { main } from '../../../src/delivery/cli/release';
import type { Io } from '../../../src/platform/cli/parse-cli-args';
import type { Database } from '../../../src/platform/db/connection';
import type { ReleaseStatus } from '../../../src/delivery/status/release-status';
import { parseSince } from '../../../src/delivery/status/release-status';
import { TelemetryRecorder } from '../../../src/delivery/health/telemetry-recorder';
import { abort, canary } from '../../../src/delivery/releases/commands';
import { loadAppReleases } from '../../../src/delivery/releases/release-repository';
import { createTestDatabase } from '../../helpers/database';
import { createReleaseFixture, publishFixture, type ReleaseFixture } from '../../helpers/releases';
import { browserError } from '../../helpers/telemetry';

// `npm run release -- <app> --status`: what visitors' browsers reported of the current and the kept
// releases, read from the database (SQLite, then PostgreSQL) that holds the releases too, with the
// source maps of their files in the artifact store. The command runs in process through its main();
// release-cli.test.ts runs the real one.
jest.setTimeout(30_000);

interface Run {
  code: number;
  out: string[];
  err: string[];
}

async function run(argv: string[], env: Record<string, string>): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (line) => out.push(line), err: (line) => err.push(line) };
  const code = await main(argv, env, io);
  return { code, out, err };
}

const CHUNK = 'chunk.0123abcd45.js';

function teaserMap(): string {
  const generator = new SourceMapGenerator({ file: CHUNK });
  generator.addMapping({ generated: { line: 1, column: 20 }, original: { line: 14, column: 10 }, source: 'webpack://agency_blog/./src/features/blog-teaser/BlogTeaser.tsx' });
  return generator.toString();
}

describe('parseSince', () => {
  const now = Date.parse('2026-11-24T12:00:00Z');

  it.each([
    ['30m', '2026-11-24T11:30:00.000Z'],
    ['1h', '2026-11-24T11:00:00.000Z'],
    [' 2D ', '2026-11-22T12:00:00.000Z'],
    ['0m', '2026-11-24T12:00:00.000Z'],
    ['2026-11-24T09:00Z', '2026-11-24T09:00:00.000Z'],
    ['2026-11-20', '2026-11-20T00:00:00.000Z'],
  ])('reads %j as %s', (value, expected) => {
    expect(parseSince(value, now)?.toISOString()).toBe(expected);
  });

  it.each(['yesterday', '1w', '-1h', '1.5h', 'h', '', '2026-11-25T00:00Z', '2026-13-45', '24.11.2026'])('refuses %j', (value) => {
    expect(parseSince(value, now)).toBeUndefined();
  });
});

describe('npm run release -- <app> --status', () => {
  let fixture: ReleaseFixture;
  let db: Database;
  let env: Record<string, string>;
  let older = '';
  let current = '';

  beforeAll(async () => {
    fixture = await createReleaseFixture();
    older = await publishFixture(fixture, 'blog', { label: 'older' });
    current = await publishFixture(fixture, 'blog', { label: 'current', files: { [CHUNK]: 'x', [`${CHUNK}.map`]: teaserMap() } });
    db = fixture.db;
    env = fixture.env;

    const failed = (error: unknown) => {
      throw error;
    };
    const recorder = new TelemetryRecorder(db, failed);
    const onPage = (blog: string) => ({ page: '/blog/:postId', releases: { shell: 'dist', blog } });
    const stack = `Error: Teaser failed\n    at Teaser (http://127.0.0.1:8080/remotes/blog/${current}/${CHUNK}:1:25)`;
    recorder.record({
      page_views: [onPage(current), onPage(current), onPage(current), onPage(older)],
      vitals: [
        { name: 'LCP', value: 1800, ...onPage(current) },
        { name: 'CLS', value: 0.05, ...onPage(current) },
      ],
      errors: [
        browserError({ kind: 'boundary', app: 'blog', release: current, page: '/blog/:postId', message: 'Teaser failed', stack, count: 2 }),
        browserError({ kind: 'load_failure', app: 'blog', release: current, message: 'Loading chunk 12 failed' }),
        browserError({ kind: 'uncaught', app: 'blog', release: older, message: 'old bug' }),
        // Reported for a build no longer served: not among the kept releases.
        browserError({ kind: 'uncaught', app: 'blog', release: 'dist', message: 'from dist' }),
      ],
    });
    await recorder.flush();
    // Three hours ago: outside the default window.
    const earlier = new TelemetryRecorder(db, failed, () => Date.now() - 3 * 60 * 60 * 1000);
    earlier.record({ page_views: [onPage(current)], errors: [browserError({ kind: 'rejection', app: 'blog', release: current, message: 'stale error', count: 9 })] });
    await earlier.flush();
  });

  afterAll(async () => {
    await fixture?.cleanup();
  });

  it.each([
    [['blog', '--status', '--format', 'yaml'], '--format must be text or json, got "yaml"'],
    [['blog', '--status', '--since', 'yesterday'], '--since must be a duration such as 30m, 1h or 2d, or a past moment such as 2026-11-24T09:00Z, got "yesterday"'],
    [['blog', '--status', '--since', '2999-01-01T00:00Z'], '--since must be a duration such as 30m, 1h or 2d, or a past moment such as 2026-11-24T09:00Z, got "2999-01-01T00:00Z"'],
    [['blog', '--since', '1h'], '--since only applies to --status'],
    [['blog', '--list', '--format', 'json'], '--format only applies to --status'],
    [['blog', '--status', '--list'], 'Choose one of --list, --status'],
    [['blog', '--status', '--keep', '2'], '--keep only applies when publishing'],
    [['--status'], `Name the app: ${APP_NAMES.join('|')}`],
  ])('exits 2 for %j, with the problem and the usage', async (argv, problem) => {
    const result = await run(argv, env);
    expect(result.code).toBe(2);
    expect(result.out).toEqual([]);
    expect(result.err.join('\n').split('\n')[0]).toBe(problem);
    expect(result.err.join('\n')).toMatch(/^ +npm run release -- <app> --status \[--since 1h\] \[--format text\|json\]$/m);
  });

  it('prints the health of the current and the kept releases as JSON', async () => {
    const result = await run(['blog', '--status', '--format', 'json'], env);
    expect(result).toMatchObject({ code: 0, err: [] });
    expect(result.out).toHaveLength(1);
    const status = JSON.parse(result.out[0] ?? '') as ReleaseStatus;
    expect(status.app).toBe('blog');
    // The default window: the last hour, from a whole minute.
    const since = Date.parse(status.since);
    expect(status.since).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z$/);
    expect(Math.abs(Date.now() - 60 * 60 * 1000 - since)).toBeLessThanOrEqual(2 * 60 * 1000);

    expect(status.releases.map(({ id, current: isCurrent }) => ({ id, current: isCurrent }))).toEqual([
      { id: current, current: true },
      { id: older, current: false },
    ]);
    const [now, before] = status.releases;
    expect(now).toEqual({
      id: current,
      current: true,
      page_views: 3,
      served_page_views: 0,
      judged_page_views: 0,
      clients: { served: 0, error: 0, load_failure: 0, vitals: 0 },
      errors: 2,
      error_rate: 0.6667,
      load_failures: 1,
      load_retries: 0,
      render_failures: 0,
      candidate: false,
      vitals_samples: { lcp: 1, inp: 0 },
      vitals: { lcp_p75_ms: expect.any(Number), inp_p75_ms: null, cls_p75: expect.any(Number), fcp_p75_ms: null, ttfb_p75_ms: null },
      top_errors: [
        { message: 'Teaser failed', kind: 'boundary', page: '/blog/:postId', count: 2, source: 'mfe-blog/src/features/blog-teaser/BlogTeaser.tsx:14:11' },
        { message: 'Loading chunk 12 failed', kind: 'load_failure', page: '/', count: 1, source: null },
      ],
    });
    expect(Math.abs((now?.vitals.lcp_p75_ms ?? NaN) - 1800) / 1800).toBeLessThanOrEqual(0.04);
    expect(Math.abs((now?.vitals.cls_p75 ?? NaN) - 0.05) / 0.05).toBeLessThanOrEqual(0.04);
    expect(before).toMatchObject({ id: older, page_views: 1, errors: 1, error_rate: 1, top_errors: [{ message: 'old bug', kind: 'uncaught', count: 1, source: null }] });
  });

  it('prints it for people by default', async () => {
    const result = await run(['blog', '--status'], env);
    expect(result).toMatchObject({ code: 0, err: [] });
    const text = result.out.join('\n');
    expect(result.out[0]).toMatch(/^blog: what visitors' browsers reported since \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    expect(text).toContain(`* ${current}  (current)\n    page views 3 · errors 2 (0.6667 per page view) · load failures 1 · load retries 0`);
    expect(text).toMatch(/^ {4}p75: LCP \d+ ms · INP – · CLS 0\.0\d+ · FCP – · TTFB –$/m);
    expect(text).toContain('        2× boundary     Teaser failed\n             at mfe-blog/src/features/blog-teaser/BlogTeaser.tsx:14:11, on /blog/:postId');
    expect(text).toContain(`  ${older}\n    page views 1 · errors 1 (1 per page view) · load failures 0 · load retries 0`);
    expect(text).toContain('at an unknown place (no source map for it), on /');
    expect(text).not.toContain('from dist');
    expect(text).not.toContain('stale error');
  });

  it('prints what browsers sent inert: control characters, line breaks and bidirectional overrides escaped', async () => {
    const recorder = new TelemetryRecorder(db, (error) => {
      throw error;
    });
    const message = 'Boom\u001b[2J\u001b]0;owned\u0007\r\nat ok.js \u202egnp.exe\u009b';
    recorder.record({ errors: [browserError({ kind: 'uncaught', app: 'home', release: 'dist', message })] });
    await recorder.flush();

    const text = (await run(['home', '--status'], env)).out.join('\n');
    expect(text).toContain('Boom\\u001b[2J\\u001b]0;owned\\u0007\\u000d\\u000aat ok.js \\u202egnp.exe\\u009b');
    const json = (await run(['home', '--status', '--format', 'json'], env)).out.join('\n');
    for (const output of [text, json]) {
      // eslint-disable-next-line no-control-regex -- no control character may reach the terminal
      expect(output).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    }
    // JSON's own escapes: the same text once parsed.
    expect((JSON.parse(json) as ReleaseStatus).releases[0]?.top_errors[0]?.message).toBe(message);
  });

  it('counts only what was reported since --since', async () => {
    const day = await run(['blog', '--status', '--format', 'json', '--since', '1d'], env);
    expect(day.code).toBe(0);
    const [now] = (JSON.parse(day.out[0] ?? '') as ReleaseStatus).releases;
    expect(now).toMatchObject({ id: current, page_views: 4, errors: 11 });
    expect(now?.top_errors.map(({ message, count }) => ({ message, count }))).toEqual([
      { message: 'stale error', count: 9 },
      { message: 'Teaser failed', count: 2 },
      { message: 'Loading chunk 12 failed', count: 1 },
    ]);
    const moment = await run(['blog', '--status', '--format', 'json', '--since', '2026-01-01T00:00Z'], env);
    expect((JSON.parse(moment.out[0] ?? '') as ReleaseStatus).since).toBe('2026-01-01T00:00:00.000Z');
  });

  it('reports an app without releases as its build folder (dist)', async () => {
    const result = await run(['home', '--status', '--format', 'json'], env);
    expect(result.code).toBe(0);
    const status = JSON.parse(result.out[0] ?? '') as ReleaseStatus;
    expect(status.releases.map(({ id, current: isCurrent, page_views }) => ({ id, current: isCurrent, page_views }))).toEqual([
      { id: 'dist', current: true, page_views: 0 },
    ]);
  });

  it("reports a canary's candidate with its share, rules and verdict", async () => {
    const candidate = await fixture.buildOf('blog', { label: 'candidate' });
    await canary(fixture.context, 'blog', { build: candidate, share: 10, minViews: 50, promoteAfter: null });
    try {
      const status = JSON.parse((await run(['blog', '--status', '--format', 'json'], env)).out[0] ?? '') as ReleaseStatus;
      const id = (await loadAppReleases(db, 'blog')).candidate!.id;
      expect(status.releases.find((release) => release.id === id)).toMatchObject({ current: false, candidate: true, share: 10, page_views: 0 });
      expect(status.releases.find((release) => release.id === current)).toMatchObject({ current: true, candidate: false });
      expect(status.canary).toMatchObject({ release: id, share: 10, min_views: 50, promote_after: null, verdict: expect.any(Object) });
      expect(status.events.map((event) => event.action)).toEqual(['published', 'published', 'canary']);
    } finally {
      await abort(fixture.context, 'blog');
    }
  });

  it('reports no visits and no release on a database the server has not opened yet', async () => {
    const fresh = await createTestDatabase();
    try {
      const result = await run(['blog', '--status', '--format', 'json'], { ...env, DATABASE_URL: fresh.url });
      expect(result).toMatchObject({ code: 0, err: [] });
      const status = JSON.parse(result.out[0] ?? '') as ReleaseStatus;
      // The releases are in the database too: a fresh one has none, the build folder is reported.
      expect(status.releases.map((release) => [release.id, release.current, release.page_views, release.errors, release.top_errors.length])).toEqual([
        ['dist', true, 0, 0, 0],
      ]);
      expect(status.events).toEqual([]);
    } finally {
      await fresh.drop();
    }
  });
});
