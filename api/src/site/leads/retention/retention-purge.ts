import { LEAD_RETENTION, NOTIFICATION_COPY_RETENTION_DAYS } from '@agency/shared';
import type { Kysely } from 'kysely';
import type { Db } from '../../../platform/db/connection';
import type { DatabaseSchema } from '../../../platform/db/schema';
import { daysBefore, monthsBefore } from '../../../platform/lib/calendar';
import { addRemoved, removeLeads, type LeadRef, type RemovedRows } from './lead-removal';

/**
 * The privacy page's retention periods, applied: leads past theirs are deleted with everything
 * that hangs off them, and notification copies of delivered (or given-up) leads lose their
 * personal fields. The periods come from LEAD_RETENTION and NOTIFICATION_COPY_RETENTION_DAYS,
 * which the page renders its sentences from.
 *
 * Work goes in small batches, each its own short transaction, with a pause between them: the
 * purge never holds the database long enough to keep a visitor's submission waiting. A batch's
 * cost depends on the database and the size of its search index (SQLite's secure deletes rewrite
 * index pages), so the batch size follows the time the last batch took.
 */

/** Which retention rule removes a lead. */
export const RETENTION_RULES = ['spam', 'contact', 'applications'] as const;
export type RetentionRule = (typeof RETENTION_RULES)[number];

export interface PurgeReport {
  /** Leads removed (or, in a dry run, due for removal), by rule. */
  leads: Record<RetentionRule, number>;
  /** Notification copies whose personal fields were (or are due to be) removed. */
  notificationCopies: number;
  /** Rows deleted, by table (empty in a dry run). */
  rows: RemovedRows;
  /** Transactions run, and the longest one's time in ms: how long the purge held the database at most. */
  batches: number;
  longestBatchMs: number;
}

export interface PurgeOptions {
  now?: Date;
  /** The most leads or copies per transaction; fewer when batches take longer than BATCH_TARGET_MS. */
  batchSize?: number;
  /** Count what would be removed, change nothing. */
  dryRun?: boolean;
  /** Asked between batches: false stops the purge there (the lease was lost, the process is closing). */
  carryOn?: () => Promise<boolean>;
}

/** The most rows one batch takes on (docs/performance.md, "Retention"). */
export const PURGE_BATCH_SIZE = 100;
/**
 * How long one batch's transaction should hold the database: a submission waiting behind it stays
 * well inside the 100 ms a visitor may wait.
 */
export const BATCH_TARGET_MS = 40;
/** The first batch's size: small, as nothing is known yet of how long a row takes. */
const FIRST_BATCH_SIZE = 10;
/** The pause between batches, so writers waiting for the database get it. */
const PAUSE_BETWEEN_BATCHES_MS = 5;

interface Cutoffs {
  spam: string;
  contact: string;
  applications: string;
  notificationCopies: Date;
}

export function retentionCutoffs(now: Date): Cutoffs {
  const at = now.getTime();
  return {
    spam: new Date(daysBefore(at, LEAD_RETENTION.spamDays)).toISOString(),
    contact: new Date(monthsBefore(at, LEAD_RETENTION.contactMonths)).toISOString(),
    applications: new Date(monthsBefore(at, LEAD_RETENTION.applicationMonths)).toISOString(),
    notificationCopies: new Date(daysBefore(at, NOTIFICATION_COPY_RETENTION_DAYS)),
  };
}

/** The leads a rule removes: past its period since their last activity. */
function expiredLeads(kysely: Kysely<DatabaseSchema>, rule: RetentionRule, cutoffs: Cutoffs) {
  const query = kysely.selectFrom('leads').where('last_activity_at', '<', cutoffs[rule]);
  if (rule === 'spam') return query.where('status', '=', 'spam');
  // A contact message that won a contract is kept until a person erases it.
  if (rule === 'contact') return query.where('kind', '=', 'contact').where('status', 'not in', ['spam', 'won']);
  return query.where('kind', '=', 'applications').where('status', '!=', 'spam');
}

/** Delivered rows, and given-up ones (counted from their last try), whose copy still holds the lead. */
function expiredCopies(db: Db, kysely: Kysely<DatabaseSchema>, cutoff: Date) {
  const before = db.dialect.timestamp(cutoff);
  return kysely
    .selectFrom('lead_outbox')
    // Every copy that holds a person's data: the lead's own, the visitor's reply, an overdue alert.
    .where('event', '!=', 'lead.erased')
    .where('payload_removed_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'delivered'), eb('delivered_at', '<', before)]),
        eb.and([eb('status', '=', 'failed'), eb('next_attempt_at', '<', before)]),
      ]),
    );
}

/**
 * A transaction for one batch. SQLite: BEGIN IMMEDIATE, so the batch never fails upgrading its
 * lock. PostgreSQL: the batch's rows are locked as read (FOR UPDATE, skipping rows someone is
 * changing), so a lead worked on meanwhile is judged again by the next run.
 */
function batchTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  if (db.dialect.name === 'sqlite') return db.dialect.withWriteLock(db.kysely, (trx) => work({ kysely: trx, dialect: db.dialect }));
  return db.kysely.transaction().execute((trx) => work({ kysely: trx, dialect: db.dialect }));
}

const pause = () => new Promise((resolve) => setTimeout(resolve, PAUSE_BETWEEN_BATCHES_MS));

/**
 * Batch sizes that keep each batch near BATCH_TARGET_MS: starting small, scaled by how long the
 * last one took (never more than doubled, so one quick batch does not start a slow one), between
 * 1 and `most`.
 */
export class BatchSizer {
  private size: number;
  batches = 0;
  longestMs = 0;

  constructor(
    private readonly most: number,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.size = Math.min(most, FIRST_BATCH_SIZE);
  }

  get next(): number {
    return this.size;
  }

  /** Runs and times one batch of `next` rows; `more` when it was full, so rows may be left. */
  async run(batch: (size: number) => Promise<number>): Promise<{ count: number; more: boolean }> {
    const size = this.size;
    const started = this.clock();
    const count = await batch(size);
    const took = Math.max(this.clock() - started, 1);
    this.batches += 1;
    this.longestMs = Math.max(this.longestMs, took);
    this.size = Math.max(1, Math.min(this.most, size * 2, Math.floor((size * BATCH_TARGET_MS) / took)));
    return { count, more: count === size };
  }
}

/** The copy of a lead a delivery keeps once its personal fields are gone: what names the lead. */
function namingFields(payload: string): string {
  const lead = JSON.parse(payload) as Record<string, unknown>;
  if (typeof lead.event === 'string') return JSON.stringify({ event: lead.event, idempotency_key: lead.idempotency_key });
  return JSON.stringify({ kind: lead.kind, id: lead.id, idempotency_key: lead.idempotency_key, created_at: lead.created_at });
}

/** Runs the retention rules once; see the module's comment. */
export async function purgeExpired(db: Db, options: PurgeOptions = {}): Promise<PurgeReport> {
  const { now = new Date(), batchSize = PURGE_BATCH_SIZE, dryRun = false, carryOn } = options;
  const cutoffs = retentionCutoffs(now);
  const report: PurgeReport = { leads: { spam: 0, contact: 0, applications: 0 }, notificationCopies: 0, rows: {}, batches: 0, longestBatchMs: 0 };

  if (dryRun) {
    for (const rule of RETENTION_RULES) {
      const row = await expiredLeads(db.kysely, rule, cutoffs).select((eb) => eb.fn.countAll().as('count')).executeTakeFirst();
      report.leads[rule] = db.dialect.readCount(row?.count ?? 0);
    }
    // Copies of leads removed above are deleted with them, not cut.
    const copies = await expiredCopies(db, db.kysely, cutoffs.notificationCopies).select((eb) => eb.fn.countAll().as('count')).executeTakeFirst();
    report.notificationCopies = db.dialect.readCount(copies?.count ?? 0);
    return report;
  }

  const sizer = new BatchSizer(batchSize);
  let stopped = false;
  /**
   * Runs `batch`, each in its own transaction with a pause after it, until one is not full or the
   * purge must stop (which also skips what comes after); the rows done.
   */
  const inBatches = async (batch: (trx: Db, size: number) => Promise<number>) => {
    let total = 0;
    while (!stopped) {
      const { count, more } = await sizer.run((size) => batchTransaction(db, (trx) => batch(trx, size)));
      total += count;
      if (!more) break;
      await pause();
      stopped = carryOn ? !(await carryOn()) : false;
    }
    return total;
  };

  for (const rule of RETENTION_RULES) {
    report.leads[rule] = await inBatches(async (trx, size) => {
      let query = expiredLeads(trx.kysely, rule, cutoffs).select(['id', 'kind', 'submission_id']).orderBy('last_activity_at').limit(size);
      if (trx.dialect.skipLocked) query = query.forUpdate().skipLocked();
      const leads: LeadRef[] = (await query.execute()).map((lead) => ({ id: Number(lead.id), kind: lead.kind, submission_id: Number(lead.submission_id) }));
      addRemoved(report.rows, await removeLeads(trx, leads));
      return leads.length;
    });
  }

  report.notificationCopies = await inBatches(async (trx, size) => {
    let query = expiredCopies(trx, trx.kysely, cutoffs.notificationCopies).select(['id', 'payload']).orderBy('id').limit(size);
    if (trx.dialect.skipLocked) query = query.forUpdate().skipLocked();
    const rows = await query.execute();
    const removedAt = now.toISOString();
    for (const row of rows) {
      await trx.kysely.updateTable('lead_outbox').set({ payload: namingFields(row.payload), payload_removed_at: removedAt }).where('id', '=', row.id).execute();
    }
    return rows.length;
  });
  report.batches = sizer.batches;
  report.longestBatchMs = Math.round(sizer.longestMs * 10) / 10;
  return report;
}
