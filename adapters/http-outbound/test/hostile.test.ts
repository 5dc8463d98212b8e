import '../../../core/test/webhooks/tripwire.js';
import test from 'ava';
import { connectionAttempts, tripwireInstalled } from '../../../core/test/webhooks/tripwire.js';
import { checkUrl, createGuardedClient, createUrlGuard } from '../src/index.js';
import { tableResolver } from './support.js';

/**
 * Hostile destinations. Every one is refused before any connection: the static ones by the URL
 * checks alone (also at endpoint creation), the names by checking what they resolve to.
 * (No test in this file opens a connection, so the connection counter must not move.)
 */
const STATIC: readonly (readonly [string, string])[] = [
  ['http://2130706433/', 'decimal 127.0.0.1, plain http'],
  ['https://2130706433/', 'decimal 127.0.0.1'],
  ['https://0177.0.0.1/', 'octal first part'],
  ['https://0x7f.1/', 'hex, short form'],
  ['https://0x7f000001/', 'hex, one part'],
  ['https://127.1/', 'short form'],
  ['https://127.0.1/', 'three-part short form'],
  ['https://127.0.0.1/', 'loopback'],
  ['https://127.255.255.254:8443/', 'loopback /8 with a port'],
  ['https://%31%32%37.0.0.1/', 'percent-encoded loopback'],
  ['https://①②⑦.0.0.1/', 'full-width digits mapped by IDNA'],
  ['https://127。0。0。1/', 'ideographic full stops'],
  ['https://[::1]/', 'IPv6 loopback'],
  ['https://[::1]:22/', 'IPv6 loopback, SSH port'],
  ['https://[0:0:0:0:0:0:0:1]/', 'IPv6 loopback, long form'],
  ['https://[::ffff:127.0.0.1]/', 'IPv4-mapped loopback'],
  ['https://[::ffff:7f00:1]/', 'IPv4-mapped loopback, hex'],
  ['https://[0:0:0:0:0:ffff:10.0.0.1]/', 'IPv4-mapped private, long form'],
  ['https://[::ffff:169.254.169.254]/', 'IPv4-mapped metadata address'],
  ['https://[::ffff:8.8.8.8]/', 'IPv4-mapped, even of a public address'],
  ['https://[::127.0.0.1]/', 'IPv4-compatible loopback'],
  ['https://[::a00:1]/', 'IPv4-compatible private'],
  ['https://[fe80::1%25eth0]/', 'link-local with a zone id'],
  ['https://[fe80::1]/', 'IPv6 link-local'],
  ['https://[fc00::1]/', 'unique-local'],
  ['https://[fd12:3456::1]/', 'unique-local'],
  ['https://[ff02::1]/', 'IPv6 multicast'],
  ['https://[::]/', 'IPv6 unspecified'],
  ['https://[64:ff9b::a00:1]/', 'NAT64 embedding 10.0.0.1'],
  ['https://[64:ff9b::7f00:1]/', 'NAT64 embedding 127.0.0.1'],
  ['https://[2002:a00:1::]/', '6to4 embedding 10.0.0.1'],
  ['https://[2002:7f00:1::1]/', '6to4 embedding 127.0.0.1'],
  ['https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/', 'Teredo'],
  ['https://[2001:db8::1]/', 'IPv6 documentation'],
  ['https://[100::1]/', 'IPv6 discard prefix'],
  ['https://[4000::1]/', 'IPv6 outside global unicast'],
  ['https://169.254.169.254/latest/meta-data/', 'cloud metadata'],
  ['http://169.254.169.254/', 'cloud metadata, plain http'],
  ['https://169.254.0.1/', 'link-local'],
  ['https://10.0.0.1/', 'private 10/8'],
  ['https://10.255.255.255/', 'private 10/8, top'],
  ['https://172.16.0.1/', 'private 172.16/12'],
  ['https://172.31.255.1/', 'private 172.16/12, top'],
  ['https://192.168.1.1/', 'private 192.168/16'],
  ['https://100.64.0.1/', 'carrier-grade NAT'],
  ['https://100.127.255.254/', 'carrier-grade NAT, top'],
  ['https://0.0.0.0/', 'unspecified'],
  ['https://0/', 'unspecified, short form'],
  ['https://224.0.0.1/', 'multicast'],
  ['https://239.255.255.250:1900/', 'multicast (SSDP)'],
  ['https://255.255.255.255/', 'broadcast'],
  ['https://198.18.0.1/', 'benchmarking'],
  ['https://198.19.255.1/', 'benchmarking, top'],
  ['https://192.0.2.1/', 'documentation TEST-NET-1'],
  ['https://198.51.100.7/', 'documentation TEST-NET-2'],
  ['https://203.0.113.9/', 'documentation TEST-NET-3'],
  ['https://192.0.0.8/', 'IETF protocol assignments'],
  ['https://240.0.0.1/', 'reserved 240/4'],
  ['https://192.88.99.1/', '6to4 relay anycast'],
  ['https://good.example@127.0.0.1/', 'userinfo that looks like the host'],
  ['https://good.example:pw@hooks.example.com/', 'credentials in the URL'],
  ['https://127.0.0.1#@good.example/', 'fragment trick'],
  ['https://127.0.0.1\\@good.example/', 'backslash trick'],
  ['https://localhost/', 'loopback name'],
  ['https://localhost:6379/', 'loopback name, Redis port'],
  ['https://LOCALHOST./', 'loopback name, upper case with a trailing dot'],
  ['https://foo.localhost/', 'a .localhost name'],
  ['https://metadata.google.internal/computeMetadata/v1/', '.internal name'],
  ['https://printer.local/', 'mDNS name'],
  ['https://intranet/', 'single-label name'],
  ['http://hooks.example.com/', 'plain http to a public name'],
  ['file:///etc/passwd', 'file scheme'],
  ['ftp://hooks.example.com/', 'ftp scheme'],
  ['gopher://127.0.0.1:6379/_INFO', 'gopher scheme'],
  ['ws://hooks.example.com/', 'websocket scheme'],
  ['data:text/plain,hello', 'data scheme'],
  ['javascript:alert(1)', 'javascript scheme'],
  ['not a url', 'not a URL'],
  [`https://hooks.example.com/${'a'.repeat(2100)}`, 'over 2048 characters'],
];

