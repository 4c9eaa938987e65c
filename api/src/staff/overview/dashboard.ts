import {
  BLOG_LISTING_PATH,
  conversionRate,
  DEVICE_CLASSES,
  kyivDayText,
  LEAD_KINDS,
  matchPageRoute,
  nextKyivDay,
  PAGE_ROUTES,
  SITE_ANALYTICS_LIMITS,
  trafficSource,
  type Dashboard,
  type DashboardFigures,
  type DashboardRow,
  type KyivDay,
  type LeadKind,
  type RollupGrain,
} from '@agency/shared';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/connection';
import { SUBMISSION_TABLES } from '../../site/leads';
import { toMinute } from '../../platform/lib/minutes';
import { dayEnd, dayStart, type DashboardFilters, type DashboardRange } from './dashboard-range';

/**
 * The owner's dashboard from the hourly and daily totals the site's counting keeps (per page,
 * source, campaign and device) and from the leads. Visitors are counted once per Kyiv day (the
 * salt of their hash changes daily), so a period's visitors are its days' visitors added up.
 *
 * Filters: a source, campaign or device narrows everything to visits of it (leads to those whose
 * own attribution says it). A page narrows visitors, views and time to that page, and leads to
 * those whose visitor landed on it: a page is credited with the leads it brought.
 */

/** Minutes since the epoch, [start, end). */
interface Span {
  start: number;
  end: number;
}

/** Rows of one grain whose `start` is in [start, end). */
interface Piece extends Span {
  grain: RollupGrain;
}

const spanOf = (from: KyivDay, to: KyivDay): Span => ({ start: toMinute(dayStart(from)), end: toMinute(dayEnd(to)) });

const firstOfMonth = (day: KyivDay): KyivDay => ({ ...day, date: 1 });
const nextMonth = (day: KyivDay): KyivDay => (day.month === 11 ? { year: day.year + 1, month: 0, date: 1 } : { year: day.year, month: day.month + 1, date: 1 });
const before = (a: KyivDay, b: KyivDay) => Date.UTC(a.year, a.month, a.date) < Date.UTC(b.year, b.month, b.date);

/**
 * The rollup rows that add up to the Kyiv days from `from` to `to`: the months wholly inside as
 * monthly rows, the days before and after them as daily ones. A year is read as some twelve
 * months' rows and two ends of days, not 365 days'.
 */
function piecesOf(from: KyivDay, to: KyivDay): Piece[] {
  const end = nextKyivDay(to);
  let firstWhole = firstOfMonth(from);
  if (before(firstWhole, from)) firstWhole = nextMonth(firstWhole);
  let afterWhole = firstWhole;
  while (!before(end, nextMonth(afterWhole))) afterWhole = nextMonth(afterWhole);
  if (!before(firstWhole, afterWhole)) return [{ grain: 'day', ...spanOf(from, to) }];
  const minute = (day: KyivDay) => toMinute(dayStart(day));
  const pieces: Piece[] = [{ grain: 'month', start: minute(firstWhole), end: minute(afterWhole) }];
  if (before(from, firstWhole)) pieces.push({ grain: 'day', start: minute(from), end: minute(firstWhole) });
  if (before(afterWhole, end)) pieces.push({ grain: 'day', start: minute(afterWhole), end: minute(end) });
  return pieces;
}

const count = (value: unknown) => (value === null || value === undefined ? 0 : Number(value));

/** A lead as the dashboard counts it: where it came from, as its own attribution says. */
interface LeadFacts {
  kind: LeadKind;
  minute: number;
  won: boolean;
  source: string;
  campaign: string;
  device: string | null;
  landingPath: string | null;
}

interface Totals {
  visitors: number;
  pageViews: number;
  engagedMs: number;
}

function figures({ visitors, pageViews, engagedMs }: Totals, leads: readonly LeadFacts[]): DashboardFigures {
  const won = leads.filter((lead) => lead.won).length;
  return {
    visitors,
    pageViews,
    secondsPerVisitor: visitors === 0 ? 0 : Math.round(engagedMs / visitors / 1000),
    leads: leads.length,
    conversionRate: conversionRate(leads.length, visitors),
    won,
  };
}

/** The page a lead's visitor landed on, spelled as the site counts pages; null when it is not a page of the site. */
function pageOf(path: string | null): string | null {
  return path === null ? null : (matchPageRoute(path)?.path ?? null);
}

