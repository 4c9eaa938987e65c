import { createHash } from 'node:crypto';
import { LOAD_ERROR_KINDS, maskEmailAddresses, maskPersonalData, maskStack, type TelemetryBatch, type TelemetryError } from '@agency/shared';
import { sql, type Insertable, type Transaction } from 'kysely';
import type { Database } from '../../platform/db/connection';
import type { DatabaseSchema, TelemetryClientsTable, TelemetryErrorsTable, TelemetryMinutesTable, VisitSessionsTable } from '../../platform/db/schema';
import { bucketOf, VITAL_UNITS_PER_VALUE } from './histogram';
import { TelemetryBudgetKeeper } from './telemetry-budget';
import { PAGE_VIEW_KIND, RENDER_FAILURE_KIND, SERVED_PAGE_KIND, type ClientEvidence } from './telemetry-kinds';
import { chunks } from '../../platform/lib/chunks';
import { toMinute } from '../../platform/lib/minutes';
import { TELEMETRY_BUDGET, type TelemetryBudget, type TelemetryTable } from '../../platform/config/telemetry';
import { ERROR_SAMPLES_PER_HOUR } from './telemetry-limits';

/** How often what browsers reported is written to the database. */
export const FLUSH_INTERVAL_MS = 1000;

/**
 * Rows waiting for the database at most. Reports are aggregates (a row per minute, app release,
 * page and kind), so this is only reached when the database has been away for long; what comes
 * beyond it is counted as dropped, never held without bound.
 */
export const MAX_PENDING_ROWS = 50_000;

/**
 * Rows per insert statement: well below SQLite's and PostgreSQL's limits on bound values, and
 * small enough that SQLite (synchronous in this process) holds requests back about a millisecond
 * at a time; the write lets waiting requests run between statements.
 */
const ROWS_PER_STATEMENT = 100;

/** Lets the requests that arrived meanwhile run (SQLite's statements block the event loop). */
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A per-minute count waiting for its upsert into telemetry_minutes. */
type MinuteRow = Omit<Insertable<TelemetryMinutesTable>, 'count'> & { count: number };

/** An error sample waiting for telemetry_errors, with the minute and count for telemetry_error_minutes. */
type ErrorRow = Omit<TelemetryErrorsTable, 'first_minute' | 'last_minute'> & { minute: number; count: number };

/** Why the recorder left something out: its buffer was full, or the release's new errors this hour were. */
export type RecorderDrop = 'buffer_full' | 'error_samples';

/**
 * Whose evidence a report or a page is, for a canary's judge: the client (its keyed identity) and
 * which app releases a canary judges now (only theirs keep their distinct clients).
 */
export interface Evidence {
  client: string;
  judged(app: string, release: string): boolean;
}

export interface RecorderOptions {
  budget?: TelemetryBudget;
  /** Counted rows or samples left out, by reason. */
  onDropped?(reason: RecorderDrop, count: number): void;
  /** Oldest rows a table lost to its budget. */
  onPruned?(table: TelemetryTable, deleted: number): void;
}

const MINUTES_PER_HOUR = 60;

/** The evidence an error of `kind` is of the release it was reported for. */
function errorEvidence(kind: string): ClientEvidence | undefined {
  if (kind === 'load_failure') return 'load_failure';
  return (LOAD_ERROR_KINDS as readonly string[]).includes(kind) ? undefined : 'error';
}

/** An error sample's key: one per app release and fingerprint. */
const sampleKey = ({ app, release, fingerprint }: Pick<ErrorRow, 'app' | 'release' | 'fingerprint'>) => `${app}\n${release}\n${fingerprint}`;

/** On an upsert into `table`: the later of the stored and the new `last_minute`. */
const laterLastMinute = (table: 'telemetry_errors' | 'telemetry_clients') =>
  sql<number>`case when excluded.last_minute > ${sql.ref(`${table}.last_minute`)} then excluded.last_minute else ${sql.ref(`${table}.last_minute`)} end`;

/** A distinct client of a judged release waiting for its upsert into telemetry_clients. */
type ClientRow = Omit<TelemetryClientsTable, 'count'> & { count: number };

/** What one beacon added, per app release: for the process's Prometheus counters. */
export interface RecordedBatch {
  pageViews: { app: string; release: string }[];
  errors: { app: string; release: string; kind: string; count: number }[];
}

/**
 * Where an error happened, for telling errors apart: the first `url:line:column` of its stack (a
 * minified bundle's position, the same for every visitor of one release).
 */
