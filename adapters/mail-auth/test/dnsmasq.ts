// A real name server for the tests: dnsmasq on 127.0.0.1 and a free port, answering only from
// the records given here, stopped by its PID.
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';

/** The zone dnsmasq serves. */
export interface DnsmasqRecords {
  /** Domains dnsmasq answers for alone: a name it has no record of is NXDOMAIN, not REFUSED. */
  readonly localDomains: readonly string[];
  /** TXT records: a name and the record's character-strings (each at most 255 bytes). */
  readonly txt?: readonly (readonly [name: string, ...chunks: string[]])[];
  /** MX records: the domain, the exchange and its preference. */
  readonly mx?: readonly (readonly [domain: string, exchange: string, preference: number])[];
  /** A and AAAA records: a name and its addresses. */
  readonly hosts?: readonly (readonly [name: string, ...addresses: string[]])[];
}

export interface Dnsmasq {
  /** `127.0.0.1:<port>`, ready for `Resolver#setServers`. */
  readonly server: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/** A UDP port on loopback that nothing was listening on a moment ago. */
export const freeUdpPort = async (): Promise<number> => {
  const socket = createSocket('udp4');
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  const { port } = socket.address();
  socket.close();
  return port;
};

/** A name server that reads every query and never answers: the peer that only times out. */
export const startSilentServer = async (): Promise<{ readonly server: string; readonly socket: Socket }> => {
  const socket = createSocket('udp4');
  socket.on('message', () => undefined);
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  return { server: `127.0.0.1:${socket.address().port}`, socket };
};

const recordArgs = (records: DnsmasqRecords): string[] => [
  ...records.localDomains.map((domain) => `--local=/${domain}/`),
  ...(records.txt ?? []).map(([name, ...chunks]) => `--txt-record=${[name, ...chunks].join(',')}`),
  ...(records.mx ?? []).map(([domain, exchange, preference]) => `--mx-host=${domain},${exchange},${preference}`),
  ...(records.hosts ?? []).map(([name, ...addresses]) => `--host-record=${[name, ...addresses].join(',')}`),
];

/** Any DNS answer, even "no such name", shows the server is up; no answer means not yet. */
const answers = async (server: string): Promise<boolean> => {
  const probe = new Resolver({ timeout: 200, tries: 1 });
  probe.setServers([server]);
  try {
    await probe.resolveTxt('probe.invalid');
    return true;
  } catch (error) {
    const code = (error as { code?: string }).code;
    return code !== 'ECONNREFUSED' && code !== 'ETIMEOUT';
  }
};

const stopper = (child: ChildProcess, pid: number) => async (): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  process.kill(pid, 'SIGTERM');
  await exited;
};

const launch = async (records: DnsmasqRecords, chosenPort?: number): Promise<Dnsmasq | undefined> => {
  const port = chosenPort ?? (await freeUdpPort());
  const server = `127.0.0.1:${port}`;
  const child = spawn('dnsmasq', [
    '--no-daemon', `--port=${port}`, '--listen-address=127.0.0.1', '--bind-interfaces',
    '--no-resolv', '--no-hosts', '--conf-file=/dev/null', '--pid-file=', ...recordArgs(records),
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.on('error', (error) => (stderr += error.message));
  if (child.pid === undefined) throw new Error('dnsmasq did not start: is dnsmasq-base installed?');
  const stop = stopper(child, child.pid);
  // dnsmasq prints nothing when its sockets are ready, so poll it with queries (at least 30 s on a busy machine).
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (child.exitCode !== null) {
      // Another process may have taken the port between our probe and dnsmasq's bind.
      if (/address already in use/i.test(stderr)) return undefined;
      throw new Error(`dnsmasq exited with ${child.exitCode}: ${stderr}`);
    }
    if (await answers(server)) return { server, pid: child.pid, stop };
    await delay(50);
  }
  await stop();
  throw new Error(`dnsmasq did not answer on ${server}: ${stderr}`);
};

/**
 * Starts dnsmasq serving `records`; retries on a fresh port when the chosen one was taken. With
 * `port` (a server stopped a moment ago, now serving other records) it tries that port only.
 */
export const startDnsmasq = async (records: DnsmasqRecords, port?: number): Promise<Dnsmasq> => {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const started = await launch(records, port);
    if (started) return started;
    if (port !== undefined) await delay(100);
  }
  throw new Error('dnsmasq found no free port on 127.0.0.1');
};
