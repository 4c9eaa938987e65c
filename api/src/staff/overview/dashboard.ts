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

type Grain = 'hour' | 'day';

/** Minutes since the epoch, [start, end). */
interface Span {
  start: number;
  end: number;
}

const spanOf = (from: KyivDay, to: KyivDay): Span => ({ start: toMinute(dayStart(from)), end: toMinute(dayEnd(to)) });

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

/** Page views, visitors of the page and time on it, per page, or per source, campaign and device, or per period start. */
function pageRollups(db: Db, grain: Grain, span: Span, filters: DashboardFilters) {
  return db.kysely
    .selectFrom('analytics_page_rollups')
    .where('grain', '=', grain)
    .where('start', '>=', span.start)
    .where('start', '<', span.end)
    .$if(filters.page !== undefined, (query) => query.where('path', '=', filters.page!))
    .$if(filters.source !== undefined, (query) => query.where('source', '=', filters.source!))
    .$if(filters.campaign !== undefined, (query) => query.where('campaign', '=', filters.campaign!))
    .$if(filters.device !== undefined, (query) => query.where('device', '=', filters.device!));
}

function visitRollups(db: Db, grain: Grain, span: Span, filters: DashboardFilters) {
  return db.kysely
    .selectFrom('analytics_visit_rollups')
    .where('grain', '=', grain)
    .where('start', '>=', span.start)
    .where('start', '<', span.end)
    .$if(filters.source !== undefined, (query) => query.where('source', '=', filters.source!))
    .$if(filters.campaign !== undefined, (query) => query.where('campaign', '=', filters.campaign!))
    .$if(filters.device !== undefined, (query) => query.where('device', '=', filters.device!));
}

const sums = {
  views: sql<unknown>`sum(views)`.as('views'),
  visitors: sql<unknown>`sum(visitors)`.as('visitors'),
  engaged: sql<unknown>`sum(engaged_ms)`.as('engaged'),
};

/** Visitors, page views and time of a span: visits from their own totals, unless one page is asked for. */
async function totalsOf(db: Db, span: Span, filters: DashboardFilters): Promise<Totals> {
  const [pages, visits] = await Promise.all([
    pageRollups(db, 'day', span, filters).select([sums.views, sums.visitors, sums.engaged]).executeTakeFirst(),
    filters.page === undefined ? visitRollups(db, 'day', span, filters).select(sums.visitors).executeTakeFirst() : undefined,
  ]);
  return {
    visitors: count(filters.page === undefined ? visits?.visitors : pages?.visitors),
    pageViews: count(pages?.views),
    engagedMs: count(pages?.engaged),
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

/** The instants the series' points begin: each hour of a single day, else each Kyiv day. */
function seriesStarts(range: DashboardRange): { grain: Grain; starts: number[] } {
  if (range.days === 1) {
    const starts: number[] = [];
    for (let at = dayStart(range.from); at < dayEnd(range.to); at += 3_600_000) starts.push(toMinute(at));
    return { grain: 'hour', starts };
  }
  const starts: number[] = [];
  for (let day = range.from, index = 0; index < range.days; day = nextKyivDay(day), index += 1) starts.push(toMinute(dayStart(day)));
  return { grain: 'day', starts };
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
  const previousSpan = spanOf(range.previousFrom, range.previousTo);
  const { grain, starts } = seriesStarts(range);
  const [totals, previousTotals, leads, previousLeads, pages, dimensionViews, dimensionVisitors, pointViews, pointVisitors, forms] = await Promise.all([
    totalsOf(db, span, filters),
    totalsOf(db, previousSpan, filters),
    readLeads(db, span, filters),
    readLeads(db, previousSpan, filters),
    pageRollups(db, 'day', span, filters).select(['path', sums.views, sums.visitors]).groupBy('path').execute(),
    pageRollups(db, 'day', span, filters).select(['source', 'campaign', 'device', sums.views]).groupBy(['source', 'campaign', 'device']).execute(),
    filters.page === undefined
      ? visitRollups(db, 'day', span, filters).select(['source', 'campaign', 'device', sums.visitors]).groupBy(['source', 'campaign', 'device']).execute()
      : pageRollups(db, 'day', span, filters).select(['source', 'campaign', 'device', sums.visitors]).groupBy(['source', 'campaign', 'device']).execute(),
    pageRollups(db, grain, span, filters).select(['start', sums.views, sums.visitors]).groupBy('start').execute(),
    filters.page === undefined ? visitRollups(db, grain, span, filters).select(['start', sums.visitors]).groupBy('start').execute() : undefined,
    db.kysely
      .selectFrom('analytics_form_rollups')
      .select(['form', 'step', sums.visitors])
      .where('grain', '=', 'day')
      .where('start', '>=', span.start)
      .where('start', '<', span.end)
      .$if(filters.page !== undefined, (query) => query.where('path', '=', filters.page!))
      .$if(filters.source !== undefined, (query) => query.where('source', '=', filters.source!))
      .$if(filters.campaign !== undefined, (query) => query.where('campaign', '=', filters.campaign!))
      .$if(filters.device !== undefined, (query) => query.where('device', '=', filters.device!))
      .groupBy(['form', 'step'])
      .execute(),
  ]);

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

  const series = starts.map((start) => ({ start: new Date(start * 60_000).toISOString(), visitors: 0, pageViews: 0, leads: 0, won: 0 }));
  for (const row of pointViews) {
    const point = series[pointOf(starts, Number(row.start))]!;
    point.pageViews += count(row.views);
    if (filters.page !== undefined) point.visitors += count(row.visitors);
  }
  for (const row of pointVisitors ?? []) series[pointOf(starts, Number(row.start))]!.visitors += count(row.visitors);
  for (const lead of leads) {
    const point = series[pointOf(starts, lead.minute)]!;
    point.leads += 1;
    if (lead.won) point.won += 1;
  }

  const funnels = LEAD_KINDS.map((form) => {
    const step = (name: string) => count(forms.find((row) => row.form === form && row.step === name)?.visitors);
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
    series,
    pages: topRows(pageTallies),
    posts: topRows(postTallies, (path) => titles.get(path) ?? path),
    sources: topRows(sources),
    campaigns: topRows(campaigns),
    devices: topRows(devices),
    funnels,
    weeklyReport,
  };
}