async function readLeads(db: Db, span: Span, filters: DashboardFilters): Promise<LeadFacts[]> {
  const from = new Date(span.start * 60_000).toISOString();
  const to = new Date(span.end * 60_000).toISOString();
  const read = (kind: LeadKind) =>
    db.kysely
      .selectFrom('leads')
      // Both tables have the same attribution columns: typed as one of them, the query reads either.
      .innerJoin(`${SUBMISSION_TABLES[kind]} as submission` as 'contact_messages as submission', 'submission.id', 'leads.submission_id')
      .select([
        'leads.received_at',
        'leads.status',
        'leads.device',
        'submission.utm_source',
        'submission.utm_medium',
        'submission.utm_campaign',
        'submission.gclid',
        'submission.referrer_host',
        'submission.landing_path',
      ])
      .where('leads.kind', '=', kind)
      .where('leads.received_at', '>=', from)
      .where('leads.received_at', '<', to)
      .where('leads.status', '!=', 'spam')
      .$if(filters.device !== undefined, (query) => query.where('leads.device', '=', filters.device!))
      .execute();
  const rows = await Promise.all(LEAD_KINDS.map(async (kind) => ({ kind, rows: await read(kind) })));
  const leads: LeadFacts[] = [];
  for (const { kind, rows: found } of rows) {
    for (const row of found) {
      const { source, campaign } = trafficSource({
        utm_source: row.utm_source ?? undefined,
        utm_medium: row.utm_medium ?? undefined,
        utm_campaign: row.utm_campaign ?? undefined,
        gclid: row.gclid ?? undefined,
        referrer_host: row.referrer_host ?? undefined,
      });
      const lead: LeadFacts = {
        kind,
        minute: toMinute(Date.parse(row.received_at)),
        won: row.status === 'won',
        source,
        campaign,
        device: row.device,
        landingPath: pageOf(row.landing_path),
      };
      if (filters.source !== undefined && lead.source !== filters.source) continue;
      if (filters.campaign !== undefined && lead.campaign !== filters.campaign) continue;
      if (filters.page !== undefined && lead.landingPath !== filters.page) continue;
      leads.push(lead);
    }
  }
  return leads;
}

type RollupTable = 'analytics_page_rollups' | 'analytics_visit_rollups' | 'analytics_form_rollups';

/**
 * The rows of `table` in `piece` that the filters keep (a page filter where the table has pages),
 * for a query to select from; the rollups' primary key begins with grain and start.
 */
function rollups(db: Db, table: RollupTable, piece: Piece, filters: DashboardFilters) {
  const pathColumn = table === 'analytics_visit_rollups' ? undefined : 'path';
  return (
    db.kysely
      // Every rollup table has these columns: typed as one of them, the query reads any.
      .selectFrom(table as 'analytics_form_rollups')
      .where('grain', '=', piece.grain)
      .where('start', '>=', piece.start)
      .where('start', '<', piece.end)
      .$if(filters.page !== undefined && pathColumn !== undefined, (query) => query.where('path', '=', filters.page!))
      .$if(filters.source !== undefined, (query) => query.where('source', '=', filters.source!))
      .$if(filters.campaign !== undefined, (query) => query.where('campaign', '=', filters.campaign!))
      .$if(filters.device !== undefined, (query) => query.where('device', '=', filters.device!))
  );
}

type Rollups = ReturnType<typeof rollups>;

/** `read` for each piece at once, their rows together. */
async function ofPieces<Row>(pieces: readonly Piece[], read: (piece: Piece) => Promise<Row[]>): Promise<Row[]> {
  return (await Promise.all(pieces.map(read))).flat();
}

const sums = {
  views: sql<unknown>`sum(views)`.as('views'),
  visitors: sql<unknown>`sum(visitors)`.as('visitors'),
  engaged: sql<unknown>`sum(engaged_ms)`.as('engaged'),
};

/** Visitors, page views and time of some pieces: visits from their own totals, unless one page is asked for. */
async function totalsOf(db: Db, pieces: readonly Piece[], filters: DashboardFilters): Promise<Totals> {
  const pageTotals = (piece: Piece) => rollups(db, 'analytics_page_rollups', piece, filters).select([sums.views, sums.visitors, sums.engaged]).execute();
  const visitTotals = (piece: Piece) => rollups(db, 'analytics_visit_rollups', piece, filters).select(sums.visitors).execute();
  const [pages, visits] = await Promise.all([ofPieces(pieces, pageTotals), filters.page === undefined ? ofPieces(pieces, visitTotals) : Promise.resolve([])]);
  const add = (rows: readonly Record<string, unknown>[], column: string) => rows.reduce((sum, row) => sum + count(row[column]), 0);
  return {
    visitors: filters.page === undefined ? add(visits, 'visitors') : add(pages, 'visitors'),
    pageViews: add(pages, 'views'),
    engagedMs: add(pages, 'engaged'),
  };
}