export function topFrame(stack: string): string {
  return /(?:https?:\/\/|\/)[^\s()]*:\d+:\d+/.exec(stack)?.[0] ?? '';
}

/** The same error in the same release, wherever and however often it happens, has one fingerprint. */
export function errorFingerprint(error: Pick<TelemetryError, 'kind' | 'message'> & { stack: string }): string {
  return createHash('sha256').update(`${error.kind}\n${error.message}\n${topFrame(error.stack)}`).digest('hex').slice(0, 16);
}

/**
 * Aggregates accepted beacons in memory and writes them to the database about once a second, as
 * per-minute counts (see migration 0007), so thousands of beacons a second cost a few upserts, and
 * each browser session's visit once (migration 0008). A failed write keeps its rows for the next one. Texts are masked again here: the browser's masking
 * is not trusted.
 */
export class TelemetryRecorder {
  private minutes = new Map<string, MinuteRow>();
  private errors = new Map<string, ErrorRow>();
  /** Browser sessions first seen since the last write, by id (a visit is counted once). */
  private sessions = new Map<string, VisitSessionsTable>();
  /** Distinct clients of judged releases seen since the last write, by app, release, evidence and client. */
  private clients = new Map<string, ClientRow>();
  private readonly budget: TelemetryBudgetKeeper;
  private flushing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Rows refused while the buffer was full. */
  dropped = 0;

  constructor(
    private readonly db: Database,
    private readonly onFlushError: (error: unknown) => void,
    private readonly now: () => number = Date.now,
    private readonly options: RecorderOptions = {},
  ) {
    this.budget = new TelemetryBudgetKeeper(db, options.budget ?? TELEMETRY_BUDGET, options.onPruned);
  }

