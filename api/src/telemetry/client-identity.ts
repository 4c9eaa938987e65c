import { createHmac } from 'node:crypto';
import ipaddr from 'ipaddr.js';

/**
 * How telemetry tells clients apart, so that one client, however many requests it sends, counts
 * once where a decision needs several: by the address the request came from (as the trusted proxy
 * reports it), an IPv6 address by its /64 (what one household or machine usually holds). Stored
 * only as a keyed hash: the address itself never leaves the request, and without the site's
 * secret the hash cannot be matched to one.
 */

/** Bits of an IPv6 address that name one client: its /64. */
const IPV6_CLIENT_PREFIX_BITS = 64;

/** The part of an address that names its client: the IPv4 address, or the IPv6 /64 prefix. */
export function clientAddress(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  // An IPv4 client seen through an IPv6 socket (`::ffff:203.0.113.7`) is that IPv4 client.
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, IPV6_CLIENT_PREFIX_BITS / 16);
  return `${parts.map((part) => part.toString(16)).join(':')}::/${IPV6_CLIENT_PREFIX_BITS}`;
}

/** A client's identity as telemetry stores it: 16 characters of an HMAC-SHA256 of its address part. */
export function clientId(address: string, secret: string): string {
  return createHmac('sha256', secret).update(`telemetry-client\n${clientAddress(address)}`).digest('base64url').slice(0, 16);
}
