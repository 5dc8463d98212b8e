import test from 'ava';
import fc from 'fast-check';
import { clientKeys } from '../src/client-keys.js';

test('client keys: an IPv4 client is its address, in its /24', (t) => {
  t.deepEqual(clientKeys('192.0.2.77'), { address: '192.0.2.77', network: '192.0.2.0/24' });
  t.deepEqual(clientKeys('127.0.1.2'), { address: '127.0.1.2', network: '127.0.1.0/24' });
});

test('client keys: an IPv6 client is its /64, in its /48', (t) => {
  t.deepEqual(clientKeys('2001:db8:aa:bb:1:2:3:4'), { address: '2001:db8:aa:bb::/64', network: '2001:db8:aa::/48' });
  t.deepEqual(clientKeys('2001:DB8:AA:BB::9'), { address: '2001:db8:aa:bb::/64', network: '2001:db8:aa::/48' });
  t.deepEqual(clientKeys('2001:db8::1'), { address: '2001:db8:0:0::/64', network: '2001:db8:0::/48' });
  t.deepEqual(clientKeys('::1'), { address: '0:0:0:0::/64', network: '0:0:0::/48' });
  // A zone names our interface, not the client.
  t.deepEqual(clientKeys('fe80::1%eth0'), clientKeys('fe80::2'));
  // A dotted tail outside the mapped range is part of an IPv6 address (here NAT64).
  t.deepEqual(clientKeys('64:ff9b::192.0.2.1'), { address: '64:ff9b:0:0::/64', network: '64:ff9b:0::/48' });
});

test('client keys: an IPv4-mapped IPv6 address counts as its IPv4 address, dotted or in hex', (t) => {
  const ipv4 = { address: '198.51.100.7', network: '198.51.100.0/24' };
  t.deepEqual(clientKeys('::ffff:198.51.100.7'), ipv4);
  t.deepEqual(clientKeys('::FFFF:c633:6407'), ipv4);
  t.deepEqual(clientKeys('0:0:0:0:0:ffff:198.51.100.7'), ipv4);
});

test('client keys: what is not an IP address is a client and a network of its own', (t) => {
  t.deepEqual(clientKeys(''), { address: '', network: '' });
  t.deepEqual(clientKeys('not-an-ip'), { address: 'not-an-ip', network: 'not-an-ip' });
});

const group = fc.integer({ min: 0, max: 0xffff });
const groups = fc.array(group, { minLength: 8, maxLength: 8 });
const isMapped = (g: readonly number[]): boolean => g.slice(0, 5).every((each) => each === 0) && g[5] === 0xffff;
const full = (g: readonly number[]): string => g.map((each) => each.toString(16).padStart(4, '0')).join(':');
// The WHATWG URL parser writes IPv6 hosts in the compressed form of RFC 5952.
const compressed = (g: readonly number[]): string => new URL(`http://[${full(g)}]/`).hostname.slice(1, -1);

test('client keys: two IPv6 addresses share a client key exactly when their first 64 bits agree, and a network key when their first 48 do, however written', (t) => {
  fc.assert(
    fc.property(groups, groups, fc.integer({ min: 0, max: 8 }), (a, b, shared) => {
      const other = [...a.slice(0, shared), ...b.slice(shared)];
      fc.pre(!isMapped(a) && !isMapped(other));
      const [keysA, keysOther] = [clientKeys(full(a)), clientKeys(compressed(other))];
      const same = (bits: number): boolean => a.slice(0, bits / 16).every((each, i) => each === other[i]);
      return (keysA.address === keysOther.address) === same(64) && (keysA.network === keysOther.network) === same(48);
    }),
  );
  t.pass();
});
