import type { FastifyBaseLogger } from 'fastify';
import { draftFields, publishingProblems, writeLiveVersion } from '../../site/content';
import type { Database, Db } from '../../platform/db/connection';
import { startSiteSchedule, type SiteSchedule } from '../../platform/scheduling/site-schedule';
import { recordAudit } from '../../platform/audit/audit-log';

/**
 * Scheduled articles go live within a minute of their time whether or not anyone is signed in,
 * once for the site however many API processes run: the process holding the lease checks every
 * SCHEDULE_CHECK_MS; when it dies, another takes the lease over once it lapses.
 */
export const SCHEDULE_CHECK_MS = 10_000;
const LEASE_NAME = 'article-schedule';
export const SCHEDULE_LEASE_TTL_MS = 3 * SCHEDULE_CHECK_MS;

export interface ScheduleReport {
  published: number[];
  /** Articles whose working copy was incomplete at their time: left unpublished, schedule cancelled. */
  cancelled: number[];
}

/** Publishes every article whose time has come (one transaction each, re-checked inside it). */
export async function publishDueArticles(database: Database, now: Date): Promise<ScheduleReport> {
  const report: ScheduleReport = { published: [], cancelled: [] };
  const due = await database.kysely.selectFrom('article_drafts').select(['post_id', 'publish_at']).where('publish_at', '<=', now.toISOString()).orderBy('publish_at').execute();
  for (const { post_id: postId, publish_at: publishAt } of due) {
    await database.kysely.transaction().execute(async (trx) => {
      const db: Db = { kysely: trx, dialect: database.dialect };
      const draft = await trx.selectFrom('article_drafts').selectAll().where('post_id', '=', postId).where('publish_at', '=', publishAt).executeTakeFirst();
      // Published, unscheduled or moved by an editor since the list above was read.
      if (!draft) return;
      const id = Number(postId);
      const complete = Object.keys(publishingProblems(draftFields(draft))).length === 0;
      if (complete) {
        await writeLiveVersion(db, { ...draft, post_id: id, version: Number(draft.version) }, now);
        report.published.push(id);
      } else {
        await trx.updateTable('article_drafts').set({ publish_at: null }).where('post_id', '=', id).execute();
        report.cancelled.push(id);
      }
      await recordAudit(trx, {
        actorId: null,
        actor: 'schedule',
        action: complete ? 'article-published' : 'article-schedule-cancelled',
        target: `article:${id}`,
        address: 'schedule',
        detail: { version: Number(draft.version), publishAt },
      }, now);
    });
  }
  return report;
}

export type ArticleSchedule = SiteSchedule<ScheduleReport>;

export function startArticleSchedule(db: Database, log: FastifyBaseLogger, { intervalMs = SCHEDULE_CHECK_MS, now = Date.now } = {}): ArticleSchedule {
  return startSiteSchedule(db, {
    lease: { name: LEASE_NAME, ttlMs: SCHEDULE_LEASE_TTL_MS },
    intervalMs,
    now,
    run: async () => {
      const report = await publishDueArticles(db, new Date(now()));
      if (report.published.length > 0) log.info({ articles: report.published }, 'scheduled articles published');
      if (report.cancelled.length > 0) log.warn({ articles: report.cancelled }, 'scheduled articles not published: their working copy is incomplete');
      return report;
    },
    onError: (error) => log.warn({ err: error }, 'article schedule check failed; tried again shortly'),
  });
}
