import { createHmac } from 'node:crypto';

/** `sha256=<hex HMAC-SHA256 of the exact body>`, the convention GitHub and most CRMs verify. */
export function webhookSignature(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
