import type { Attribution, ContactMessage, JobApplication } from '@agency/shared';

interface LeadBase {
  id: number;
  /** `<kind>-<id>`: the same on every delivery of this lead, so receivers can drop repeats. */
  idempotency_key: string;
  created_at: string;
  /** The page the visitor sent it from, when the browser said. */
  referrer: string | null;
  /**
   * Where the visitor came from (campaign tags, click ids, referring site, landing page); null
   * when the form did not say. Leads queued before attribution existed have none.
   */
  attribution?: Attribution | null;
  /**
   * The person's leads with this one, and their latest before it, when they wrote before (within
   * the duplicate window). Absent for a first lead and for leads queued before it existed.
   */
  person?: { leads: number; earlier?: { id: number; kind: SubmissionKind; received_at: string } };
  /** Who the lead was assigned to as it arrived, by the assignment rules. */
  assignee?: { id: number; email: string } | null;
}

/**
 * What every channel delivers about one stored submission. Frozen in the outbox row when the
 * submission is stored, and sent as is (JSON) to the webhook.
 */
export type LeadPayload = LeadBase & SubmittedLead;

/** What the visitor sent, by kind, with the defaults filled in. */
export type SubmittedLead = { kind: 'contact'; submission: ContactMessage } | { kind: 'applications'; submission: JobApplication };

/** The kind of a lead: which form sent it (`contact` or `applications`). */
export type SubmissionKind = SubmittedLead['kind'];

export function idempotencyKey(kind: SubmissionKind, id: number): string {
  return `${kind}-${id}`;
}

/**
 * What the webhook gets when a person's data is erased: the leads it had received about them,
 * named by id and idempotency key only, so a CRM that stored them can erase them too.
 */
export interface LeadErasedMessage {
  event: 'lead.erased';
  /** `erasure-<random>`: the same on every delivery of this message. */
  idempotency_key: string;
  erased_at: string;
  leads: { kind: SubmissionKind; id: number; idempotency_key: string }[];
}

/** The e-mail to the visitor that their lead was received (the `reply` channel). */
export interface VisitorReplyMessage {
  event: 'lead.reply';
  /** `reply-<kind>-<id>`: the same on every delivery, and the e-mail's Message-ID. */
  idempotency_key: string;
  to: string;
  subject: string;
  text: string;
}

/** A Telegram alert that a lead waited past the response target, to its assignee's chat or the team's. */
export interface LeadOverdueMessage {
  event: 'lead.overdue';
  /** `overdue-<lead id>`. */
  idempotency_key: string;
  /** The assignee's chat; the team's (TELEGRAM_CHAT_ID) when null. */
  chat_id: string | null;
  text: string;
}

/**
 * The weekly e-mail of the site's figures to an admin who wants it (the `report` channel). It is
 * about no lead: it holds only totals, never a lead's personal data.
 */
export interface WeeklyReportMessage {
  event: 'report.weekly';
  /** `weekly-report-<Monday>-<member id>`: the same on every delivery, and the e-mail's Message-ID. */
  idempotency_key: string;
  to: string;
  subject: string;
  text: string;
}

/** What an outbox row delivers: a new lead, an erasure (webhook only), a reply, an overdue alert or a weekly report. */
export type OutboxMessage = LeadPayload | LeadErasedMessage | VisitorReplyMessage | LeadOverdueMessage | WeeklyReportMessage;

export type OutboxNotice = VisitorReplyMessage | LeadOverdueMessage | WeeklyReportMessage;

export function isNotice(message: OutboxMessage): message is OutboxNotice {
  return 'event' in message && (message.event === 'lead.reply' || message.event === 'lead.overdue' || message.event === 'report.weekly');
}

export function isLeadErased(message: OutboxMessage): message is LeadErasedMessage {
  return 'event' in message && message.event === 'lead.erased';
}
