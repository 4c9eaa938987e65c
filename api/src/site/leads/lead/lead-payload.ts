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

/** What an outbox row delivers: a new lead, or an erasure (webhook only). */
export type OutboxMessage = LeadPayload | LeadErasedMessage;

export function isLeadErased(message: OutboxMessage): message is LeadErasedMessage {
  return 'event' in message && message.event === 'lead.erased';
}