interface Tally {
  visitors: number;
  pageViews: number;
  leads: number;
  won: number;
}

function tallyOf(tallies: Map<string, Tally>, key: string): Tally {
  let tally = tallies.get(key);
  if (!tally) {
    tally = { visitors: 0, pageViews: 0, leads: 0, won: 0 };
    tallies.set(key, tally);
  }
  return tally;
}

function addLead(tallies: Map<string, Tally>, key: string | null, lead: LeadFacts): void {
  if (key === null) return;
  const tally = tallyOf(tallies, key);
  tally.leads += 1;
  if (lead.won) tally.won += 1;
}

/** The most visited first, then the most leads, then by name; at most SITE_ANALYTICS_LIMITS.dashboardRows. */
function topRows(tallies: Map<string, Tally>, label: (key: string) => string = (key) => key): DashboardRow[] {
  return [...tallies.entries()]
    .sort(([keyA, a], [keyB, b]) => b.visitors - a.visitors || b.leads - a.leads || b.pageViews - a.pageViews || (keyA < keyB ? -1 : keyA > keyB ? 1 : 0))
    .slice(0, SITE_ANALYTICS_LIMITS.dashboardRows)
    .map(([key, tally]) => ({ key, label: label(key), ...tally, conversionRate: conversionRate(tally.leads, tally.visitors) }));
}

const POST_PREFIX = `${BLOG_LISTING_PATH}/`;
const isPost = (path: string) => matchPageRoute(path)?.pattern === PAGE_ROUTES.blogPost;

/** Posts' titles by their paths (`/blog/<id>`). */
async function postTitles(db: Db, paths: readonly string[]): Promise<Map<string, string>> {
  const ids = paths.map((path) => path.slice(POST_PREFIX.length));
  const numeric = ids.filter((id) => /^\d{1,15}$/.test(id)).map(Number);
  if (numeric.length === 0) return new Map();
  const rows = await db.kysely.selectFrom('blog_posts').select(['id', 'title']).where('id', 'in', numeric).execute();
  return new Map(rows.map((row) => [`${POST_PREFIX}${row.id}`, row.title]));
}

/**
 * The series' points, as instants they begin, and the rollup rows they are read from: each hour
 * of a single day, each Kyiv day of a period up to SITE_ANALYTICS_LIMITS.dailySeriesDaysMax, else
 * each Kyiv month (the first from the period's start).
 */
function seriesOf(range: DashboardRange): { grain: RollupGrain; starts: number[]; pieces: Piece[] } {
  const span = spanOf(range.from, range.to);
  if (range.days === 1) {
    const starts: number[] = [];
    for (let at = dayStart(range.from); at < dayEnd(range.to); at += 3_600_000) starts.push(toMinute(at));
    return { grain: 'hour', starts, pieces: [{ grain: 'hour', ...span }] };
  }
  const starts: number[] = [];
  if (range.days <= SITE_ANALYTICS_LIMITS.dailySeriesDaysMax) {
    for (let day = range.from, index = 0; index < range.days; day = nextKyivDay(day), index += 1) starts.push(toMinute(dayStart(day)));
    return { grain: 'day', starts, pieces: [{ grain: 'day', ...span }] };
  }
  for (let month = range.from; toMinute(dayStart(month)) < span.end; month = nextMonth(month)) starts.push(toMinute(dayStart(month)));
  return { grain: 'month', starts, pieces: piecesOf(range.from, range.to) };
}

/** The index of the point a minute falls in (starts ascending). */
function pointOf(starts: readonly number[], minute: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= minute) low = middle;
    else high = middle - 1;
  }
  return low;
}

export interface DashboardOptions {
  /** Whether the member asking gets the weekly e-mail. */
  weeklyReport: boolean;
}

