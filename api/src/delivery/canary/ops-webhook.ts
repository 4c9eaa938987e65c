import type { FastifyBaseLogger } from 'fastify';
import type { OpsWebhookConfig } from '../../platform/config';
import { webhookSignature } from '../../platform/lib/webhook-signature';

/** The JSON body of each message. */
export interface ReleaseDecisionMessage {
  type: 'release_decision';
  /** The site's public origin, for a team with several sites in one channel. */
  site: string;
  app: string;
  release: string;
  action: 'promoted' | 'rolled_back';
  reason: string;
  /** ISO time of the decision. */
  at: string;
  /** What every visitor gets now. */
  current: string;
}

/** Waits before each retry: a channel that blinks still gets the message, a dead one is given up on within a minute. */
export const OPS_WEBHOOK_RETRY_DELAYS_MS = [1000, 5000, 20_000];
const TIMEOUT_MS = 5000;

/**
 * Sends each decision as JSON, signed like the leads webhook (`x-signature: sha256=<HMAC of the
 * body>` with OPS_WEBHOOK_SECRET), retrying a few times on a failure: at least once, with an
 * `Idempotency-Key` per decision. The decision itself is already
 * made and kept in the releases' state; a message that cannot be delivered is logged.
 */
export function createOpsWebhook(config: OpsWebhookConfig, log: FastifyBaseLogger, delays = OPS_WEBHOOK_RETRY_DELAYS_MS) {
  return async function notify(message: ReleaseDecisionMessage): Promise<boolean> {
    const body = JSON.stringify(message);
    // A retry after a lost answer repeats the message: the key (one per decision) lets the channel drop it.
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'idempotency-key': `${message.app}:${message.release}:${message.action}:${message.at}`,
    };
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
        log.error({ app: message.app, release: message.release, action: message.action, problem }, 'ops webhook: the release decision could not be sent');
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, delay).unref());
    }
  };
}
