import { TELEMETRY_CLIENT_RETENTION_DAYS, VISIT_SESSION_RETENTION_MONTHS, type TelemetryBatch } from '@agency/shared';
import type { Database } from '../../../src/platform/db/connection';
import { readReleaseHealth, readVitalsP75, TOP_ERRORS, type LocateSource } from '../../../src/delivery/health/release-health';
import { toMinute } from '../../../src/platform/lib/minutes';
import { ERROR_SAMPLES_PER_HOUR, PAGES_COUNTED_PER_CLIENT } from '../../../src/delivery/health/telemetry-limits';
import { TelemetryRecorder } from '../../../src/delivery/health/telemetry-recorder';
import { pruneTelemetry } from '../../../src/delivery/health/telemetry-retention';
import { openMigratedTestDatabase, type MigratedTestDatabase } from '../../helpers/database';
import { browserError, readTelemetry } from '../../helpers/telemetry';

// Beacons go in through the recorder (as the route hands them over) with a fixed clock; the
// report reads them back per release and window, on SQLite and on PostgreSQL.
jest.setTimeout(30_000);

let testDb: MigratedTestDatabase;
let db: Database;
let now = 0;
let recorder: TelemetryRecorder;
const flushErrors: unknown[] = [];

beforeEach(async () => {
  testDb = await openMigratedTestDatabase();
  db = testDb.db;
  flushErrors.length = 0;
  recorder = new TelemetryRecorder(db, (error) => flushErrors.push(error), () => now);
});

afterEach(() => testDb.close());

const at = (iso: string) => (now = Date.parse(iso));
const within = (value: number | null, expected: number) => value !== null && Math.abs(value - expected) / expected <= 0.04;

/** `count` page views of a page with the shell and the blog remote. */
const views = (blog: string, count: number, shell = 'shell-1'): TelemetryBatch => ({
  page_views: Array.from({ length: count }, () => ({ page: '/blog/:postId', releases: { shell, blog } })),
});
const vitals = (blog: string, name: 'LCP' | 'INP' | 'CLS' | 'FCP' | 'TTFB', values: number[]): TelemetryBatch => ({
  vitals: values.map((value) => ({ name, value, page: '/blog/:postId', releases: { shell: 'shell-1', blog } })),
});
const error = (release: string, message: string, count: number, kind: 'uncaught' | 'rejection' | 'boundary' | 'load_failure' | 'load_retry' = 'uncaught'): TelemetryBatch => ({
  errors: [browserError({ kind, app: 'blog', release, message, count, page: '/blog/:postId', stack: `Error: ${message}\n    at f (http://127.0.0.1/remotes/blog/${release}/chunk.js:1:${message.length})` })],
});

const locate: LocateSource = async (app, release, stack) => (stack.includes('unmapped') ? null : `${app}@${release}: ${stack.split('\n')[0]}`);

