import { canonicalPagePath, kyivDayOf, kyivDayText, kyivInstant, maskEmailAddresses, trafficSource, type DeviceClass, type LeadKind, type RollupGrain, type TelemetryBatch } from '@agency/shared';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../platform/db/connection';
import type { DatabaseSchema } from '../../platform/db/schema';
import { chunks } from '../../platform/lib/chunks';
import { toMinute } from '../../platform/lib/minutes';
import { singleFlight } from '../../platform/lib/single-flight';
import { DailySalt, visitorHash } from './daily-salt';

/**
 * Counts page views for the owner's dashboard: each beacon's views are kept in memory under the
 * visitor's hash of the day and written about once a second in one transaction, where the day's
 * first sight of a visitor, of a page by them, and of a form's step by them is decided by the
 * database (an insert that finds its row already there counts nothing), so any number of API
 * processes count each once. What is written are hourly, daily and monthly totals per page, source,
 * campaign and device (migration 0018); the hashes go with the day's salt.
 */

/** Views waiting for the database at most; past it they are counted as dropped. */
export const MAX_PENDING_VIEWS = 50_000;
/** Rows per statement: far below either database's limit on bound values. */
const ROWS_PER_STATEMENT = 100;

/** A page view as counted: by whom (the day's hash) and where from. */
interface PendingView {
  day: string;
  visitor: string;
  minute: number;
  path: string;
  source: string;
  campaign: string;
  device: DeviceClass;
  engagedMs: number;
  continued: boolean;
  formsSeen: readonly LeadKind[];
  formsStarted: readonly LeadKind[];
}

/** A lead sent today, waiting for its visitor's row to give it a device. */
interface PendingLead {
  kind: LeadKind;
  submissionId: number;
  day: string;
  visitor: string;
}

/** Who sent a beacon or a lead, as the hash needs it. */
export interface Sender {
  ip: string;
  userAgent: string;
}

type Trx = Transaction<DatabaseSchema>;

const HOUR_MINUTES = 60;
const visitorKey = (day: string, visitor: string) => `${day}\n${visitor}`;

/** The UTC hour, the Kyiv day and the Kyiv month a minute falls in, as the rollups' `start`. */
function startsOf(minute: number): { grain: RollupGrain; start: number }[] {
  const day = kyivDayOf(minute * 60_000);
  return [
    { grain: 'hour', start: Math.floor(minute / HOUR_MINUTES) * HOUR_MINUTES },
    { grain: 'day', start: toMinute(kyivInstant(day)) },
    { grain: 'month', start: toMinute(kyivInstant({ ...day, date: 1 })) },
  ];
}

/** What a rollup row is keyed by besides its grain and start: the dimensions every total has. */
interface Dimensions {
  source: string;
  campaign: string;
  device: string;
}

/** Totals keyed by their row, summed in memory before one upsert each. */
class Totals<Row extends object, Count extends string> {
  readonly rows = new Map<string, Row & Record<Count, number>>();

  add(row: Row, amounts: Record<Count, number>): void {
    const key = JSON.stringify(row);
    const total = this.rows.get(key);
    if (!total) {
      this.rows.set(key, { ...row, ...amounts });
      return;
    }
    for (const name of Object.keys(amounts) as Count[]) (total as Record<Count, number>)[name] += amounts[name];
  }
}

export class VisitRecorder {
  private views: PendingView[] = [];
  private leads: PendingLead[] = [];
  /** Views refused while the buffer was full. */
  dropped = 0;

  constructor(
    private readonly db: Database,
    private readonly salt: DailySalt,
    private readonly now: () => number,
    private readonly onWriteError: (error: unknown) => void,
  ) {}

  /** The Kyiv day now and the visitor `sender` is on it. */
  private async visitorOf(sender: Sender): Promise<{ day: string; visitor: string; minute: number }> {
    const now = this.now();
    const day = kyivDayText(kyivDayOf(now));
    return { day, visitor: visitorHash(await this.salt.forDay(day), sender.ip, sender.userAgent), minute: toMinute(now) };
  }

  /** Keeps the page views of a beacon that are to be counted (see counting-policy.ts for whose are). */
  async record(sender: Sender, batch: TelemetryBatch): Promise<void> {
    const views = (batch.page_views ?? []).flatMap((view) => (view.analytics ? [view.analytics] : []));
    if (views.length === 0) return;
    const { day, visitor, minute } = await this.visitorOf(sender);
    // The visit's source as the shell derived it (trafficSource); none said is "(not set)".
    const said = batch.session ?? trafficSource(undefined);
    const source = maskEmailAddresses(said.source);
    const campaign = maskEmailAddresses(said.campaign);
    for (const view of views) {
      const path = canonicalPagePath(view.path);
      if (path === undefined) continue;
      if (this.views.length >= MAX_PENDING_VIEWS) {
        this.dropped += 1;
        continue;
      }
      this.views.push({
        day,
        visitor,
        minute,
        path,
        source,
        campaign,
        device: view.device,
        engagedMs: view.engaged_ms,
        continued: view.continued === true,
        formsSeen: view.forms_seen ?? [],
        formsStarted: view.forms_started ?? [],
      });
    }
  }

