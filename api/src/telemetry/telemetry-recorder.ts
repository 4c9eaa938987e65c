import { createHash } from 'node:crypto';
import { maskEmailAddresses, maskPersonalData, maskStack, type TelemetryBatch, type TelemetryError } from '@agency/shared';
import { sql, type Insertable } from 'kysely';
import type { Database } from '../db/connection';
import type { TelemetryErrorsTable, TelemetryMinutesTable, VisitSessionsTable } from '../db/schema';
import { bucketOf, VITAL_UNITS_PER_VALUE } from './histogram';
import { PAGE_VIEW_KIND, RENDER_FAILURE_KIND, toMinute } from './telemetry-kinds';

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
  private flushing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Rows refused while the buffer was full. */
  dropped = 0;

  constructor(
    private readonly db: Database,
    private readonly onFlushError: (error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

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
    return this.minutes.size + this.errors.size + this.sessions.size;
  }

  record(batch: TelemetryBatch): RecordedBatch {
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
      }
    }
    for (const error of batch.errors ?? []) {
      const { app, release, kind, page, count } = error;
      this.count({ minute, app, release, page, kind, bucket: -1, count });
      const message = maskPersonalData(error.message);
      const stack = maskStack(error.stack ?? '');
      const fingerprint = errorFingerprint({ kind, message, stack });
      const key = `${app}\n${release}\n${fingerprint}\n${minute}`;
      const pending = this.errors.get(key);
      if (pending) pending.count += count;
      else if (this.pendingRows < MAX_PENDING_ROWS) this.errors.set(key, { app, release, fingerprint, kind, page, message, stack, minute, count });
      else this.dropped += 1;
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
   * A server render of a page failed in `release` of `app`: counted with what browsers report, so
   * release health (and a canary's judge, in whichever process) sees it.
   */
  recordRenderFailure(app: string, release: string, page: string): void {
    this.count({ minute: toMinute(this.now()), app, release, page, kind: RENDER_FAILURE_KIND, bucket: -1, count: 1 });
  }

  /** Keeps a session's first report; a session already waiting stays as it was. */
  private keepSession(into: Map<string, VisitSessionsTable>, session: VisitSessionsTable): void {
    if (into.has(session.id)) return;
    if (this.pendingRows < MAX_PENDING_ROWS) into.set(session.id, session);
    else this.dropped += 1;
  }

  private count(row: MinuteRow): void {
    const key = `${row.app}\n${row.release}\n${row.minute}\n${row.page}\n${row.kind}\n${row.bucket}`;
    const pending = this.minutes.get(key);
    if (pending) pending.count += row.count;
    else if (this.pendingRows < MAX_PENDING_ROWS) this.minutes.set(key, row);
    else this.dropped += 1;
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
    const minutes = this.minutes;
    const errors = this.errors;
    const sessions = this.sessions;
    this.minutes = new Map();
    this.errors = new Map();
    this.sessions = new Map();
    try {
      await this.db.kysely.transaction().execute(async (trx) => {
        for (const rows of chunks([...minutes.values()])) {
          await yieldToRequests();
          await trx
            .insertInto('telemetry_minutes')
            .values(rows)
            .onConflict((conflict) =>
              conflict
                .columns(['app', 'release', 'minute', 'page', 'kind', 'bucket'])
                .doUpdateSet({ count: sql`telemetry_minutes.count + excluded.count` }),
            )
            .execute();
        }
        const samples = new Map<string, ErrorRow>();
        for (const row of errors.values()) samples.set(`${row.app}\n${row.release}\n${row.fingerprint}`, row);
        for (const rows of chunks([...samples.values()])) {
          await yieldToRequests();
          await trx
            .insertInto('telemetry_errors')
            .values(
              rows.map(({ app, release, fingerprint, kind, page, message, stack, minute }) => ({
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
            )
            .onConflict((conflict) =>
              conflict.columns(['app', 'release', 'fingerprint']).doUpdateSet({
                last_minute: sql`case when excluded.last_minute > telemetry_errors.last_minute then excluded.last_minute else telemetry_errors.last_minute end`,
              }),
            )
            .execute();
        }
        for (const rows of chunks([...errors.values()])) {
          await yieldToRequests();
          await trx
            .insertInto('telemetry_error_minutes')
            .values(rows.map(({ app, release, fingerprint, minute, count }) => ({ app, release, fingerprint, minute, count })))
            .onConflict((conflict) =>
              conflict
                .columns(['app', 'release', 'minute', 'fingerprint'])
                .doUpdateSet({ count: sql`telemetry_error_minutes.count + excluded.count` }),
            )
            .execute();
        }
        // A session reported before (by an earlier page load, or another API process) keeps its first row.
        for (const rows of chunks([...sessions.values()])) {
          await yieldToRequests();
          await trx
            .insertInto('visit_sessions')
            .values(rows)
            .onConflict((conflict) => conflict.column('id').doNothing())
            .execute();
        }
      });
    } catch (error) {
      // Kept for the next write, merged with what arrived meanwhile.
      for (const [key, row] of minutes) this.merge(this.minutes, key, row);
      for (const [key, row] of errors) this.merge(this.errors, key, row);
      for (const session of sessions.values()) this.keepSession(this.sessions, session);
      this.onFlushError(error);
    }
  }

  private merge<Row extends { count: number }>(into: Map<string, Row>, key: string, row: Row): void {
    const pending = into.get(key);
    if (pending) pending.count += row.count;
    else if (this.pendingRows < MAX_PENDING_ROWS) into.set(key, row);
    else this.dropped += 1;
  }
}

function chunks<T>(rows: T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) result.push(rows.slice(start, start + ROWS_PER_STATEMENT));
  return result;
}
