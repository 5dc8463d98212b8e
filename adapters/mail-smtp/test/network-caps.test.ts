import test, { type ExecutionContext } from 'ava';
import { SessionRegistry } from '../src/session-registry.js';
import { ArrayIngress, RawSmtp, openAdmitted, startServer, type Reply } from './support.js';

// Every 127.x.y.z is loopback on Linux: 127.0.0.0/24 plays one network, 127.0.1.0/24 another.
const inFirstNetwork = (host: number): string => `127.0.0.${host}`;
const OTHER_NETWORK = '127.0.1.2';

/** Opens sessions from the given addresses in turn, each destroyed when the test ends. */
const openFrom = async (t: ExecutionContext, port: number, addresses: readonly string[]): Promise<Reply[]> => {
  const greetings: Reply[] = [];
  for (const from of addresses) {
    const { client, greeting } = await RawSmtp.open(port, from);
    t.teardown(() => client.destroy());
    greetings.push(greeting);
    // A refused client is closed by the server; waiting for that keeps the next count exact.
    if (greeting.code !== 220) await client.closed;
  }
  return greetings;
};

test('network caps: sessions from many addresses of one /24 leave room under maxConnections, so another network is still greeted', async (t) => {
  // One session per address, six addresses, six slots: without a network cap they take all of them.
  const port = await startServer(t, new ArrayIngress(), { maxConnections: 6, maxConnectionsPerIp: 1 });
  const crowd = await openFrom(t, port, [2, 3, 4, 5, 6, 7].map(inFirstNetwork));
  // By default one network holds half of maxConnections.
  t.deepEqual(crowd.map((greeting) => greeting.code), [220, 220, 220, 421, 421, 421]);
  const [other] = await openFrom(t, port, [OTHER_NETWORK]);
  t.is(other?.code, 220);
});

test('network caps: a session over maxConnectionsPerNetwork gets 421 4.7.0 naming the network, and a freed slot admits again', async (t) => {
  const port = await startServer(t, new ArrayIngress(), { maxConnections: 10, maxConnectionsPerIp: 10, maxConnectionsPerNetwork: 2 });
  const first = await RawSmtp.open(port, inFirstNetwork(2));
  t.teardown(() => first.client.destroy());
  const [second, third] = await openFrom(t, port, [inFirstNetwork(3), inFirstNetwork(4)]);
  t.deepEqual([first.greeting.code, second?.code], [220, 220]);
  t.deepEqual([third?.code, third?.text], [421, '4.7.0 too many connections from your network, try again later']);
  // Another network is not held to the first one's count.
  t.deepEqual((await openFrom(t, port, [OTHER_NETWORK])).map((greeting) => greeting.code), [220]);
  first.client.quit();
  await first.client.closed;
  const again = await openAdmitted(port, inFirstNetwork(5));
  t.teardown(() => again.destroy());
  t.is((await again.command('NOOP')).code, 250);
});

test('network caps: maxConnectionsPerNetwork under 1 or fractional is refused when the server is built', async (t) => {
  for (const bad of [0, -1, 1.5]) {
    await t.throwsAsync(async () => startServer(t, new ArrayIngress(), { maxConnectionsPerNetwork: bad }), { message: /maxConnectionsPerNetwork must be a positive integer/ });
  }
});

test('network caps: addresses of one IPv6 /64 count as one client for maxConnectionsPerIp, and IPv6 /48s as networks', (t) => {
  const sessions = new SessionRegistry({ maxConnections: 100, maxConnectionsPerIp: 2, maxConnectionsPerNetwork: 3, sessionTimeoutMs: 60_000 });
  t.teardown(() => sessions.clear());
  let id = 0;
  const admit = (ip: string): string => sessions.admit(`s${++id}`, ip, () => undefined);
  t.deepEqual(['2001:db8:1:1::1', '2001:db8:1:1::2', '2001:db8:1:1:ffff::9'].map(admit), ['admitted', 'admitted', 'address_full']);
  // Another /64 of the same /48: a client of its own, in the same network.
  t.deepEqual(['2001:db8:1:2::1', '2001:db8:1:2::2'].map(admit), ['admitted', 'network_full']);
  t.is(admit('2001:db8:2:1::1'), 'admitted');
  // An IPv4 client seen through a dual-stack socket counts as its IPv4 address.
  t.deepEqual(['192.0.2.7', '::ffff:192.0.2.7', '::ffff:c000:207'].map(admit), ['admitted', 'admitted', 'address_full']);
});

test('network caps: a released session frees its slot in the client and the network counts', (t) => {
  const sessions = new SessionRegistry({ maxConnections: 100, maxConnectionsPerIp: 1, maxConnectionsPerNetwork: 1, sessionTimeoutMs: 60_000 });
  t.teardown(() => sessions.clear());
  t.is(sessions.admit('a', '2001:db8::1', () => undefined), 'admitted');
  t.is(sessions.admit('b', '2001:db8::2', () => undefined), 'address_full');
  t.is(sessions.admit('c', '2001:db8:0:1::1', () => undefined), 'network_full');
  sessions.release('a');
  t.is(sessions.admit('c', '2001:db8:0:1::1', () => undefined), 'admitted');
});
