import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type AddressVerdict =
  | { readonly allowed: true; readonly loopback: boolean }
  | { readonly allowed: false; readonly reason: string };

const refuse = (address: string, why: string): AddressVerdict => ({ allowed: false, reason: `${address} is ${why}` });

/** IPv6 global unicast is 2000::/3; everything else is special, unallocated or local. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

const classifyV6 = (address: string, parsed: ipaddr.IPv6, allowLoopback: boolean): AddressVerdict => {
  const parts = parsed.parts;
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) forms reach IPv4 hosts by a
  // path the IPv4 rules would not see: refused whatever IPv4 address they carry.
  if (parsed.isIPv4MappedAddress()) return refuse(address, 'an IPv4-mapped IPv6 address');
  if (parts.slice(0, 6).every((part) => part === 0) && !(parts[6] === 0 && parts[7]! <= 1)) {
    return refuse(address, 'an IPv4-compatible IPv6 address');
  }
  const range = parsed.range();
  if (range === 'loopback') return allowLoopback ? { allowed: true, loopback: true } : refuse(address, 'loopback');
  // NAT64 (rfc6052), 6to4 and Teredo embed an IPv4 address: their ranges are not unicast, so they
  // are refused here as a whole rather than trusting the embedded address.
  if (range !== 'unicast') return refuse(address, `in a special-purpose range (${range})`);
  if (!parsed.match(GLOBAL_UNICAST_V6)) return refuse(address, 'outside global unicast (2000::/3)');
  return { allowed: true, loopback: false };
};

/**
 * Whether a connection may go to `address` (canonical IPv4 dotted quad or IPv6, as a resolver
 * or the URL parser gives it). Refused: every address whose ipaddr.js range is not `unicast` —
 * loopback (unless `allowLoopback`), private, link-local, carrier-grade NAT, multicast,
 * broadcast, unspecified, reserved, documentation and benchmarking ranges, unique-local,
 * NAT64/6to4/Teredo — plus IPv4-mapped and IPv4-compatible IPv6 and IPv6 outside 2000::/3.
 */
export const classifyAddress = (address: string, allowLoopback = false): AddressVerdict => {
  const kind = isIP(address);
  if (kind === 0 || !ipaddr.isValid(address)) return refuse(address, 'not an IP address');
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') return classifyV6(address, parsed as ipaddr.IPv6, allowLoopback);
  const range = (parsed as ipaddr.IPv4).range();
  if (range === 'loopback') return allowLoopback ? { allowed: true, loopback: true } : refuse(address, 'loopback');
  if (range !== 'unicast') return refuse(address, `in a special-purpose range (${range})`);
  return { allowed: true, loopback: false };
};
