import { randomId, type TelemetryBatch, type TelemetryError } from '@agency/shared';
import type { Database } from '../../src/platform/db/connection';
import type { TestContext } from './app';
import { eventually } from './eventually';

/** What the three telemetry tables hold, in a stable order, counts as numbers. */
export interface StoredTelemetry {
  minutes: { minute: number; app: string; release: string; page: string; kind: string; bucket: number; count: number }[];
  errors: { app: string; release: string; fingerprint: string; kind: string; page: string; message: string; stack: string; first_minute: number; last_minute: number }[];
  errorMinutes: { app: string; release: string; fingerprint: string; minute: number; count: number }[];
}

/** Rows in the same order on both databases (their text collations differ): by code unit, numbers by value. */
function sorted<Row>(rows: Row[], key: (row: Row) => (string | number)[]): Row[] {
  const compare = (a: Row, b: Row) => {
    const [left, right] = [key(a), key(b)];
    for (let index = 0; index < left.length; index += 1) {
      const [x, y] = [left[index]!, right[index]!];
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  };
  return rows.sort(compare);
}

export async function readTelemetry(db: Database): Promise<StoredTelemetry> {
  // One snapshot of the three tables: read apart, a flush committed between two reads would show
  // its error counts without its error samples.
  const { minutes, errors, errorMinutes } = await db.kysely
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => ({
      minutes: await trx.selectFrom('telemetry_minutes').selectAll().execute(),
      errors: await trx.selectFrom('telemetry_errors').selectAll().execute(),
      errorMinutes: await trx.selectFrom('telemetry_error_minutes').selectAll().execute(),
    }));
  return {
    minutes: sorted(
      minutes.map((row) => ({ ...row, minute: Number(row.minute), bucket: Number(row.bucket), count: Number(row.count) })),
      (row) => [row.app, row.release, row.minute, row.page, row.kind, row.bucket],
    ),
    errors: sorted(
      errors.map((row) => ({ ...row, first_minute: Number(row.first_minute), last_minute: Number(row.last_minute) })),
      (row) => [row.app, row.release, row.fingerprint],
    ),
    errorMinutes: sorted(
      errorMinutes.map((row) => ({ ...row, minute: Number(row.minute), count: Number(row.count) })),
      (row) => [row.app, row.release, row.fingerprint, row.minute],
    ),
  };
}

/** Only the rows of one app release. */
export function ofRelease(stored: StoredTelemetry, app: string, release: string): StoredTelemetry {
  const mine = (row: { app: string; release: string }) => row.app === app && row.release === release;
  return { minutes: stored.minutes.filter(mine), errors: stored.errors.filter(mine), errorMinutes: stored.errorMinutes.filter(mine) };
}

/**
 * Waits until the rows of the release satisfy `check`. The recorder writes about once a second;
 * the wait allows for a machine busy with other suites (SQLite commits are fsynced).
 */
export function eventuallyStored(db: Database, app: string, release: string, check: (stored: StoredTelemetry) => boolean): Promise<StoredTelemetry> {
  return eventually(`telemetry of ${app} ${release}`, async () => ofRelease(await readTelemetry(db), app, release), check, 10_000);
}

/** A browser error as the shell reports it. */
export function browserError(fields: Partial<TelemetryError> & Pick<TelemetryError, 'app' | 'release'>): TelemetryError {
  return { kind: 'uncaught', page: '/', message: 'TypeError: x is undefined', count: 1, ...fields };
}

/** A beacon with one page view of the shell and `app` (and no vitals or errors unless given). */
export function pageViewBatch(releases: Record<string, string>, page = '/', extra: Omit<TelemetryBatch, 'page_views'> = {}): TelemetryBatch {
  return { page_views: [{ page, releases }], ...extra };
}

let markers = 0;

/**
 * Sends a beacon with nothing but a fresh session and waits until that session is stored: the
 * recorder writes all it holds at once, so everything handed to it before is written too. Each
 * marker comes from an address of its own (sessions are counted per client and hour).
 */
export async function settleTelemetry(ctx: Pick<TestContext, 'db' | 'request'>): Promise<void> {
  markers += 1;
  const id = randomId();
  const localAddress = `127.0.${1 + Math.floor(markers / 250)}.${1 + (markers % 250)}`;
  const response = await ctx.request('POST', '/api/telemetry', { json: { session: { id, source: 'marker', medium: 'marker', campaign: 'marker' } }, localAddress });
  if (response.statusCode !== 204) throw new Error(`the marker beacon was answered ${response.statusCode}`);
  await eventually(`the marker session ${id}`, () => ctx.db.kysely.selectFrom('visit_sessions').select('id').where('id', '=', id).execute(), (rows) => rows.length === 1, 10_000);
}
