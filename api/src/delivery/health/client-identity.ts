import { clientKey } from '../../platform/http/client-address';

/**
 * How telemetry tells clients apart, so that one client, however many requests it sends, counts
 * once where a decision needs several: by its address (platform/http/client-address.ts), stored
 * only as a keyed hash: the address itself never leaves the request, and without the site's
 * secret the hash cannot be matched to one.
 */

/** A client's identity as telemetry stores it: 16 characters of an HMAC-SHA256 of its address part. */
export function clientId(address: string, secret: string): string {
  return clientKey(address, secret, 'telemetry-client').slice(0, 16);
}
