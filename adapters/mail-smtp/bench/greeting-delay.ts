/**
 * Measures what the greeting delay costs (ADR 0005): messages per second over loopback with
 * one message per connection (one session, and 20 sessions at once) and with 20 reused
 * sessions, for our MX at several delays and for smtp-server's stock fixed 100 ms. The
 * server runs in a child process, so client and server do not share an event loop.
 *
 *   node --import tsx --conditions=@ephemail/source bench/greeting-delay.ts [messages] [rounds]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import type { DeliveryOutcome, InboundEnvelope, MailIngress } from '@ephemail/core';
import { SMTPServer } from 'smtp-server';
import { createSmtpInbound } from '../src/index.js';
import { RawSmtp, message } from '../test/support.js';

const discard: MailIngress = {
  checkRecipient: async () => ({ kind: 'accept', identityId: 'idn_bench' }),
  deliver: async (_raw: Uint8Array, envelope: InboundEnvelope): Promise<readonly DeliveryOutcome[]> =>
    envelope.rcptTo.map((recipient, i) => ({ recipient, kind: 'stored', messageId: `m${i}`, identityId: 'idn_bench', duplicate: false })),
};

/** Child side: start one server, print its port, run until killed. */
const serve = async (kind: string): Promise<void> => {
  if (kind === 'stock') {
    const server = new SMTPServer({
      disabledCommands: ['AUTH', 'STARTTLS'], disableReverseLookup: true, logger: false,
      onData: (stream, _session, callback) => { stream.resume(); stream.on('end', () => callback(null, 'Ok')); },
    });
    server.listen({ port: 0, host: '127.0.0.1' }, () => process.stdout.write(`${(server.server.address() as { port: number }).port}\n`));
    return;
  }
  const inbound = createSmtpInbound(discard, { greetingDelayMs: Number(kind), maxConnectionsPerIp: 100 });
  process.stdout.write(`${(await inbound.listen(0, '127.0.0.1')).port}\n`);
};

const body = message('bench', 'x'.repeat(4_000));

const oneMessage = async (client: RawSmtp): Promise<void> => {
  await client.command('MAIL FROM:<bench@example.org>');
  await client.command('RCPT TO:<user@inbox.test>');
  const reply = await client.data(body);
  if (reply.code !== 250) throw new Error(`unexpected reply ${reply.code} ${reply.text}`);
};

/** `sessions` clients in parallel, each sending `perSession` messages, `perConnection` per connection. */
const rate = async (port: number, sessions: number, perSession: number, perConnection: number): Promise<number> => {
  const started = performance.now();
  await Promise.all(Array.from({ length: sessions }, async () => {
    for (let sent = 0; sent < perSession; ) {
      const { client } = await RawSmtp.open(port);
      await client.command('EHLO bench.test');
      for (let i = 0; i < perConnection && sent < perSession; i++, sent++) await oneMessage(client);
      client.quit();
      await client.closed;
    }
  }));
  return Math.round((sessions * perSession) / ((performance.now() - started) / 1000));
};

const startChild = async (kind: string): Promise<{ child: ChildProcess; port: number }> => {
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, '--serve', kind], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  return { child, port: Number(line.toString().trim()) };
};

const median = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const measure = async (kind: string, total: number, rounds: number): Promise<string> => {
  const { child, port } = await startChild(kind);
  const runs: [number, number, number][] = [];
  await rate(port, 5, 4, 1); // warm-up
  for (let round = 0; round < rounds; round++) {
    runs.push([await rate(port, 1, 100, 1), await rate(port, 20, total / 20, 1), await rate(port, 20, total / 20, total / 20)]);
  }
  child.kill();
  return [0, 1, 2].map((i) => `${median(runs.map((run) => run[i]!))} (${runs.map((run) => run[i]).join('/')})`).join(' | ');
};

const main = async (): Promise<void> => {
  const [total, rounds] = [Number(process.argv[2] ?? 2_000), Number(process.argv[3] ?? 3)];
  process.stdout.write(`node ${process.version}, ~4 KB messages, loopback; median msg/s (each round) of ${rounds} rounds\n`);
  process.stdout.write(`server | 1 session, 100 msgs, 1 msg/conn | 20 sessions, ${total} msgs, 1 msg/conn | 20 sessions, ${total} msgs, reused conns\n`);
  for (const [name, kind] of [['ephemail MX, greetingDelayMs 0', '0'], ['ephemail MX, greetingDelayMs 10', '10'],
    ['ephemail MX, greetingDelayMs 100', '100'], ['smtp-server stock (fixed 100 ms)', 'stock']] as const) {
    process.stdout.write(`${name} | ${await measure(kind, total, rounds)}\n`);
  }
};

if (process.argv[2] === '--serve') await serve(process.argv[3]!);
else await main();