export async function buildDashboard(db: Db, range: DashboardRange, { weeklyReport }: DashboardOptions): Promise<Dashboard> {
  const { filters } = range;
  const span = spanOf(range.from, range.to);
  const pieces = piecesOf(range.from, range.to);
  const previousPieces = piecesOf(range.previousFrom, range.previousTo);
  const series = seriesOf(range);
  const page = (piece: Piece) => rollups(db, 'analytics_page_rollups', piece, filters);
  const visit = (piece: Piece) => rollups(db, 'analytics_visit_rollups', piece, filters);
  // Visitors by source, campaign and device: of the visits, or of the one page asked for.
  const visitorsOf: (piece: Piece) => Rollups = filters.page === undefined ? visit : page;
  const [previousTotals, leads, previousLeads, pages, dimensionViews, dimensionVisitors, pointViews, pointVisitors, forms] = await Promise.all([
    totalsOf(db, previousPieces, filters),
    readLeads(db, span, filters),
    readLeads(db, spanOf(range.previousFrom, range.previousTo), filters),
    ofPieces(pieces, (piece) => page(piece).select(['path', sums.views, sums.visitors, sums.engaged]).groupBy('path').execute()),
    ofPieces(pieces, (piece) => page(piece).select(['source', 'campaign', 'device', sums.views]).groupBy(['source', 'campaign', 'device']).execute()),
    ofPieces(pieces, (piece) => visitorsOf(piece).select(['source', 'campaign', 'device', sums.visitors]).groupBy(['source', 'campaign', 'device']).execute()),
    ofPieces(series.pieces, (piece) => page(piece).select(['start', sums.views, sums.visitors]).groupBy('start').execute()),
    filters.page === undefined ? ofPieces(series.pieces, (piece) => visit(piece).select(['start', sums.visitors]).groupBy('start').execute()) : Promise.resolve([]),
    ofPieces(pieces, (piece) => rollups(db, 'analytics_form_rollups', piece, filters).select(['form', 'step', sums.visitors]).groupBy(['form', 'step']).execute()),
  ]);
  // The period's totals from the same rows as its tables.
  const totals: Totals = {
    visitors: dimensionVisitors.reduce((sum, row) => sum + count(row.visitors), 0),
    pageViews: pages.reduce((sum, row) => sum + count(row.views), 0),
    engagedMs: pages.reduce((sum, row) => sum + count(row.engaged), 0),
  };
  const { grain, starts } = series;

  const pageTallies = new Map<string, Tally>();
  for (const row of pages) {
    const tally = tallyOf(pageTallies, row.path);
    tally.pageViews += count(row.views);
    tally.visitors += count(row.visitors);
  }
  for (const lead of leads) addLead(pageTallies, lead.landingPath, lead);
  const postTallies = new Map([...pageTallies].filter(([path]) => isPost(path)));
  const titles = await postTitles(db, [...postTallies.keys()]);

  const sources = new Map<string, Tally>();
  const campaigns = new Map<string, Tally>();
  const devices = new Map<string, Tally>();
  for (const row of dimensionViews) {
    const views = count(row.views);
    tallyOf(sources, row.source).pageViews += views;
    tallyOf(campaigns, row.campaign).pageViews += views;
    tallyOf(devices, row.device).pageViews += views;
  }
  for (const row of dimensionVisitors) {
    const visitors = count(row.visitors);
    tallyOf(sources, row.source).visitors += visitors;
    tallyOf(campaigns, row.campaign).visitors += visitors;
    tallyOf(devices, row.device).visitors += visitors;
  }
  for (const lead of leads) {
    addLead(sources, lead.source, lead);
    addLead(campaigns, lead.campaign, lead);
    addLead(devices, lead.device, lead);
  }
  // Only the device classes the site counts: a lead's unknown device is in no row.
  for (const key of devices.keys()) if (!(DEVICE_CLASSES as readonly string[]).includes(key)) devices.delete(key);

  const points = starts.map((start) => ({ start: new Date(start * 60_000).toISOString(), visitors: 0, pageViews: 0, leads: 0, won: 0 }));
  for (const row of pointViews) {
    const point = points[pointOf(starts, Number(row.start))]!;
    point.pageViews += count(row.views);
    if (filters.page !== undefined) point.visitors += count(row.visitors);
  }
  for (const row of pointVisitors) points[pointOf(starts, Number(row.start))]!.visitors += count(row.visitors);
  for (const lead of leads) {
    const point = points[pointOf(starts, lead.minute)]!;
    point.leads += 1;
    if (lead.won) point.won += 1;
  }

  const funnels = LEAD_KINDS.map((form) => {
    const step = (name: string) => forms.filter((row) => row.form === form && row.step === name).reduce((sum, row) => sum + count(row.visitors), 0);
    const sent = leads.filter((lead) => lead.kind === form);
    return { form, seen: step('seen'), started: step('started'), sent: sent.length, won: sent.filter((lead) => lead.won).length };
  });

  return {
    period: range.period,
    from: kyivDayText(range.from),
    to: kyivDayText(range.to),
    previousFrom: kyivDayText(range.previousFrom),
    previousTo: kyivDayText(range.previousTo),
    filters,
    totals: figures(totals, leads),
    previous: figures(previousTotals, previousLeads),
    seriesGrain: grain,
    series: points,
    pages: topRows(pageTallies),
    posts: topRows(postTallies, (path) => titles.get(path) ?? path),
    sources: topRows(sources),
    campaigns: topRows(campaigns),
    devices: topRows(devices),
    funnels,
    weeklyReport,
  };
}