describe('readReleaseHealth', () => {
  const windowStart = '2026-11-24T09:00:00Z';

  async function recordScenario() {
    // Before the window: must count nowhere.
    at('2026-11-24T08:59:59Z');
    recorder.record(views('r2', 50));
    recorder.record(error('r2', 'error A', 100));
    recorder.record(error('r2', 'old only', 500));
    recorder.record(vitals('r2', 'LCP', Array.from({ length: 100 }, () => 60_000)));
    recorder.record(views('r1', 10));
    await recorder.flush();

    at('2026-11-24T09:00:00Z');
    recorder.record(views('r2', 6));
    recorder.record({ ...error('r2', 'error A', 1), ...vitals('r2', 'LCP', [1000, 1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800, 1900]) });
    recorder.record(error('r2', 'error B', 6, 'rejection'));
    recorder.record(error('r2', 'error C', 5, 'boundary'));
    recorder.record(error('r2', 'error D unmapped', 4));
    recorder.record(error('r2', 'error E', 3));
    recorder.record(error('r2', 'error F', 2));
    recorder.record(error('r2', 'load', 2, 'load_failure'));
    // Fewer than the page errors listed: whether load failures belong among the top errors is left open here.
    recorder.record(error('r2', 'retry', 1, 'load_retry'));
    recorder.record(vitals('r2', 'INP', [40, 80]));
    recorder.record(vitals('r2', 'CLS', [0.05, 0.1, 0.25, 0.3]));
    recorder.record(vitals('r2', 'TTFB', [3, 5, 8, 9]));
    recorder.record(views('r1', 4));
    recorder.record(error('r1', 'r1 error', 1));
    // Another app's release of the same name is not the blog's.
    recorder.record({ errors: [browserError({ app: 'home', release: 'r2', count: 40 })] });
    await recorder.flush();

    at('2026-11-24T09:31:10Z');
    recorder.record(views('r2', 4));
    recorder.record({ ...error('r2', 'error A', 6), ...vitals('r2', 'LCP', [2000, 2100, 2200, 2300, 2400, 2500, 2600, 2700, 2800, 2900]) });
    recorder.record(vitals('r2', 'INP', [120, 160, 200, 240, 280, 320]));
    await recorder.flush();
    expect(flushErrors).toEqual([]);
  }

  it('reports page views, errors and their rate, load failures, p75s and the top errors of each release in the window', async () => {
    await recordScenario();
    const releases = [
      { id: 'r2', current: true },
      { id: 'r1', current: false },
      { id: 'dist', current: false },
    ];
    const [r2, r1, dist] = await readReleaseHealth(db, 'blog', releases, toMinute(Date.parse(windowStart)), locate);

    expect(r2).toMatchObject({ id: 'r2', current: true, page_views: 10, load_failures: 2, load_retries: 1 });
    // uncaught (A 7, D 4, E 3, F 2) + rejection (B 6) + boundary (C 5); not the load failures.
    expect(r2?.errors).toBe(27);
    expect(r2?.error_rate).toBe(2.7);
    expect(within(r2?.vitals.lcp_p75_ms ?? null, 2400)).toBe(true);
    expect(Number.isInteger(r2?.vitals.lcp_p75_ms)).toBe(true);
    expect(within(r2?.vitals.inp_p75_ms ?? null, 240)).toBe(true);
    expect(within(r2?.vitals.cls_p75 ?? null, 0.25)).toBe(true);
    expect(r2?.vitals.cls_p75).toBe(Number(r2?.vitals.cls_p75?.toFixed(3)));
    expect(r2?.vitals.ttfb_p75_ms).toBe(8);
    expect(r2?.vitals.fcp_p75_ms).toBeNull();

    expect(r2?.top_errors).toHaveLength(TOP_ERRORS);
    expect(r2?.top_errors.map(({ message, kind, count }) => ({ message, kind, count }))).toEqual([
      { message: 'error A', kind: 'uncaught', count: 7 },
      { message: 'error B', kind: 'rejection', count: 6 },
      { message: 'error C', kind: 'boundary', count: 5 },
      { message: 'error D unmapped', kind: 'uncaught', count: 4 },
      { message: 'error E', kind: 'uncaught', count: 3 },
    ]);
    expect(r2?.top_errors[0]).toEqual({
      message: 'error A',
      kind: 'uncaught',
      page: '/blog/:postId',
      count: 7,
      source: 'blog@r2: Error: error A',
    });
    expect(r2?.top_errors[3]?.source).toBeNull();

    expect(r1).toMatchObject({ id: 'r1', current: false, page_views: 4, errors: 1, error_rate: 0.25, load_failures: 0, load_retries: 0 });
    expect(r1?.top_errors.map((top) => top.message)).toEqual(['r1 error']);
    expect(r1?.vitals).toEqual({ lcp_p75_ms: null, inp_p75_ms: null, cls_p75: null, fcp_p75_ms: null, ttfb_p75_ms: null });

    expect(dist).toEqual({
      id: 'dist',
      current: false,
      page_views: 0,
      served_page_views: 0,
      judged_page_views: 0,
      clients: { served: 0, error: 0, load_failure: 0, vitals: 0 },
      errors: 0,
      error_rate: null,
      load_failures: 0,
      load_retries: 0,
      render_failures: 0,
      vitals_samples: { lcp: 0, inp: 0 },
      vitals: { lcp_p75_ms: null, inp_p75_ms: null, cls_p75: null, fcp_p75_ms: null, ttfb_p75_ms: null },
      top_errors: [],
    });
  });

  it('counts everything kept when the window starts earlier', async () => {
    await recordScenario();
    const [r2] = await readReleaseHealth(db, 'blog', [{ id: 'r2', current: true }], toMinute(Date.parse('2026-11-24T08:00:00Z')), locate);
    expect(r2).toMatchObject({ page_views: 60, errors: 627 });
    expect(r2?.top_errors.slice(0, 2).map(({ message, count }) => ({ message, count }))).toEqual([
      { message: 'old only', count: 500 },
      { message: 'error A', count: 107 },
    ]);
    expect(within(r2?.vitals.lcp_p75_ms ?? null, 60_000)).toBe(true);
  });

  it('counts the pages the server sent, and the distinct clients of a judged release’s evidence only', async () => {
    at('2026-11-24T09:00:00Z');
    const judged = (app: string, release: string) => app === 'blog' && release === 'r2';
    const client = (name: string) => ({ client: name, judged });
    for (const name of ['a', 'a', 'a', 'b', 'c']) {
      recorder.recordServedPage('/blog/:postId', { shell: 'shell-1', blog: 'r2' }, client(name));
      recorder.recordServedPage('/', { shell: 'shell-1', blog: 'r1' }, client(name));
    }
    recorder.record(error('r2', 'thrown', 3), client('a'));
    recorder.record(error('r2', 'thrown', 1), client('b'));
    recorder.record(error('r2', 'chunk', 1, 'load_failure'), client('c'));
    recorder.record(error('r2', 'retried', 1, 'load_retry'), client('c'));
    recorder.record(vitals('r2', 'LCP', [1200]), client('b'));
    recorder.record(vitals('r2', 'CLS', [0.1]), client('c'));
    recorder.record(error('r1', 'not judged', 1), client('a'));
    await recorder.flush();

    const [r2, r1] = await readReleaseHealth(db, 'blog', [{ id: 'r2', current: true }, { id: 'r1', current: false }], toMinute(Date.parse(windowStart)), locate);
    expect(r2).toMatchObject({ served_page_views: 5, judged_page_views: 5, page_views: 0, errors: 4, load_failures: 1, clients: { served: 3, error: 2, load_failure: 1, vitals: 1 } });
    // Sent pages are the server's count, not an error nor a browser's page view.
    expect(r2?.error_rate).toBeNull();
    expect(r1).toMatchObject({ served_page_views: 5, judged_page_views: 0, errors: 1, clients: { served: 0, error: 0, load_failure: 0, vitals: 0 } });
    // Only the hashes a judged release's evidence names are kept.
    const kept = await db.kysely.selectFrom('telemetry_clients').select(['release', 'kind', 'client']).orderBy('kind').orderBy('client').execute();
    expect(kept.every((row) => row.release === 'r2')).toBe(true);
    expect(kept).toHaveLength(7);
  });

  it(`counts at most ${PAGES_COUNTED_PER_CLIENT} pages per client toward a canary's page views`, async () => {
    at('2026-11-24T09:00:00Z');
    const judged = () => true;
    for (let page = 0; page < 40; page += 1) recorder.recordServedPage('/', { blog: 'r2' }, { client: 'eager', judged });
    for (const name of ['a', 'b']) recorder.recordServedPage('/', { blog: 'r2' }, { client: name, judged });
    await recorder.flush();
    const [r2] = await readReleaseHealth(db, 'blog', [{ id: 'r2', current: true }], toMinute(Date.parse(windowStart)), locate);
    expect(r2).toMatchObject({ served_page_views: 42, judged_page_views: PAGES_COUNTED_PER_CLIENT + 2, clients: { served: 3 } });
  });

  it('reports nothing for no releases', async () => {
    await recordScenario();
    expect(await readReleaseHealth(db, 'blog', [], 0, locate)).toEqual([]);
  });

  it('readVitalsP75 gives the p75 of each vital per app release in the window', async () => {
    await recordScenario();
    const p75s = await readVitalsP75(db, toMinute(Date.parse(windowStart)));
    const blog = p75s.filter((entry) => entry.app === 'blog' && entry.release === 'r2');
    expect(blog.map((entry) => entry.vital).sort()).toEqual(['CLS', 'INP', 'LCP', 'TTFB']);
    expect(within(blog.find((entry) => entry.vital === 'LCP')?.p75 ?? null, 2400)).toBe(true);
    // The shell was on every one of those pages.
    const shell = p75s.filter((entry) => entry.app === 'shell' && entry.release === 'shell-1');
    expect(shell.map((entry) => entry.vital).sort()).toEqual(['CLS', 'INP', 'LCP', 'TTFB']);
    expect(p75s.every((entry) => Number.isFinite(entry.p75))).toBe(true);
    expect(p75s.filter((entry) => entry.app === 'blog' && entry.release === 'r1')).toEqual([]);
    // The hour-long LCPs before the window are left out.
    expect(within(shell.find((entry) => entry.vital === 'LCP')?.p75 ?? null, 2400)).toBe(true);
  });
});