  /** A lead was stored: it takes the device of its sender's visit of today, now or once that arrives. */
  async leadArrived(sender: Sender, lead: { kind: LeadKind; submissionId: number }): Promise<void> {
    const { day, visitor } = await this.visitorOf(sender);
    this.leads.push({ ...lead, day, visitor });
  }

  get pending(): number {
    return this.views.length + this.leads.length;
  }

  /** Writes what is pending in one transaction; one write at a time. */
  readonly flush = singleFlight(() => this.write());

  private async write(): Promise<void> {
    if (this.pending === 0) return;
    const { views, leads } = this;
    this.views = [];
    this.leads = [];
    try {
      await this.db.kysely.transaction().execute(async (trx) => {
        const arrived = await this.countVisitors(trx, views);
        const dimensions = await this.visitorDimensions(trx, views, arrived);
        const firsts = await this.firstSights(trx, views);
        await this.writeRollups(trx, views, arrived, dimensions, firsts);
        if (leads.length > 0 || arrived.size > 0) await this.giveLeadsDevices(trx, leads);
      });
    } catch (error) {
      // Kept for the next write, before what arrived meanwhile.
      this.views = [...views, ...this.views].slice(0, MAX_PENDING_VIEWS);
      this.leads = [...leads, ...this.leads];
      this.onWriteError(error);
    }
  }

  /** Inserts the day's new visitors (their first view's page, source and device): resolves to the keys of those new to the day. */
  private async countVisitors(trx: Trx, views: readonly PendingView[]): Promise<Map<string, PendingView>> {
    const firsts = new Map<string, PendingView>();
    for (const view of views) if (!firsts.has(visitorKey(view.day, view.visitor))) firsts.set(visitorKey(view.day, view.visitor), view);
    const arrived = new Map<string, PendingView>();
    for (const chunk of chunks([...firsts.values()], ROWS_PER_STATEMENT)) {
      const rows = await trx
        .insertInto('analytics_visitors')
        .values(chunk.map((view) => ({ day: view.day, visitor: view.visitor, entry_path: view.path, source: view.source, campaign: view.campaign, device: view.device })))
        .onConflict((conflict) => conflict.columns(['day', 'visitor']).doNothing())
        .returning(['day', 'visitor'])
        .execute();
      for (const row of rows) arrived.set(visitorKey(row.day, row.visitor), firsts.get(visitorKey(row.day, row.visitor))!);
    }
    return arrived;
  }

  /**
   * Each visitor's source, campaign and device for the day: their first view's, wherever it was
   * counted. Those who arrived in this write have theirs in `arrived`; the others are read.
   */
  private async visitorDimensions(trx: Trx, views: readonly PendingView[], arrived: ReadonlyMap<string, PendingView>): Promise<Map<string, Dimensions>> {
    const dimensions = new Map<string, Dimensions>();
    for (const [key, { source, campaign, device }] of arrived) dimensions.set(key, { source, campaign, device });
    const byDay = new Map<string, Set<string>>();
    for (const view of views) {
      if (dimensions.has(visitorKey(view.day, view.visitor))) continue;
      const visitors = byDay.get(view.day) ?? new Set<string>();
      visitors.add(view.visitor);
      byDay.set(view.day, visitors);
    }
    for (const [day, visitors] of byDay) {
      for (const chunk of chunks([...visitors], ROWS_PER_STATEMENT)) {
        const rows = await trx.selectFrom('analytics_visitors').select(['visitor', 'source', 'campaign', 'device']).where('day', '=', day).where('visitor', 'in', chunk).execute();
        for (const { visitor, ...row } of rows) dimensions.set(visitorKey(day, visitor), row);
      }
    }
    return dimensions;
  }

  /**
   * What each visitor is seen for the first time today: a page (`page <path>`), a form's step
   * (`<step> <form>`). Resolves to the view each new sight came with, by its key.
   */
  private async firstSights(trx: Trx, views: readonly PendingView[]): Promise<Map<string, { view: PendingView; item: string }>> {
    const wanted = new Map<string, { view: PendingView; item: string }>();
    const want = (view: PendingView, item: string) => {
      const key = `${visitorKey(view.day, view.visitor)}\n${item}`;
      if (!wanted.has(key)) wanted.set(key, { view, item });
    };
    for (const view of views) {
      if (!view.continued) want(view, `page ${view.path}`);
      // A form started is a form seen, even when it appeared after the page was reported.
      for (const form of new Set([...view.formsSeen, ...view.formsStarted])) want(view, `seen ${form}`);
      for (const form of view.formsStarted) want(view, `started ${form}`);
    }
    const firsts = new Map<string, { view: PendingView; item: string }>();
    for (const chunk of chunks([...wanted.values()], ROWS_PER_STATEMENT)) {
      const rows = await trx
        .insertInto('analytics_seen')
        .values(chunk.map(({ view, item }) => ({ day: view.day, visitor: view.visitor, item })))
        .onConflict((conflict) => conflict.columns(['day', 'visitor', 'item']).doNothing())
        .returning(['day', 'visitor', 'item'])
        .execute();
      for (const row of rows) {
        const key = `${visitorKey(row.day, row.visitor)}\n${row.item}`;
        firsts.set(key, wanted.get(key)!);
      }
    }
    return firsts;
  }

