import { LOAD_ERROR_KINDS, VITAL_NAMES, type ReleaseHealth, type VitalName } from '@agency/shared';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/connection';
import { quantile, VITAL_UNITS_PER_VALUE } from './histogram';
import { PAGES_COUNTED_PER_CLIENT } from './telemetry-limits';
import { CLIENT_EVIDENCE, PAGE_VIEW_KIND, RENDER_FAILURE_KIND, SERVED_PAGE_KIND, type ClientEvidence } from './telemetry-kinds';

/** How many of a release's errors the report lists, most frequent first. */
export const TOP_ERRORS = 5;

export type { ReleaseHealth, TopError } from '@agency/shared';

/** Finds an error's original source location from its stack, with the release's source maps. */
export type LocateSource = (app: string, release: string, stack: string) => Promise<string | null>;

const isVital = (kind: string): kind is VitalName => (VITAL_NAMES as readonly string[]).includes(kind);

/**
 * Whether telemetry_minutes rows of `kind` count errors in the page (uncaught, unhandled
 * rejections, a slot's fallback): not page views, served pages, failed renders, vitals, nor load
 * failures and retries.
 */
export function isPageErrorKind(kind: string): boolean {
  return ![PAGE_VIEW_KIND, SERVED_PAGE_KIND, RENDER_FAILURE_KIND].includes(kind) && !isVital(kind) && !LOAD_ERROR_KINDS.includes(kind as never);
}

/** p75 in the vital's own scale: milliseconds, or CLS's score (to three decimals). */
export function p75(vital: VitalName, buckets: ReadonlyMap<number, number> | undefined): number | null {
  const units = buckets && quantile(buckets, 0.75);
  if (units === undefined) return null;
  const value = units / VITAL_UNITS_PER_VALUE[vital];
  return vital === 'CLS' ? Math.round(value * 1000) / 1000 : Math.round(value);
}

/** Counts and histograms per release and kind since `sinceMinute`. */
async function readCounts(db: Db, app: string, releaseIds: readonly string[], sinceMinute: number) {
  const rows = await db.kysely
    .selectFrom('telemetry_minutes')
    .select(['release', 'kind', 'bucket', (eb) => eb.fn.sum<string | number>('count').as('total')])
    .where('app', '=', app)
    .where('release', 'in', releaseIds)
    .where('minute', '>=', sinceMinute)
    .groupBy(['release', 'kind', 'bucket'])
    .execute();
  const counts = new Map<string, Map<string, Map<number, number>>>();
  for (const row of rows) {
    const byKind = counts.get(row.release) ?? new Map<string, Map<number, number>>();
    counts.set(row.release, byKind);
    const buckets = byKind.get(row.kind) ?? new Map<number, number>();
    byKind.set(row.kind, buckets);
    buckets.set(Number(row.bucket), db.dialect.readCount(row.total));
  }
  return counts;
}

/** Distinct clients per release and evidence, and the pages that count for a decision, seen since `sinceMinute`. */
async function readClients(db: Db, app: string, releaseIds: readonly string[], sinceMinute: number) {
  const rows = await db.kysely
    .selectFrom('telemetry_clients')
    .select([
      'release',
      'kind',
      (eb) => eb.fn.countAll<string | number>().as('clients'),
      sql<string | number>`sum(case when ${sql.ref('count')} > ${PAGES_COUNTED_PER_CLIENT} then ${PAGES_COUNTED_PER_CLIENT} else ${sql.ref('count')} end)`.as('counted'),
    ])
    .where('app', '=', app)
    .where('release', 'in', releaseIds)
    .where('last_minute', '>=', sinceMinute)
    .groupBy(['release', 'kind'])
    .execute();
  const clients = new Map<string, { counts: Record<ClientEvidence, number>; pages: number }>();
  for (const row of rows) {
    const entry = clients.get(row.release) ?? { counts: noClients(), pages: 0 };
    clients.set(row.release, entry);
    if ((CLIENT_EVIDENCE as readonly string[]).includes(row.kind)) entry.counts[row.kind as ClientEvidence] = db.dialect.readCount(row.clients);
    if (row.kind === 'served') entry.pages = db.dialect.readCount(row.counted);
  }
  return clients;
}

const noClients = (): Record<ClientEvidence, number> => ({ served: 0, error: 0, load_failure: 0, vitals: 0 });

