import anyTest, { type TestFn } from 'ava';
import { createDnsResolver } from '../src/index.js';
import { freeUdpPort, startDnsmasq, type Dnsmasq } from './dnsmasq.js';
import { randomLabel } from './messages.js';

interface Zone {
  readonly dns: Dnsmasq;
  readonly domain: string;
}

const test = anyTest as TestFn<Zone>;

test.before(async (t) => {
  const domain = `${randomLabel('zone')}.test`;
  const dns = await startDnsmasq({
    localDomains: ['test'],
    txt: [[domain, 'v=spf1 ', 'ip4:127.0.0.1 -all'], [domain, 'site-verify=abc']],
    mx: [[domain, `mx.${domain}`, 10]],
    hosts: [[`mx.${domain}`, '127.0.0.3', '::3']],
  });
  t.context = { dns, domain };
});

test.after.always(async (t) => {
  await t.context.dns?.stop();
});

const codeOf = async (lookup: Promise<unknown>): Promise<unknown> => lookup.then(() => 'answered', (error) => error?.code);

test('dns-resolver: TXT answers keep each record as its list of character-strings', async (t) => {
  const answers = (await createDnsResolver([t.context.dns.server])(t.context.domain, 'TXT')) as string[][];
  t.deepEqual([...answers].sort((a, b) => a.length - b.length), [['site-verify=abc'], ['v=spf1 ', 'ip4:127.0.0.1 -all']]);
});

test('dns-resolver: MX, A and AAAA answers come as node gives them', async (t) => {
  const resolve = createDnsResolver([t.context.dns.server]);
  const { domain } = t.context;
  t.deepEqual(await resolve(domain, 'MX'), [{ exchange: `mx.${domain}`, priority: 10 }]);
  t.deepEqual(await resolve(`mx.${domain}`, 'A'), ['127.0.0.3']);
  t.deepEqual(await resolve(`mx.${domain}`, 'AAAA'), ['::3']);
});

test('dns-resolver: a missing name and a missing type reject with the codes mailauth reads', async (t) => {
  const resolve = createDnsResolver([t.context.dns.server]);
  t.is(await codeOf(resolve(`${randomLabel('absent')}.test`, 'TXT')), 'ENOTFOUND');
  t.is(await codeOf(resolve(t.context.domain, 'A')), 'ENODATA');
});

test('dns-resolver: a refused connection and a bad record type reject rather than throw', async (t) => {
  const closed = createDnsResolver([`127.0.0.1:${await freeUdpPort()}`], { queryTimeoutMs: 500, tries: 1 });
  t.is(await codeOf(closed('a.test', 'TXT')), 'ECONNREFUSED');
  const resolve = createDnsResolver([t.context.dns.server]);
  t.not(await codeOf(resolve(t.context.domain, 'BOGUS')), 'answered');
});

test('dns-resolver: a malformed server address is refused at creation', (t) => {
  t.throws(() => createDnsResolver(['not a server']));
});