describe('pruneTelemetry', () => {
  const DAY = 24 * 60 * 60 * 1000;

  it('deletes rows older than the retention and keeps newer ones', async () => {
    const today = Date.parse('2026-11-24T09:30:00Z');
    now = today - 15 * DAY;
    recorder.record({ ...views('old', 3), ...error('old', 'gone', 2) });
    recorder.record(error('mixed', 'seen then and now', 1));
    await recorder.flush();
    now = today - 13 * DAY;
    recorder.record({ ...views('recent', 2), ...vitals('recent', 'LCP', [900]) });
    await recorder.flush();
    now = today - DAY;
    recorder.record(error('mixed', 'seen then and now', 4));
    await recorder.flush();

    const before = await readTelemetry(db);
    const cutoff = toMinute(today - 14 * DAY);
    const old = (minute: number) => minute < cutoff;
    const expectedDeleted =
      before.minutes.filter((row) => old(row.minute)).length +
      before.errorMinutes.filter((row) => old(row.minute)).length +
      before.errors.filter((row) => old(row.last_minute)).length;
    // Page views of shell and blog, blog's and mixed's error counts; two error samples' minutes; one sample.
    expect(expectedDeleted).toBe(4 + 2 + 1);

    expect(await pruneTelemetry(db, 14, today)).toBe(expectedDeleted);
    const after = await readTelemetry(db);
    expect(after.minutes.some((row) => old(row.minute))).toBe(false);
    expect(after.minutes.filter((row) => row.app === 'blog').map(({ release, kind }) => `${release} ${kind}`)).toEqual(
      expect.arrayContaining(['recent page_view', 'recent LCP', 'mixed uncaught']),
    );
    expect(after.errors.map((row) => `${row.release} ${row.message}`)).toEqual(['mixed seen then and now']);
    expect(after.errorMinutes.map(({ release, count }) => ({ release, count }))).toEqual([{ release: 'mixed', count: 4 }]);

    // Nothing more to delete; a shorter retention takes the rest.
    expect(await pruneTelemetry(db, 14, today)).toBe(0);
    await pruneTelemetry(db, 1, today + 2 * DAY);
    expect(await readTelemetry(db)).toEqual({ minutes: [], errors: [], errorMinutes: [] });
  });

  it(`keeps counted visits ${VISIT_SESSION_RETENTION_MONTHS} months, whatever the telemetry's retention`, async () => {
    const today = Date.parse('2026-11-24T09:30:00Z');
    const visit = (id: string, at: number) => {
      now = at;
      recorder.record({ session: { id: id.padStart(32, '0'), source: 'google', medium: 'cpc', campaign: '(not set)' } });
    };
    visit('a1', Date.parse('2025-10-24T09:00:00Z'));
    visit('a2', Date.parse('2025-10-24T10:00:00Z'));
    visit('a3', today - 15 * DAY);
    await recorder.flush();
    await pruneTelemetry(db, 14, today);
    const kept = await db.kysely.selectFrom('visit_sessions').select('id').where('id', 'like', '%a_').orderBy('id').execute();
    // Thirteen months before 2026-11-24 09:30 is 2025-10-24 09:30.
    expect(kept.map((row) => row.id.replace(/^0+/, ''))).toEqual(['a2', 'a3']);
  });
});

