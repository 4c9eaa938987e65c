import { randomId } from '@agency/shared';
import { sql } from 'kysely';
import { createDatabase, type Database } from '../../../src/platform/db/connection';
import { TELEMETRY_BUDGET, type TelemetryBudget, type TelemetryTable } from '../../../src/platform/config/telemetry';
import { TelemetryRecorder } from '../../../src/delivery/health/telemetry-recorder';
import { openMigratedTestDatabase, type MigratedTestDatabase } from '../../helpers/database';
import { browserError } from '../../helpers/telemetry';

// Every telemetry table stays within its row budget, the oldest rows going first, on SQLite and
// on PostgreSQL: whatever is written, by this process (checked as it writes) or by another one
// (checked once a minute, enforceBudget).
jest.setTimeout(60_000);

const SMALL: TelemetryBudget = { telemetry_minutes: 60, telemetry_error_minutes: 30, telemetry_errors: 10, telemetry_clients: 20, visit_sessions: 25 };
const TABLES = Object.keys(TELEMETRY_BUDGET) as TelemetryTable[];

let testDb: MigratedTestDatabase;
let db: Database;
let now = Date.parse('2026-11-25T08:00:00Z');
const pruned: [TelemetryTable, number][] = [];

beforeEach(async () => {
  testDb = await openMigratedTestDatabase();
  db = testDb.db;
  pruned.length = 0;
});

afterEach(() => testDb.close());

async function rows(table: TelemetryTable): Promise<number> {
  const row = await db.kysely.selectFrom(table).select(sql<number | string>`count(*)`.as('rows')).executeTakeFirstOrThrow();
  return Number(row.rows);
}

const recorderWith = (budget: TelemetryBudget) =>
  new TelemetryRecorder(
    db,
    (error) => {
      throw error;
    },
    () => now,
    { budget, onPruned: (table, deleted) => pruned.push([table, deleted]) },
  );

/** A minute of a flood of made-up reports: every row distinct, in every table. */
function flood(recorder: TelemetryRecorder, minute: number, size: number) {
  const judged = () => true;
  for (let i = 0; i < size; i += 1) {
    const release = `flood-${minute}-${i}`;
    recorder.record(
      {
        page_views: [{ page: '/', releases: { shell: release } }],
        vitals: [{ name: 'LCP', value: 100 + i * 37, page: '/', releases: { shell: release } }],
        errors: [browserError({ app: 'blog', release, message: `made up ${minute} ${i}` })],
        session: { id: randomId(), source: 'x', medium: 'y', campaign: 'z' },
      },
      { client: `client-${minute}-${i}`, judged },
    );
  }
}

it('keeps every table within its budget under a flood, minute after minute, and the newest rows stay', async () => {
  const recorder = recorderWith(SMALL);
  for (let minute = 0; minute < 8; minute += 1) {
    now += 60_000;
    flood(recorder, minute, 12);
    await recorder.flush();
    for (const table of TABLES) expect([table, await rows(table)]).toEqual([table, Math.min(await rows(table), SMALL[table])]);
  }
  for (const table of TABLES) expect(pruned.some(([name]) => name === table)).toBe(true);
  // What was pruned is the oldest: the last minute's rows are all there.
  const newest = await db.kysely.selectFrom('telemetry_minutes').select('release').where('release', 'like', 'flood-7-%').execute();
  expect(newest.length).toBeGreaterThan(0);
  const oldest = await db.kysely.selectFrom('telemetry_minutes').select('release').where('release', 'like', 'flood-0-%').execute();
  expect(oldest).toEqual([]);
});

it('counts a table at its first write, and again only once its rows may be past the budget', async () => {
  const counts: string[] = [];
  const watched = createDatabase(testDb.url, {
    onQuery: (event) => {
      const match = /select count\(\*\) as "rows" from "(\w+)"/.exec(event.query.sql);
      if (match) counts.push(match[1]!);
    },
  });
  try {
    const recorder = new TelemetryRecorder(
      watched,
      (error) => {
        throw error;
      },
      () => now,
      { budget: { ...SMALL, telemetry_minutes: 100 } },
    );
    const views = (count: number) => recorder.record({ page_views: Array.from({ length: count }, (_, index) => ({ page: '/', releases: { shell: `counted-${now}-${index}` } })) });
    views(10);
    await recorder.flush();
    expect(counts).toEqual(['telemetry_minutes']);
    // 10 + 80 rows: within the budget of 100 whatever the others wrote: no count.
    views(80);
    await recorder.flush();
    expect(counts).toEqual(['telemetry_minutes']);
    // 20 more may be past it: counted (and pruned).
    views(20);
    await recorder.flush();
    expect(counts).toEqual(['telemetry_minutes', 'telemetry_minutes']);
    expect(await rows('telemetry_minutes')).toBeLessThanOrEqual(100);
  } finally {
    await watched.destroy();
  }
});

it('prunes rows another process wrote past the budget once it counts every table (enforceBudget)', async () => {
  const other = recorderWith(TELEMETRY_BUDGET);
  now += 60_000;
  flood(other, 1, 10);
  await other.flush();
  now += 60_000;
  flood(other, 2, 10);
  await other.flush();
  const keeper = recorderWith(SMALL);
  const deleted = await keeper.enforceBudget();
  expect(deleted).toBeGreaterThan(0);
  for (const table of TABLES) expect(await rows(table)).toBeLessThanOrEqual(SMALL[table]);
  expect((await db.kysely.selectFrom('telemetry_minutes').select('release').where('release', 'like', 'flood-2-%').execute()).length).toBeGreaterThan(0);
});