  private async writeRollups(
    trx: Trx,
    views: readonly PendingView[],
    arrived: ReadonlyMap<string, PendingView>,
    dimensions: ReadonlyMap<string, Dimensions>,
    firsts: ReadonlyMap<string, { view: PendingView; item: string }>,
  ): Promise<void> {
    const dimensionsOf = (view: PendingView): Dimensions => dimensions.get(visitorKey(view.day, view.visitor)) ?? { source: view.source, campaign: view.campaign, device: view.device };
    type Start = { grain: RollupGrain; start: number };
    const pages = new Totals<Start & Dimensions & { path: string }, 'views' | 'visitors' | 'engaged_ms'>();
    const visits = new Totals<Start & Dimensions & { entry_path: string }, 'visitors'>();
    const forms = new Totals<Start & Dimensions & { form: string; step: string; path: string }, 'visitors'>();
    const firstOfPage = new Set<PendingView>();
    for (const { view, item } of firsts.values()) if (item.startsWith('page ')) firstOfPage.add(view);
    for (const view of views) {
      for (const start of startsOf(view.minute)) {
        pages.add({ ...start, path: view.path, ...dimensionsOf(view) }, { views: view.continued ? 0 : 1, visitors: firstOfPage.has(view) ? 1 : 0, engaged_ms: view.engagedMs });
      }
    }
    for (const view of arrived.values()) {
      for (const start of startsOf(view.minute)) visits.add({ ...start, entry_path: view.path, ...dimensionsOf(view) }, { visitors: 1 });
    }
    for (const { view, item } of firsts.values()) {
      if (item.startsWith('page ')) continue;
      const [step, form] = item.split(' ') as [string, string];
      for (const start of startsOf(view.minute)) forms.add({ ...start, form, step, path: view.path, ...dimensionsOf(view) }, { visitors: 1 });
    }
    const dimensionColumns = ['grain', 'start', 'source', 'campaign', 'device'] as const;
    for (const chunk of chunks([...pages.rows.values()], ROWS_PER_STATEMENT)) {
      await trx
        .insertInto('analytics_page_rollups')
        .values(chunk)
        .onConflict((conflict) =>
          conflict.columns([...dimensionColumns, 'path']).doUpdateSet({
            views: sql`analytics_page_rollups.views + excluded.views`,
            visitors: sql`analytics_page_rollups.visitors + excluded.visitors`,
            engaged_ms: sql`analytics_page_rollups.engaged_ms + excluded.engaged_ms`,
          }),
        )
        .execute();
    }
    for (const chunk of chunks([...visits.rows.values()], ROWS_PER_STATEMENT)) {
      await trx
        .insertInto('analytics_visit_rollups')
        .values(chunk)
        .onConflict((conflict) => conflict.columns([...dimensionColumns, 'entry_path']).doUpdateSet({ visitors: sql`analytics_visit_rollups.visitors + excluded.visitors` }))
        .execute();
    }
    for (const chunk of chunks([...forms.rows.values()], ROWS_PER_STATEMENT)) {
      await trx
        .insertInto('analytics_form_rollups')
        .values(chunk)
        .onConflict((conflict) => conflict.columns([...dimensionColumns, 'form', 'step', 'path']).doUpdateSet({ visitors: sql`analytics_form_rollups.visitors + excluded.visitors` }))
        .execute();
    }
  }

  /** Leads whose visitor is now known get the visit's device; the rest wait (until the day's salt goes). */
  private async giveLeadsDevices(trx: Trx, leads: readonly PendingLead[]): Promise<void> {
    for (const chunk of chunks(leads, ROWS_PER_STATEMENT)) {
      await trx
        .insertInto('analytics_lead_visitors')
        .values(chunk.map(({ kind, submissionId, day, visitor }) => ({ kind, submission_id: submissionId, day, visitor })))
        .onConflict((conflict) => conflict.columns(['kind', 'submission_id']).doNothing())
        .execute();
    }
    // Driven by the few leads waiting, never by the leads table: each found gets its visit's device.
    const found = await trx
      .selectFrom('analytics_lead_visitors as waiting')
      .innerJoin('analytics_visitors as visitor', (join) => join.onRef('visitor.day', '=', 'waiting.day').onRef('visitor.visitor', '=', 'waiting.visitor'))
      .select(['waiting.kind', 'waiting.submission_id', 'visitor.device'])
      .execute();
    for (const { kind, submission_id, device } of found) {
      await trx
        .updateTable('leads')
        .set({ device })
        .where('kind', '=', kind as LeadKind)
        .where('submission_id', '=', submission_id)
        .where('device', 'is', null)
        .execute();
      await trx.deleteFrom('analytics_lead_visitors').where('kind', '=', kind).where('submission_id', '=', submission_id).execute();
    }
  }
}