async function readTopErrors(db: Db, app: string, releaseIds: readonly string[], sinceMinute: number) {
  const rows = await db.kysely
    .selectFrom('telemetry_error_minutes as m')
    .innerJoin('telemetry_errors as e', (join) =>
      join.onRef('e.app', '=', 'm.app').onRef('e.release', '=', 'm.release').onRef('e.fingerprint', '=', 'm.fingerprint'),
    )
    .select(['m.release', 'm.fingerprint', 'e.kind', 'e.page', 'e.message', 'e.stack', (eb) => eb.fn.sum<string | number>('m.count').as('total')])
    .where('m.app', '=', app)
    .where('m.release', 'in', releaseIds)
    .where('m.minute', '>=', sinceMinute)
    .groupBy(['m.release', 'm.fingerprint', 'e.kind', 'e.page', 'e.message', 'e.stack'])
    .execute();
  return rows
    .map((row) => ({ ...row, count: db.dialect.readCount(row.total) }))
    .sort((a, b) => b.count - a.count || a.fingerprint.localeCompare(b.fingerprint));
}

/**
 * The health of `releases` of `app` from `sinceMinute` on: page views, errors and their rate,
 * load failures, p75 of each vital, and the most frequent errors with their original source.
 */
export async function readReleaseHealth(
  db: Db,
  app: string,
  releases: readonly { id: string; current: boolean }[],
  sinceMinute: number,
  locate: LocateSource,
): Promise<ReleaseHealth[]> {
  const ids = releases.map((release) => release.id);
  if (ids.length === 0) return [];
  const [counts, errors, clients] = await Promise.all([
    readCounts(db, app, ids, sinceMinute),
    readTopErrors(db, app, ids, sinceMinute),
    readClients(db, app, ids, sinceMinute),
  ]);
  return Promise.all(
    releases.map(async ({ id, current }) => {
      const byKind = counts.get(id) ?? new Map<string, Map<number, number>>();
      const total = (kind: string) => [...(byKind.get(kind)?.values() ?? [])].reduce((sum, count) => sum + count, 0);
      let pageErrors = 0;
      for (const kind of byKind.keys()) {
        if (isPageErrorKind(kind)) pageErrors += total(kind);
      }
      const pageViews = total(PAGE_VIEW_KIND);
      const top = errors.filter((row) => row.release === id).slice(0, TOP_ERRORS);
      return {
        id,
        current,
        page_views: pageViews,
        served_page_views: total(SERVED_PAGE_KIND),
        judged_page_views: clients.get(id)?.pages ?? 0,
        clients: clients.get(id)?.counts ?? noClients(),
        errors: pageErrors,
        error_rate: pageViews > 0 ? Math.round((pageErrors / pageViews) * 10_000) / 10_000 : null,
        load_failures: total('load_failure'),
        load_retries: total('load_retry'),
        render_failures: total(RENDER_FAILURE_KIND),
        vitals_samples: { lcp: total('LCP'), inp: total('INP') },
        vitals: {
          lcp_p75_ms: p75('LCP', byKind.get('LCP')),
          inp_p75_ms: p75('INP', byKind.get('INP')),
          cls_p75: p75('CLS', byKind.get('CLS')),
          fcp_p75_ms: p75('FCP', byKind.get('FCP')),
          ttfb_p75_ms: p75('TTFB', byKind.get('TTFB')),
        },
        top_errors: await Promise.all(
          top.map(async (row) => ({
            message: row.message,
            kind: row.kind,
            page: row.page,
            count: row.count,
            source: await locate(app, id, row.stack),
          })),
        ),
      };
    }),
  );
}

/** p75 of every vital per app and release since `sinceMinute` (for /metrics). */
export async function readVitalsP75(db: Db, sinceMinute: number): Promise<{ app: string; release: string; vital: VitalName; p75: number }[]> {
  const rows = await db.kysely
    .selectFrom('telemetry_minutes')
    .select(['app', 'release', 'kind', 'bucket', (eb) => eb.fn.sum<string | number>('count').as('total')])
    .where('kind', 'in', [...VITAL_NAMES])
    .where('minute', '>=', sinceMinute)
    .groupBy(['app', 'release', 'kind', 'bucket'])
    .execute();
  const histograms = new Map<string, { app: string; release: string; vital: VitalName; buckets: Map<number, number> }>();
  for (const row of rows) {
    if (!isVital(row.kind)) continue;
    const key = `${row.app}\n${row.release}\n${row.kind}`;
    const entry = histograms.get(key) ?? { app: row.app, release: row.release, vital: row.kind, buckets: new Map<number, number>() };
    histograms.set(key, entry);
    entry.buckets.set(Number(row.bucket), db.dialect.readCount(row.total));
  }
  return [...histograms.values()].flatMap(({ app, release, vital, buckets }) => {
    const value = p75(vital, buckets);
    return value === null ? [] : [{ app, release, vital, p75: value }];
  });
}
