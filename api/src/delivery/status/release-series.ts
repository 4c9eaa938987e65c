import { LOAD_ERROR_KINDS, VITAL_NAMES, type ReleaseSeries, type ReleaseSeriesLine, type VitalName } from '@agency/shared';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/connection';
import { isPageErrorKind, p75 } from '../health/release-health';
import { PAGE_VIEW_KIND } from '../health/telemetry-kinds';

/** About the most points a series has (one more when the window's ends fall inside buckets): enough to see a trend, few enough for a table or a small chart. */
export const MAX_SERIES_POINTS = 60;

/** Bucket sizes in minutes, each dividing a day evenly, so buckets start at round times. */
const BUCKET_MINUTES = [1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440] as const;

/** The smallest bucket that covers `windowMinutes` in MAX_SERIES_POINTS points or fewer (a day for longer windows). */
export function bucketMinutesFor(windowMinutes: number): number {
  return BUCKET_MINUTES.find((size) => Math.ceil(windowMinutes / size) <= MAX_SERIES_POINTS) ?? BUCKET_MINUTES.at(-1)!;
}

const isVital = (kind: string): kind is VitalName => (VITAL_NAMES as readonly string[]).includes(kind);
const LOAD_FAILURE_KIND = LOAD_ERROR_KINDS[0]!;

/**
 * What visitors' browsers reported of `releases` of `app` per time bucket, from `sinceMinute` to
 * `nowMinute`: page views, errors in the page, load failures, and p75 of LCP, INP and CLS, counted
 * as release health counts them over a whole window (readReleaseHealth). Every release of
 * `always` has a line; the others only when something was reported of them in the window.
 */
export async function readReleaseSeries(
  db: Db,
  app: string,
  releases: readonly string[],
  always: ReadonlySet<string>,
  sinceMinute: number,
  nowMinute: number,
): Promise<ReleaseSeries> {
  // The window's length (`1h`: 60 minutes) picks the size; its first and last buckets may be partial.
  const size = bucketMinutesFor(nowMinute - sinceMinute);
  const first = Math.floor(sinceMinute / size) * size;
  const count = Math.floor(nowMinute / size) - first / size + 1;
  const buckets = Array.from({ length: count }, (_, index) => new Date((first + index * size) * 60_000).toISOString());
  if (releases.length === 0) return { bucketMinutes: size, buckets, releases: [] };
  // Integer division on both databases; the size is one of ours, written into the statement.
  const start = sql<number | string>`(${sql.ref('minute')} / ${sql.lit(size)}) * ${sql.lit(size)}`;
  const rows = await db.kysely
    .selectFrom('telemetry_minutes')
    .select(['release', 'kind', 'bucket', start.as('start'), (eb) => eb.fn.sum<string | number>('count').as('total')])
    .where('app', '=', app)
    .where('release', 'in', releases)
    .where('minute', '>=', sinceMinute)
    .where('minute', '<=', nowMinute)
    .groupBy(['release', 'kind', 'bucket', start])
    .execute();

  const lines = new Map<string, ReleaseSeriesLine>();
  const histograms = new Map<string, Map<number, number>>();
  const lineOf = (id: string) => {
    let line = lines.get(id);
    if (!line) {
      const zeros = () => new Array<number>(count).fill(0);
      const nulls = () => new Array<number | null>(count).fill(null);
      line = { id, pageViews: zeros(), errors: zeros(), loadFailures: zeros(), lcpP75Ms: nulls(), inpP75Ms: nulls(), clsP75: nulls() };
      lines.set(id, line);
    }
    return line;
  };
  for (const id of releases) if (always.has(id)) lineOf(id);
  for (const row of rows) {
    const index = (Number(row.start) - first) / size;
    if (index < 0 || index >= count) continue;
    const total = db.dialect.readCount(row.total);
    const line = lineOf(row.release);
    if (row.kind === PAGE_VIEW_KIND) line.pageViews[index]! += total;
    else if (row.kind === LOAD_FAILURE_KIND) line.loadFailures[index]! += total;
    else if (isPageErrorKind(row.kind)) line.errors[index]! += total;
    else if (isVital(row.kind)) {
      const key = `${row.release}\n${row.kind}\n${index}`;
      const histogram = histograms.get(key) ?? new Map<number, number>();
      histograms.set(key, histogram);
      histogram.set(Number(row.bucket), (histogram.get(Number(row.bucket)) ?? 0) + total);
    }
  }
  for (const [key, histogram] of histograms) {
    const [id, vital, index] = key.split('\n') as [string, VitalName, string];
    const line = lineOf(id);
    const value = p75(vital, histogram);
    if (vital === 'LCP') line.lcpP75Ms[Number(index)] = value;
    else if (vital === 'INP') line.inpP75Ms[Number(index)] = value;
    else if (vital === 'CLS') line.clsP75[Number(index)] = value;
  }
  // In the order the releases were given (the report's: newest first).
  return { bucketMinutes: size, buckets, releases: releases.flatMap((id) => lines.get(id) ?? []) };
}