/** Names that look harmless and resolve somewhere they must not go. */
const RESOLVED: Readonly<Record<string, readonly string[]>> = {
  'rebind.example.com': ['10.0.0.1'],
  'meta.example.com': ['169.254.169.254'],
  'loop.example.com': ['127.0.0.1'],
  'loop6.example.com': ['::1'],
  'mixed.example.com': ['93.184.216.34', '192.168.0.1'],
  'v6private.example.com': ['fd00::1'],
  'mapped.example.com': ['::ffff:10.0.0.1'],
  'nat64.example.com': ['64:ff9b::a9fe:a9fe'],
  'zero.example.com': ['0.0.0.0'],
  'cgnat.example.com': ['100.100.100.100'],
  'multicast.example.com': ['239.1.1.1'],
  'empty.example.com': [],
};

const { resolver } = tableResolver(RESOLVED);
const client = createGuardedClient({ resolver, timeoutMs: 2000 });

test('hostile: the tripwire is armed before anything else runs', (t) => {
  t.true(tripwireInstalled());
});

test(`hostile: ${STATIC.length} URLs and address encodings are refused by the static checks`, (t) => {
  t.true(STATIC.length + Object.keys(RESOLVED).length >= 60);
  for (const [url, why] of STATIC) {
    const checked = checkUrl(url);
    t.false(checked.ok, `${why}: ${url}`);
    t.false(checkUrl(url, { allowHttpLoopback: false }).ok);
  }
});

test('hostile: each static case is refused by the client too, without DNS and without a connection', async (t) => {
  const own = tableResolver(RESOLVED);
  const staticClient = createGuardedClient({ resolver: own.resolver });
  const before = connectionAttempts();
  for (const [url, why] of STATIC) t.like(await staticClient.request(url, { method: 'POST', body: '{}' }), { kind: 'refused' }, why);
  t.deepEqual(own.asked, [], 'no name was resolved');
  t.is(connectionAttempts(), before);
});

test('hostile: names resolving to refused addresses are refused after DNS, without a connection', async (t) => {
  const before = connectionAttempts();
  for (const name of Object.keys(RESOLVED)) {
    const url = `https://${name}/hook`;
    t.true(checkUrl(url).ok, `${name} passes the static checks (a name)`);
    const outcome = await client.post(url, { 'content-type': 'application/json' }, '{}', { timeoutMs: 2000 });
    t.true('error' in outcome, name);
    if ('error' in outcome) t.regex(outcome.error, name === 'empty.example.com' ? /no address/ : /^refused: .* resolves to /, name);
  }
  t.is(connectionAttempts(), before);
});

test('hostile: one refused address among several refuses the name (no picking the good one)', async (t) => {
  const outcome = await client.request('https://mixed.example.com/');
  t.like(outcome, { kind: 'refused' });
  if ('error' in outcome) t.regex(outcome.error, /192\.168\.0\.1/);
});

test('hostile: development mode admits loopback only — private, mapped and plain-http-to-public stay refused', async (t) => {
  const dev = createGuardedClient({ resolver, allowHttpLoopback: true });
  const before = connectionAttempts();
  for (const url of ['http://10.0.0.1/', 'http://[::ffff:127.0.0.1]/', 'http://hooks.example.com/', 'http://rebind.example.com/', 'https://169.254.169.254/', 'http://mixed.example.com/']) {
    t.like(await dev.request(url), { kind: 'refused' }, url);
  }
  t.is(connectionAttempts(), before);
});

test('hostile: the UrlGuard given to the core refuses the same URLs at endpoint creation', async (t) => {
  const guard = createUrlGuard();
  for (const [url] of STATIC) t.false((await guard.check(url, { allowHttpLoopback: false })).ok, url);
  t.deepEqual(await guard.check('https://hooks.example.com/x', { allowHttpLoopback: false }), { ok: true });
  t.deepEqual(await guard.check('http://127.0.0.1:8080/x', { allowHttpLoopback: true }), { ok: true });
  t.like(await guard.check('http://127.0.0.1:8080/x', { allowHttpLoopback: false }), { ok: false });
});
