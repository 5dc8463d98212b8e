import '../../../core/test/webhooks/tripwire.js';
import { spawn, spawnSync } from 'node:child_process';
import dgram from 'node:dgram';
import test from 'ava';
import { connectionAttempts } from '../../../core/test/webhooks/tripwire.js';
import { createDnsResolver, createGuardedClient } from '../src/index.js';
import { selfSignedCertificate, startServer } from './support.js';

const hasDnsmasq = spawnSync('sh', ['-c', 'command -v dnsmasq'], { stdio: 'ignore' }).status === 0;

const freeUdpPort = async (): Promise<number> => {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
};

/**
 * dnsmasq on 127.0.0.1 answering only the given names, no upstream; stopped by its own pid. A free
 * UDP port may be taken on TCP (dnsmasq binds both), or taken by another process before dnsmasq
 * binds it: such a start is tried again on another port.
 */
const startDnsmasq = async (records: Readonly<Record<string, string>>) => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startDnsmasqOnce(records);
    } catch (error) {
      if (attempt >= 5 || !String((error as Error).message).includes('Address already in use')) throw error;
    }
  }
};

const startDnsmasqOnce = async (records: Readonly<Record<string, string>>) => {
  const port = await freeUdpPort();
  const args = ['--no-daemon', `--port=${port}`, '--listen-address=127.0.0.1', '--bind-interfaces', '--no-resolv', '--no-hosts', '--pid-file=', '--log-facility=-'];
  for (const [name, address] of Object.entries(records)) args.push(`--address=/${name}/${address}`);
  const child = spawn('dnsmasq', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let log = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('started')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`dnsmasq exited (${code}): ${log}`)));
  });
  return { server: `127.0.0.1:${port}`, stop: () => void child.kill('SIGTERM') };
};

const RECORDS = {
  'rebind.example.net': '10.9.8.7',
  'metadata.example.net': '169.254.169.254',
  'six.example.net': 'fd00::7',
  'mapped.example.net': '::ffff:192.168.4.4',
  'hooks.example.com': '127.0.0.1',
};

const certificate = selfSignedCertificate();
/** Real DNS needs dnsmasq (apt-get install -y dnsmasq-base); without it these show as skipped. */
const dnsTest = hasDnsmasq ? test.serial : test.serial.skip;
const dnsTlsTest = hasDnsmasq && certificate ? test.serial : test.serial.skip;

// Serial: the connection counter is process-wide, and the other test of this file connects.
dnsTest('dns (dnsmasq): names that a real resolver answers with refused addresses are refused without a connection', async (t) => {
  const dns = await startDnsmasq(RECORDS);
  try {
    const client = createGuardedClient({ resolver: createDnsResolver([dns.server]) });
    const before = connectionAttempts();
    for (const name of ['rebind.example.net', 'metadata.example.net', 'six.example.net', 'mapped.example.net', 'hooks.example.com']) {
      const outcome = await client.request(`https://${name}/hook`, { method: 'POST', body: '{}' });
      t.like(outcome, { kind: 'refused' }, name);
    }
    t.like(await client.request('https://unknown.example.net/'), { kind: 'dns' });
    t.is(connectionAttempts(), before);
  } finally {
    dns.stop();
  }
});

dnsTlsTest('dns (dnsmasq): in development mode a name resolving to loopback is delivered to the checked address (needs openssl)', async (t) => {
  const dns = await startDnsmasq(RECORDS);
  const server = await startServer((_req, res) => res.end(), certificate!);
  try {
    const client = createGuardedClient({ resolver: createDnsResolver([dns.server]), allowHttpLoopback: true, ca: certificate!.cert });
    t.deepEqual(await client.post(`https://hooks.example.com:${server.port}/h`, { 'content-type': 'application/json' }, '{}', { timeoutMs: 3000 }), { status: 200 });
    t.is(server.received[0]!.headers.host, `hooks.example.com:${server.port}`);
    t.like(await client.request('https://rebind.example.net/'), { kind: 'refused' }, 'development mode admits loopback, nothing else');
    client.close();
  } finally {
    dns.stop();
    await server.close();
  }
});
