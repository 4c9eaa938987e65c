import { webhookSignature } from '../../../../platform/lib/webhook-signature';
import type { WebhookConfig } from '../../../../platform/config/leads';
import type { OutboxMessage } from '../../lead/lead-payload';
import { DeliveryError, parseRetryAfter, type LeadChannel } from './lead-channel';

/** The agency's webhook (a CRM, Zapier, Make…); any 2xx is accepted. POSTs each lead, and each erasure (`{"event": "lead.erased"}`), as signed JSON. */
export function webhookChannel(config: WebhookConfig): LeadChannel {
  async function post(message: OutboxMessage, signal: AbortSignal): Promise<void> {
    const body = JSON.stringify(message);
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'idempotency-key': message.idempotency_key,
    };
    if (config.secret) headers['x-signature'] = webhookSignature(body, config.secret);
    // A redirect is reported, not followed: a POST must not silently change its target.
    const response = await fetch(config.url, { method: 'POST', headers, body, signal, redirect: 'manual' });
    await response.body?.cancel();
    if (!response.ok) {
      throw new DeliveryError(`webhook answered ${response.status}`, parseRetryAfter(response.headers.get('retry-after')));
    }
  }
  return { name: 'webhook', deliver: post, deliverErasure: post };
}
