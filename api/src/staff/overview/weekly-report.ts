import { kyivDayOf, kyivDayText, kyivInstant, kyivWeekday, nextKyivDay, type KyivDay } from '@agency/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../../platform/db/connection';
import type { Clock } from '../../platform/lib/clock';
import { startSiteSchedule, type SiteSchedule } from '../../platform/scheduling/site-schedule';
import { enqueueWeeklyReport, type WeeklyReportMessage } from '../../site/leads';
import { buildDashboard } from './dashboard';
import { resolveRange } from './dashboard-range';
import { weeklyReportText } from './weekly-report-text';

/**
 * The weekly e-mail of the site's figures, to each admin who asked for it on «Огляд»
 * (staff_members.weekly_report; not removed members, admins only). A week runs Monday 00:00 to
 * Sunday 24:00 in Kyiv; its report is due on the next Monday at 09:00 Kyiv. Whichever API process
 * holds the lease checks every few minutes (STAFF_WEEKLY_REPORT_CHECK_SECONDS) on the app's clock:
 * once the latest week is due, it is marked in analytics_weekly_reports (one row per week: a
 * conflict means another process or run did it) and, only if this run marked it, one outbox row
 * per recipient is queued in the same transaction: once however many processes run.
 *
 * - Only the latest due week is ever sent: a report missed while every process was down is sent
 *   late (the week after), but weeks before it are not made up.
 * - No weeks before the first check: the first check on a database (no week marked yet) marks the
 *   week that ended last without sending it, so a new site (or one just upgraded) does not report
 *   a week it did not count; the first e-mail is the next week's.
 * - Without e-mail (SMTP_URL unset) nothing runs and nothing is marked; configuring it later counts
 *   as the first check: the next week that comes due is the first sent.
 */

const LEASE_NAME = 'weekly-report';
/** The report of a week is due at this Kyiv time of the Monday after it. */
const DUE_MINUTES = 9 * 60;
const WEEK_DAYS = 7;

/** The week that ended last (its Monday) at `now`, and the latest whose report is due. */
export function reportWeeks(now: number): { ended: KyivDay; due: KyivDay } {
  const today = kyivDayOf(now);
  const monday = nextKyivDay(today, -((kyivWeekday(today) + 6) % WEEK_DAYS));
  const ended = nextKyivDay(monday, -WEEK_DAYS);
  return { ended, due: now >= kyivInstant(monday, DUE_MINUTES) ? ended : nextKyivDay(ended, -WEEK_DAYS) };
}

export interface WeeklyReportOptions {
  now: Date;
  siteUrl: string;
}

/** What a check did: marked `week` (its Monday) and queued its e-mail to as many admins; `first` when it only marked the baseline. */
export type WeeklyReportRun = { week: string; recipients: number; first: boolean } | undefined;

async function markWeek(db: Db, week: string, now: Date): Promise<boolean> {
  const row = await db.kysely
    .insertInto('analytics_weekly_reports')
    .values({ week, queued_at: now.toISOString() })
    .onConflict((conflict) => conflict.column('week').doNothing())
    .returning('week')
    .executeTakeFirst();
  return row !== undefined;
}

/** Queues the latest due week's report, unless it was queued already; see the module's comment. */
export async function queueWeeklyReport(database: Db, { now, siteUrl }: WeeklyReportOptions): Promise<WeeklyReportRun> {
  const { ended, due } = reportWeeks(now.getTime());
  const marked = await database.kysely.selectFrom('analytics_weekly_reports').select('week').orderBy('week', 'desc').limit(1).executeTakeFirst();
  if (!marked) {
    const week = kyivDayText(ended);
    return (await markWeek(database, week, now)) ? { week, recipients: 0, first: true } : undefined;
  }
  const week = kyivDayText(due);
  if (marked.week >= week) return undefined;

  // Read before the transaction: SQLite's write lock is held for the inserts only.
  const range = resolveRange({ period: 'range', from: week, to: kyivDayText(nextKyivDay(due, WEEK_DAYS - 1)) }, now.getTime());
  const { subject, text } = weeklyReportText(await buildDashboard(database, range, { weeklyReport: false }), siteUrl);
  return database.kysely.transaction().execute(async (trx) => {
    const db: Db = { kysely: trx, dialect: database.dialect };
    if (!(await markWeek(db, week, now))) return undefined;
    const recipients = await trx
      .selectFrom('staff_members')
      .select(['id', 'email'])
      .where('role', '=', 'admin')
      .where('removed_at', 'is', null)
      .where('weekly_report', '=', 1)
      .orderBy('id')
      .execute();
    for (const member of recipients) {
      const memberId = Number(member.id);
      const message: WeeklyReportMessage = { event: 'report.weekly', idempotency_key: `weekly-report-${week}-${memberId}`, to: member.email, subject, text };
      // Due now by the system's clock, which the outbox sends by.
      await enqueueWeeklyReport(db, { week, memberId }, message);
    }
    return { week, recipients: recipients.length, first: false };
  });
}

export function startWeeklyReport(db: Database, log: FastifyBaseLogger, options: { intervalMs: number; siteUrl: string; clock: Clock }): SiteSchedule<WeeklyReportRun> {
  return startSiteSchedule(db, {
    lease: { name: LEASE_NAME, ttlMs: Math.max(30_000, 3 * options.intervalMs) },
    intervalMs: options.intervalMs,
    run: async () => {
      const run = await queueWeeklyReport(db, { now: options.clock.now(), siteUrl: options.siteUrl });
      if (run?.first) log.info({ week: run.week }, 'weekly report: the first check; weeks until this one are not reported');
      else if (run) log.info({ week: run.week, recipients: run.recipients }, 'weekly report queued');
      return run;
    },
    onError: (error) => log.warn({ err: error }, 'weekly report check failed; tried again shortly'),
  });
}
