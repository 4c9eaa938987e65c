import { createHmac } from 'node:crypto';
import ipaddr from 'ipaddr.js';

/**
 * How telemetry tells clients apart, so that one client, however many requests it sends, counts
 * once where a decision needs several: by the address the request came from (as the trusted proxy
 * reports it), an IPv6 address by its /56 (what an internet provider usually delegates to one
 * household or office; a /64 is a single network of it, and a /48 holder gets 256). Stored
 * only as a keyed hash: the address itself never leaves the request, and without the site's
 * secret the hash cannot be matched to one.
 */

/** Bits of an IPv6 address that name one client: its /56. */
const IPV6_CLIENT_PREFIX_BITS = 56;

/** The part of an address that names its client: the IPv4 address, or the IPv6 /56 prefix. */
export function clientAddress(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  // An IPv4 client seen through an IPv6 socket (`::ffff:203.0.113.7`) is that IPv4 client.
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/${IPV6_CLIENT_PREFIX_BITS}`);
  return `${prefix.toString()}/${IPV6_CLIENT_PREFIX_BITS}`;
}

/** A client's identity as telemetry stores it: 16 characters of an HMAC-SHA256 of its address part. */
export function clientId(address: string, secret: string): string {
  return createHmac('sha256', secret).update(`telemetry-client\n${clientAddress(address)}`).digest('base64url').slice(0, 16);
}
