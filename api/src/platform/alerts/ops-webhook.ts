import type { FastifyBaseLogger } from 'fastify';
import type { OpsWebhookConfig } from '../config';
import { webhookSignature } from '../lib/webhook-signature';

/** What every message to the team's ops channel carries; each kind adds its own fields. */
export interface OpsMessage {
  /** What happened: `release_decision`, `backup_alert`, … */
  type: string;
  /** The site's public origin, for a team with several sites in one channel. */
  site: string;
  /** ISO time of the event. */
  at: string;
}

/** Waits before each retry: a channel that blinks still gets the message, a dead one is given up on within a minute. */
export const OPS_WEBHOOK_RETRY_DELAYS_MS = [1000, 5000, 20_000];
const TIMEOUT_MS = 5000;

/**
 * Sends each message as JSON, signed like the leads webhook (`x-signature: sha256=<HMAC of the
 * body>` with OPS_WEBHOOK_SECRET), retrying a few times on a failure: at least once, with the
 * `Idempotency-Key` the sender names per event. What it reports is already decided and kept where it belongs
 * (the releases' state, the backup store); a message that cannot be delivered is logged.
 */
export function createOpsWebhook(config: OpsWebhookConfig, log: FastifyBaseLogger, delays = OPS_WEBHOOK_RETRY_DELAYS_MS) {
  return async function notify(message: OpsMessage, idempotencyKey: string): Promise<boolean> {
    const body = JSON.stringify(message);
    // A retry after a lost answer repeats the message: the key (one per event) lets the channel drop it.
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'idempotency-key': idempotencyKey };
    if (config.secret) headers['x-signature'] = webhookSignature(body, config.secret);
    for (let attempt = 0; ; attempt += 1) {
      let problem: string;
      try {
        const response = await fetch(config.url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
        await response.body?.cancel();
        if (response.ok) return true;
        problem = `answered ${response.status}`;
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
      }
      const delay = delays[attempt];
      if (delay === undefined) {
        log.error({ type: message.type, idempotencyKey, problem }, 'ops webhook: a message could not be sent');
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, delay).unref());
    }
  };
}