describe('pruneTelemetry and the clients’ fingerprints', () => {
  it(`deletes a client's fingerprint ${TELEMETRY_CLIENT_RETENTION_DAYS} days after it was last seen`, async () => {
    const today = Date.parse('2026-11-24T09:30:00Z');
    const judged = () => true;
    now = today - (TELEMETRY_CLIENT_RETENTION_DAYS * 24 + 1) * 60 * 60 * 1000;
    recorder.recordServedPage('/', { blog: 'r1' }, { client: 'gone', judged });
    now = today - 60 * 60 * 1000;
    recorder.recordServedPage('/', { blog: 'r1' }, { client: 'kept', judged });
    await recorder.flush();
    await pruneTelemetry(db, 14, today);
    expect((await db.kysely.selectFrom('telemetry_clients').select('client').execute()).map((row) => row.client)).toEqual(['kept']);
  });
});

describe('TelemetryRecorder', () => {
  it(`stores at most ${ERROR_SAMPLES_PER_HOUR} new distinct errors of a release an hour, and counts all of them`, async () => {
    at('2026-11-24T09:05:00Z');
    recorder.record(error('r1', 'seen before', 1));
    await recorder.flush();
    at('2026-11-24T10:10:00Z');
    const distinct = ERROR_SAMPLES_PER_HOUR + 10;
    for (let i = 0; i < distinct; i += 1) recorder.record(error('r1', `made-up ${i}`, 1));
    // An error stored in an earlier hour is not new: its sample stays, and its count goes on.
    recorder.record(error('r1', 'seen before', 2));
    await recorder.flush();
    at('2026-11-24T10:50:00Z');
    recorder.record(error('r1', 'still this hour', 1));
    await recorder.flush();

    const stored = await readTelemetry(db);
    const samples = stored.errors.filter((row) => row.release === 'r1').map((row) => row.message);
    expect(samples).toHaveLength(ERROR_SAMPLES_PER_HOUR + 1);
    expect(samples).toContain('seen before');
    expect(samples).not.toContain('still this hour');
    expect(stored.errorMinutes.filter((row) => row.release === 'r1').reduce((sum, row) => sum + row.count, 0)).toBe(ERROR_SAMPLES_PER_HOUR + 3);
    // Every one is counted by its kind.
    expect(stored.minutes.filter((row) => row.app === 'blog' && row.kind === 'uncaught').reduce((sum, row) => sum + row.count, 0)).toBe(distinct + 4);

    // The next hour has room again.
    at('2026-11-24T11:00:00Z');
    recorder.record(error('r1', 'next hour', 1));
    await recorder.flush();
    expect((await readTelemetry(db)).errors.map((row) => row.message)).toContain('next hour');
  });


  it('keeps what a failed write held and writes it, merged with newer reports, next time', async () => {
    at('2026-11-24T09:00:00Z');
    recorder.record({ ...views('r1', 2), ...error('r1', 'kept', 3) });
    await db.kysely.schema.alterTable('telemetry_error_minutes').renameTo('telemetry_error_minutes_away').execute();
    await recorder.flush();
    expect(flushErrors).toHaveLength(1);
    // Nothing of the failed transaction is left half written.
    expect((await db.kysely.selectFrom('telemetry_minutes').selectAll().execute()).length).toBe(0);
    await db.kysely.schema.alterTable('telemetry_error_minutes_away').renameTo('telemetry_error_minutes').execute();

    recorder.record({ ...views('r1', 1), ...error('r1', 'kept', 1) });
    await recorder.flush();
    const stored = await readTelemetry(db);
    const blogViews = stored.minutes.find((row) => row.app === 'blog' && row.kind === 'page_view');
    expect(blogViews?.count).toBe(3);
    expect(stored.errors.map((row) => row.message)).toEqual(['kept']);
    expect(stored.errorMinutes.map((row) => row.count)).toEqual([4]);
    expect(recorder.pendingRows).toBe(0);
  });

  it('writes what is pending when stopped', async () => {
    recorder.start();
    recorder.record(views('r1', 1));
    await recorder.stop();
    expect((await readTelemetry(db)).minutes.filter((row) => row.kind === 'page_view')).toHaveLength(2);
  });
});
