import { REPLY_CHANNEL, REPLY_PLACEHOLDERS, addWorkingMs, kyivDayOf, placeholdersIn, type ReplyPlaceholder, type ReplyTemplate } from '@agency/shared';
import { flattenLineBreaks } from '@agency/shared/contracts';
import type { Db } from '../../../platform/db/connection';
import { submittedText } from '../lead/lead-text';
import type { LeadPayload, VisitorReplyMessage } from '../lead/lead-payload';
import { enqueueNotice, wasQueued } from '../outbox/outbox-repository';
import type { StoredFollowUpSettings } from './follow-up-settings';

const KNOWN: ReadonlySet<string> = new Set(REPLY_PLACEHOLDERS);

/** The placeholders of a template the reply cannot fill (a typo would reach the visitor as is). */
export function unknownPlaceholders(template: ReplyTemplate): string[] {
  return [...placeholdersIn(template.subject), ...placeholdersIn(template.text)].filter((name) => !KNOWN.has(name));
}

const TIME = new Intl.DateTimeFormat('uk-UA', { timeZone: 'Europe/Kyiv', hour: '2-digit', minute: '2-digit' });
const DAY = new Intl.DateTimeFormat('uk-UA', { timeZone: 'Europe/Kyiv', weekday: 'long', day: 'numeric', month: 'long' });

/** When the agency will answer, as a person reads it: «сьогодні до 12:00», «завтра до 10:30», «до 10:59, понеділок, 7 грудня». */
export function answerBy(receivedAt: Date, targetMinutes: number): string {
  const due = addWorkingMs(receivedAt, targetMinutes * 60_000);
  const [from, to] = [kyivDayOf(receivedAt.getTime()), kyivDayOf(due.getTime())];
  const days = Math.round((Date.UTC(to.year, to.month, to.date) - Date.UTC(from.year, from.month, from.date)) / 86_400_000);
  const time = TIME.format(due);
  if (days === 0) return `сьогодні до ${time}`;
  if (days === 1) return `завтра до ${time}`;
  return `до ${time}, ${DAY.format(due)}`;
}

/** The reply to the visitor who sent `lead`: the template of its kind with its placeholders filled. */
export function visitorReply(lead: LeadPayload, settings: Pick<StoredFollowUpSettings, 'replies' | 'targetMinutes'>): VisitorReplyMessage {
  const values: Record<ReplyPlaceholder, string> = {
    name: flattenLineBreaks(lead.submission.name),
    number: String(lead.id),
    message: submittedText(lead),
    answer_by: answerBy(new Date(lead.created_at), settings.targetMinutes),
    position: lead.kind === 'applications' ? lead.submission.position : '',
  };
  const fill = (text: string) => text.replace(/\{([a-z_]+)\}/g, (whole, name: string) => (KNOWN.has(name) ? values[name as ReplyPlaceholder] : whole));
  const template = settings.replies[lead.kind];
  return {
    event: 'lead.reply',
    idempotency_key: `reply-${lead.idempotency_key}`,
    to: lead.submission.email,
    subject: flattenLineBreaks(fill(template.subject)),
    text: fill(template.text),
  };
}

/**
 * Queues the visitor's reply for a lead just let through (stored, or «Не спам»), inside that
 * transaction, unless one was ever queued for it: a visitor hears from the site once per lead.
 */
export async function queueVisitorReply(db: Db, lead: LeadPayload, settings: Pick<StoredFollowUpSettings, 'replies' | 'targetMinutes'>): Promise<boolean> {
  if (await wasQueued(db, lead.kind, lead.id, 'lead.reply')) return false;
  await enqueueNotice(db, { kind: lead.kind, id: lead.id }, REPLY_CHANNEL, visitorReply(lead, settings));
  return true;
}
