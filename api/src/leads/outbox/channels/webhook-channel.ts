import { webhookSignature } from '../../../lib/webhook-signature';
import type { WebhookConfig } from '../../../config/leads';
import { DeliveryError, parseRetryAfter, type LeadChannel } from './lead-channel';

/** POSTs each lead as JSON to the agency's webhook (a CRM, Zapier, Make…); any 2xx is accepted. */
export function webhookChannel(config: WebhookConfig): LeadChannel {
  return {
    name: 'webhook',
    async deliver(lead, signal) {
      const body = JSON.stringify(lead);
      const headers: Record<string, string> = {
        'content-type': 'application/json; charset=utf-8',
        'idempotency-key': lead.idempotency_key,
      };
      if (config.secret) headers['x-signature'] = webhookSignature(body, config.secret);
      // A redirect is reported, not followed: a POST must not silently change its target.
      const response = await fetch(config.url, { method: 'POST', headers, body, signal, redirect: 'manual' });
      await response.body?.cancel();
      if (!response.ok) {
        throw new DeliveryError(`webhook answered ${response.status}`, parseRetryAfter(response.headers.get('retry-after')));
      }
    },
  };
}
