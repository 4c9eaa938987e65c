import type { ALERT_CHANNEL, REPLY_CHANNEL } from '@agency/shared';
import type { ChannelName } from '../../../../platform/config/leads';
import type { LeadErasedMessage, LeadPayload, OutboxNotice } from '../../lead/lead-payload';

/** The outbox's channel of the admins' weekly e-mail (with e-mail configured). */
export const REPORT_CHANNEL = 'report';

/** A channel of the outbox: one of the agency's (ChannelName), the visitor's reply, an overdue alert, or the weekly report. */
export type OutboxChannelName = ChannelName | typeof REPLY_CHANNEL | typeof ALERT_CHANNEL | typeof REPORT_CHANNEL;

/** One way a lead reaches a person. Each `deliver…` resolves once the receiver has accepted the message. */
export interface LeadChannel {
  name: OutboxChannelName;
  /** Sends a new lead to the agency (the agency's channels); throws on any failure; `signal` aborts at the delivery deadline or at shutdown. */
  deliver?(lead: LeadPayload, signal: AbortSignal): Promise<void>;
  /** Sends a message that is not a lead: the visitor's reply (reply), an overdue alert (alert), a weekly report (report). */
  deliverNotice?(notice: OutboxNotice, signal: AbortSignal): Promise<void>;
  /** Tells the receiver a person's leads were erased: only a channel that can act on it (the webhook) has this. */
  deliverErasure?(message: LeadErasedMessage, signal: AbortSignal): Promise<void>;
  close?(): void;
}

/** A failed delivery; `retryAfterMs` when the receiver said when to come back. */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

/** `Retry-After` as seconds or an HTTP date → milliseconds from now; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
