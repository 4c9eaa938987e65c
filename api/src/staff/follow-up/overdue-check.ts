import { ALERT_CHANNEL, formatWorkingMinutes, STAFF_PATHS, workingMsBetween } from '@agency/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../../platform/db/connection';
import type { Clock } from '../../platform/lib/clock';
import { startSiteSchedule, type SiteSchedule } from '../../platform/scheduling/site-schedule';
import { enqueueNotice, kyivTime, type LeadFollowUp, type LeadOverdueMessage } from '../../site/leads';
import { findLeadRows, leadSummaries } from '../inbox/inbox-repository';

/**
 * Leads waiting past the response target: each is marked overdue (the inbox flags it) and, once,
 * its assignee (in their own Telegram chat, else the team's) is told, by whichever API process
 * holds the check's lease. A lead is overdue when it has no first response and has waited the
 * target in working hours; marking it and queuing its alert is one transaction, so the alert is
 * sent once however many processes run.
 */

const LEASE_NAME = 'lead-overdue-check';
/** A lead older than this is never a candidate: a target is at most a working week, well inside it. */
const CANDIDATE_WINDOW_MS = 30 * 86_400_000;
const CANDIDATES_MAX = 1_000;

export interface OverdueCheckOptions {
  now: Date;
  targetMinutes: number;
  /** Whether alerts can be sent (Telegram is configured): leads are marked overdue either way. */
  telegram: boolean;
  siteUrl: string;
}

function alertText(lead: { leadId: number; submissionId: number; name: string; subject: string; receivedAt: string; assignee: string | null }, waited: number, options: OverdueCheckOptions): string {
  const url = new URL(`${STAFF_PATHS.home}/leads/${lead.leadId}`, options.siteUrl).toString();
  return [
    `⏰ Заявка №${lead.submissionId} чекає на відповідь ${formatWorkingMinutes(waited)} робочого часу (ціль: ${formatWorkingMinutes(options.targetMinutes)})`,
    '',
    `Імʼя: ${lead.name}`,
    ...(lead.subject ? [`Тема: ${lead.subject}`] : []),
    `Отримано: ${kyivTime(lead.receivedAt)}`,
    `Відповідальний: ${lead.assignee ?? 'не призначено'}`,
    '',
    url,
  ].join('\n');
}

/** Marks the leads past the target overdue and queues their alerts; resolves to their ids. */
export async function checkOverdueLeads(database: Database, options: OverdueCheckOptions): Promise<number[]> {
  const { now, targetMinutes } = options;
  const targetMs = targetMinutes * 60_000;
  const candidates = await database.kysely
    .selectFrom('leads')
    .leftJoin('staff_members', 'staff_members.id', 'leads.assignee_id')
    .select(['leads.id', 'leads.kind', 'leads.submission_id', 'leads.received_at', 'staff_members.telegram_chat_id'])
    .where('leads.first_response_at', 'is', null)
    .where('leads.overdue_at', 'is', null)
    .where('leads.status', '=', 'new')
    // Working time never runs faster than the clock: younger leads cannot be overdue yet.
    .where('leads.received_at', '<=', new Date(now.getTime() - targetMs).toISOString())
    .where('leads.received_at', '>=', new Date(now.getTime() - CANDIDATE_WINDOW_MS).toISOString())
    .orderBy('leads.id')
    .limit(CANDIDATES_MAX)
    .execute();
  const due = candidates
    .map((lead) => ({ ...lead, waited: Math.floor(workingMsBetween(new Date(lead.received_at), now) / 60_000) }))
    .filter((lead) => lead.waited >= targetMinutes);
  if (due.length === 0) return [];
  // Name, subject and assignee as the inbox shows them, for the alerts: read at once.
  const rows = options.telegram ? await findLeadRows(database, (query) => query.where('leads.id', 'in', due.map((lead) => Number(lead.id)))) : [];
  const summaries = new Map((await leadSummaries(database, rows, now)).map((summary) => [summary.id, summary]));
  const marked: number[] = [];
  for (const lead of due) {
    const { waited } = lead;
    const leadId = Number(lead.id);
    const submissionId = Number(lead.submission_id);
    await database.kysely.transaction().execute(async (trx) => {
      const db: Db = { kysely: trx, dialect: database.dialect };
      const result = await trx
        .updateTable('leads')
        .set({ overdue_at: now.toISOString() })
        .where('id', '=', leadId)
        .where('overdue_at', 'is', null)
        .where('first_response_at', 'is', null)
        .where('status', '=', 'new')
        .executeTakeFirst();
      // Answered, or marked by another process, since the list above was read.
      if (Number(result.numUpdatedRows) !== 1) return;
      marked.push(leadId);
      const summary = summaries.get(leadId);
      if (!options.telegram || !summary) return;
      const message: LeadOverdueMessage = {
        event: 'lead.overdue',
        idempotency_key: `overdue-${leadId}`,
        chat_id: lead.telegram_chat_id ?? null,
        text: alertText({ leadId, submissionId, name: summary.name, subject: summary.subject, receivedAt: lead.received_at, assignee: summary.assignee?.email ?? null }, waited, options),
      };
      await enqueueNotice(db, { kind: lead.kind, id: submissionId }, ALERT_CHANNEL, message);
    });
  }
  return marked;
}

export function startOverdueCheck(db: Database, log: FastifyBaseLogger, followUp: LeadFollowUp, options: { intervalMs: number; telegram: boolean; siteUrl: string; clock: Clock }): SiteSchedule<number[]> {
  return startSiteSchedule(db, {
    lease: { name: LEASE_NAME, ttlMs: Math.max(30_000, 3 * options.intervalMs) },
    intervalMs: options.intervalMs,
    run: async () => {
      const { targetMinutes } = await followUp.settings.get();
      const marked = await checkOverdueLeads(db, { now: options.clock.now(), targetMinutes, telegram: options.telegram, siteUrl: options.siteUrl });
      if (marked.length > 0) log.info({ leads: marked, alerted: options.telegram }, 'leads waiting past the response target');
      return marked;
    },
    onError: (error) => log.warn({ err: error }, 'overdue lead check failed; tried again shortly'),
  });
}