  /** Counts every telemetry table and prunes one past its budget (other processes write too). */
  enforceBudget(): Promise<number> {
    return this.budget.enforce();
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), FLUSH_INTERVAL_MS).unref();
  }

  /** Stops the timer and writes what is pending. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  get pendingRows(): number {
    return this.minutes.size + this.errors.size + this.sessions.size + this.clients.size;
  }

  /**
   * Counts what a browser reported (already admitted: see report-admission.ts). With `evidence`,
   * the client is kept among the distinct clients of each judged release it reported errors,
   * load failures or LCP and INP of.
   */
  record(batch: TelemetryBatch, evidence?: Evidence): RecordedBatch {
    const minute = toMinute(this.now());
    const recorded: RecordedBatch = { pageViews: [], errors: [] };
    for (const view of batch.page_views ?? []) {
      for (const [app, release] of Object.entries(view.releases)) {
        this.count({ minute, app, release, page: view.page, kind: PAGE_VIEW_KIND, bucket: -1, count: 1 });
        recorded.pageViews.push({ app, release });
      }
    }
    for (const vital of batch.vitals ?? []) {
      const bucket = bucketOf(vital.value * VITAL_UNITS_PER_VALUE[vital.name]);
      for (const [app, release] of Object.entries(vital.releases)) {
        this.count({ minute, app, release, page: vital.page, kind: vital.name, bucket, count: 1 });
        if (vital.name === 'LCP' || vital.name === 'INP') this.keepClient(evidence, app, release, 'vitals', minute);
      }
    }
    for (const error of batch.errors ?? []) {
      const { app, release, kind, page, count } = error;
      this.count({ minute, app, release, page, kind, bucket: -1, count });
      const evidenceKind = errorEvidence(kind);
      if (evidenceKind) this.keepClient(evidence, app, release, evidenceKind, minute);
      const message = maskPersonalData(error.message);
      const stack = maskStack(error.stack ?? '');
      const fingerprint = errorFingerprint({ kind, message, stack });
      const key = `${app}\n${release}\n${fingerprint}\n${minute}`;
      const pending = this.errors.get(key);
      if (pending) pending.count += count;
      else if (this.pendingRows < MAX_PENDING_ROWS) this.errors.set(key, { app, release, fingerprint, kind, page, message, stack, minute, count });
      else this.drop('buffer_full');
      recorded.errors.push({ app, release, kind, count });
    }
    if (batch.session) {
      const { id, source, medium, campaign } = batch.session;
      const mask = maskEmailAddresses;
      this.keepSession(this.sessions, { id, first_minute: minute, source: mask(source), medium: mask(medium), campaign: mask(campaign) });
    }
    return recorded;
  }

  /**
   * The server sent a browser's navigation a page with these app releases on it (already admitted:
   * see report-admission.ts): counted as sent, and its client kept among the distinct clients of
   * each judged release on it.
   */
  recordServedPage(page: string, releases: Readonly<Record<string, string>>, evidence: Evidence): void {
    const minute = toMinute(this.now());
    for (const [app, release] of Object.entries(releases)) {
      this.count({ minute, app, release, page, kind: SERVED_PAGE_KIND, bucket: -1, count: 1 });
      this.keepClient(evidence, app, release, 'served', minute);
    }
  }

  /**
   * A server render of a page failed in `release` of `app`: counted with what browsers report, so
   * release health (and a canary's judge, in whichever process) sees it.
   */
  recordRenderFailure(app: string, release: string, page: string): void {
    this.count({ minute: toMinute(this.now()), app, release, page, kind: RENDER_FAILURE_KIND, bucket: -1, count: 1 });
  }

  private keepClient(evidence: Evidence | undefined, app: string, release: string, kind: ClientEvidence, minute: number): void {
    if (!evidence?.judged(app, release)) return;
    const key = `${app}\n${release}\n${kind}\n${evidence.client}`;
    const pending = this.clients.get(key);
    if (pending) {
      pending.count += 1;
      pending.last_minute = Math.max(pending.last_minute, minute);
    } else if (this.pendingRows < MAX_PENDING_ROWS) this.clients.set(key, { app, release, kind, client: evidence.client, count: 1, last_minute: minute });
    else this.drop('buffer_full');
  }

  private drop(reason: RecorderDrop, count = 1): void {
    if (reason === 'buffer_full') this.dropped += count;
    this.options.onDropped?.(reason, count);
  }

  /** Keeps a session's first report; a session already waiting stays as it was. */
  private keepSession(into: Map<string, VisitSessionsTable>, session: VisitSessionsTable): void {
    if (into.has(session.id)) return;
    if (this.pendingRows < MAX_PENDING_ROWS) into.set(session.id, session);
    else this.drop('buffer_full');
  }

  private count(row: MinuteRow): void {
    const key = `${row.app}\n${row.release}\n${row.minute}\n${row.page}\n${row.kind}\n${row.bucket}`;
    const pending = this.minutes.get(key);
    if (pending) pending.count += row.count;
    else if (this.pendingRows < MAX_PENDING_ROWS) this.minutes.set(key, row);
    else this.drop('buffer_full');
  }

  /** Writes what is pending in one transaction; one write at a time. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.pendingRows === 0) return;
    const { minutes, errors, sessions, clients } = this;
    this.minutes = new Map();
    this.errors = new Map();
    this.sessions = new Map();
    this.clients = new Map();
    let refusedSamples = 0;
    try {
      await this.db.kysely.transaction().execute(async (trx) => {
        await this.insert(trx, 'telemetry_minutes', [...minutes.values()], (rows) =>
          trx
            .insertInto('telemetry_minutes')
            .values(rows)
            .onConflict((conflict) =>
              conflict
                .columns(['app', 'release', 'minute', 'page', 'kind', 'bucket'])
                .doUpdateSet({ count: sql`telemetry_minutes.count + excluded.count` }),
            )
            .execute(),
        );
        const samples = new Map<string, ErrorRow>();
        for (const row of errors.values()) samples.set(sampleKey(row), row);
        const refused = await this.refusedSamples(trx, [...samples.values()]);
        refusedSamples = refused.size;
        const kept = (row: ErrorRow) => !refused.has(sampleKey(row));
        await this.insert(
          trx,
          'telemetry_errors',
          [...samples.values()].filter(kept).map(({ app, release, fingerprint, kind, page, message, stack, minute }) => ({
            app,
            release,
            fingerprint,
            kind,
            page,
            message,
            stack,
            first_minute: minute,
            last_minute: minute,
          })),
          (rows) =>
            trx
              .insertInto('telemetry_errors')
              .values(rows)
              .onConflict((conflict) =>
                conflict.columns(['app', 'release', 'fingerprint']).doUpdateSet({
                  last_minute: laterLastMinute('telemetry_errors'),
                }),
              )
              .execute(),
        );
        const errorMinutes = [...errors.values()].filter(kept).map(({ app, release, fingerprint, minute, count }) => ({ app, release, fingerprint, minute, count }));
        await this.insert(trx, 'telemetry_error_minutes', errorMinutes, (rows) =>
          trx
            .insertInto('telemetry_error_minutes')
            .values(rows)
            .onConflict((conflict) =>
              conflict.columns(['app', 'release', 'minute', 'fingerprint']).doUpdateSet({ count: sql`telemetry_error_minutes.count + excluded.count` }),
            )
            .execute(),
        );
        // A session reported before (by an earlier page load, or another API process) keeps its first row.
        await this.insert(trx, 'visit_sessions', [...sessions.values()], (rows) =>
          trx
            .insertInto('visit_sessions')
            .values(rows)
            .onConflict((conflict) => conflict.column('id').doNothing())
            .execute(),
        );
        await this.insert(trx, 'telemetry_clients', [...clients.values()], (rows) =>
          trx
            .insertInto('telemetry_clients')
            .values(rows)
            .onConflict((conflict) =>
              conflict.columns(['app', 'release', 'kind', 'client']).doUpdateSet({
                count: sql`telemetry_clients.count + excluded.count`,
                last_minute: laterLastMinute('telemetry_clients'),
              }),
            )
            .execute(),
        );
      });
      // Counted once written: a failed write tries them all again.
      if (refusedSamples > 0) this.drop('error_samples', refusedSamples);
    } catch (error) {
      // Kept for the next write, merged with what arrived meanwhile.
      for (const [key, row] of minutes) this.merge(this.minutes, key, row);
      for (const [key, row] of errors) this.merge(this.errors, key, row);
      for (const session of sessions.values()) this.keepSession(this.sessions, session);
      for (const [key, row] of clients) this.merge(this.clients, key, row);
      this.onFlushError(error);
    }
  }

  /**
   * Writes `rows` into `table` in statements of ROWS_PER_STATEMENT, letting waiting requests run
   * between them, then keeps the table within its budget.
   */
  private async insert<Row>(trx: Transaction<DatabaseSchema>, table: TelemetryTable, rows: Row[], write: (chunk: Row[]) => Promise<unknown>): Promise<void> {
    if (rows.length === 0) return;
    for (const chunk of chunks(rows, ROWS_PER_STATEMENT)) {
      await yieldToRequests();
      await write(chunk);
    }
    await this.budget.added(trx, table, rows.length);
  }

  /**
   * The samples of errors new to their release that are past ERROR_SAMPLES_PER_HOUR: those are
   * counted (telemetry_minutes has them by kind) but not stored, so made-up messages cannot fill
   * the database. Keyed by app, release and fingerprint.
   */
  private async refusedSamples(trx: Transaction<DatabaseSchema>, samples: ErrorRow[]): Promise<Set<string>> {
    const refused = new Set<string>();
    const byRelease = new Map<string, ErrorRow[]>();
    for (const sample of samples) {
      const key = `${sample.app}\n${sample.release}`;
      const group = byRelease.get(key);
      if (group) group.push(sample);
      else byRelease.set(key, [sample]);
    }
    const hourStart = Math.floor(toMinute(this.now()) / MINUTES_PER_HOUR) * MINUTES_PER_HOUR;
    for (const group of byRelease.values()) {
      const { app, release } = group[0]!;
      const stored = new Set<string>();
      for (const chunk of chunks(group, ROWS_PER_STATEMENT)) {
        const rows = await trx
          .selectFrom('telemetry_errors')
          .select('fingerprint')
          .where('app', '=', app)
          .where('release', '=', release)
          .where('fingerprint', 'in', chunk.map((sample) => sample.fingerprint))
          .execute();
        for (const row of rows) stored.add(row.fingerprint);
      }
      const fresh = group.filter((sample) => !stored.has(sample.fingerprint));
      if (fresh.length === 0) continue;
      const thisHour = await trx
        .selectFrom('telemetry_errors')
        .select(sql<number | string>`count(*)`.as('samples'))
        .where('app', '=', app)
        .where('release', '=', release)
        .where('first_minute', '>=', hourStart)
        .executeTakeFirstOrThrow();
      const room = Math.max(0, ERROR_SAMPLES_PER_HOUR - this.db.dialect.readCount(thisHour.samples));
      for (const sample of fresh.slice(room)) refused.add(sampleKey(sample));
    }
    return refused;
  }

  private merge<Row extends { count: number }>(into: Map<string, Row>, key: string, row: Row): void {
    const pending = into.get(key);
    if (pending) pending.count += row.count;
    else if (this.pendingRows < MAX_PENDING_ROWS) into.set(key, row);
    else this.drop('buffer_full');
  }
}
