import { isIPv4, isIPv6 } from 'node:net';

/** The two keys the sessions of one client are counted under. */
export interface ClientKeys {
  /**
   * One client, for `maxConnectionsPerIp`: an IPv4 address as it is, an IPv6 address by its /64.
   * A /64 is what one IPv6 host or LAN is given (address autoconfiguration needs it), and
   * temporary addresses rotate inside it, so one machine can use as many addresses as it likes.
   */
  readonly address: string;
  /**
   * One network, for `maxConnectionsPerNetwork`: an IPv4 /24 or an IPv6 /48. These are the
   * longest prefixes routed on the public internet, so they are the smallest blocks one
   * operator can hold, and /48 is the usual allocation of a whole IPv6 site.
   */
  readonly network: string;
}

const ipv4Keys = (ip: string): ClientKeys => ({ address: ip, network: `${ip.slice(0, ip.lastIndexOf('.'))}.0/24` });

// A dotted tail (`::ffff:192.0.2.1`) written as its two hex groups, so one parser reads both forms.
const withHexTail = (text: string): string => {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted === null) return text;
  const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
  return `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
};

/** The eight 16-bit groups of an address that passed `isIPv6`. */
const ipv6Groups = (text: string): number[] => {
  const [head = '', tail] = withHexTail(text).split('::');
  const groups = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const first = groups(head);
  const last = groups(tail ?? '');
  const zeros = tail === undefined ? [] : new Array<number>(8 - first.length - last.length).fill(0);
  return [...first, ...zeros, ...last];
};

const prefix = (groups: readonly number[], bits: 48 | 64): string =>
  `${groups.slice(0, bits / 16).map((group) => group.toString(16)).join(':')}::/${bits}`;

/**
 * The keys of a client address as a socket reports it. An IPv4-mapped IPv6 address
 * (`::ffff:a.b.c.d`, a dual-stack listener's view of an IPv4 client) counts as that IPv4
 * address. Anything that is not an IP address is its own client and its own network.
 */
export const clientKeys = (ip: string): ClientKeys => {
  // A zone (`fe80::1%eth0`) names the local interface, not the client.
  const bare = ip.replace(/%.*$/, '');
  if (isIPv4(bare)) return ipv4Keys(bare);
  if (!isIPv6(bare)) return { address: ip, network: ip };
  const groups = ipv6Groups(bare);
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) return ipv4Keys(`${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`);
  return { address: prefix(groups, 64), network: prefix(groups, 48) };
};
