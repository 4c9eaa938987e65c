import { createHmac } from 'node:crypto';
import ipaddr from 'ipaddr.js';

/**
 * The part of a request's address that names one client, however many requests it sends (as the
 * trusted proxy reports the address): an IPv4 address, or an IPv6 address's /56 (what an internet
 * provider usually delegates to one household or office; a /64 is a single network of it, and a
 * /48 holder gets 256). Telemetry and the spam defence store it only as a keyed hash.
 */

/** Bits of an IPv6 address that name one client: its /56. */
const IPV6_CLIENT_PREFIX_BITS = 56;

export function clientAddress(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  // An IPv4 client seen through an IPv6 socket (`::ffff:203.0.113.7`) is that IPv4 client.
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/${IPV6_CLIENT_PREFIX_BITS}`);
  return `${prefix.toString()}/${IPV6_CLIENT_PREFIX_BITS}`;
}

/**
 * A client (its clientAddress) as a keyed hash, HMAC-SHA-256 in base64url, the key the site's
 * secret and `purpose` kept apart from other uses: what is stored instead of the address, which
 * without the secret cannot be matched to one.
 */
export function clientKey(address: string, secret: string, purpose: string): string {
  return createHmac('sha256', secret).update(`${purpose}\n${clientAddress(address)}`).digest('base64url');
}
