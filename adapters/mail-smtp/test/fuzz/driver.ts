import { setTimeout as delay } from 'node:timers/promises';
import { RawSmtp, type Reply } from '../support.js';
import { dotStuff, prng } from './bodies.js';
import { STALL_IDLE_MS, bodyOf, digest, expectedFor, type AbortCase, type Expected, type FuzzCase, type GarbageCase, type MessageCase, type SendMode } from './cases.js';

type Id = { readonly id: number };

/** What the run saw: failures in words, and per message case what deliver should have got. */
export interface RunResult {
  readonly failures: string[];
  readonly expectations: Map<number, Expected & { readonly digest: string }>;
  readonly neverDelivered: Set<number>;
  /** Final replies to message cases, by code (503: DATA refused for want of recipients). */
  readonly finalCodes: Map<number, number>;
}

const END = Buffer.from('\r\n.\r\n');

const check = (ok: boolean, what: string): void => {
  if (!ok) throw new Error(what);
};

const pieces = (data: Buffer, next: () => number, count: number): Buffer[] => {
  const cuts = Array.from({ length: count }, () => Math.floor(next() * data.length)).sort((a, b) => a - b);
  return [...cuts, data.length].map((cut, i) => data.subarray(i === 0 ? 0 : cuts[i - 1], cut));
};

const writeData = async (client: RawSmtp, data: Buffer, mode: SendMode, seed: number): Promise<void> => {
  const next = prng(seed ^ 0x5bd1e995);
  if (mode === 'plain' || mode === 'pipelined') return client.write(data);
  for (const piece of pieces(data, next, mode === 'slow' ? 12 : 1 + Math.floor(next() * 20))) {
    client.write(piece);
    if (mode === 'slow') await delay(2 + Math.floor(next() * 5));
  }
};

const envelopeReplies = async (client: RawSmtp, commands: string[], pipelined: boolean): Promise<Reply[]> => {
  if (!pipelined) {
    const replies: Reply[] = [];
    for (const command of commands) replies.push(await client.command(command));
    return replies;
  }
  client.write(`${commands.join('\r\n')}\r\n`);
  return Promise.all(commands.map(() => client.next()));
};

/** One message case on a reused session; the session is fit for the next case afterwards. */
export const runMessage = async (client: RawSmtp, c: MessageCase & Id, result: RunResult): Promise<void> => {
  const body = bodyOf(c, c.id);
  const expected = expectedFor(c, body);
  const commands = ['RSET', 'MAIL FROM:<fuzz@example.org>', ...c.rcpts.map((rcpt) => `RCPT TO:<${rcpt}>`), 'DATA'];
  const replies = await envelopeReplies(client, commands, c.mode === 'pipelined');
  const codes = replies.map((reply) => reply.code);
  check(codes.slice(0, 2).join() === '250,250', `RSET/MAIL answered ${codes.slice(0, 2).join()}`);
  check(codes.slice(2, -1).join() === expected.rcptCodes.join(), `RCPT answered ${codes.slice(2, -1).join()}, expected ${expected.rcptCodes.join()}`);
  const data = codes[codes.length - 1]!;
  let final = data;
  if (expected.code === 503) check(data === 503, `DATA without recipients answered ${data}`);
  else {
    check(data === 354, `DATA answered ${data}`);
    await writeData(client, Buffer.concat([dotStuff(body), END]), c.mode, c.seed);
    const reply = await client.next(30_000);
    final = reply.code;
    check(final === expected.code, `message answered ${final} ${reply.text}, expected ${expected.code}`);
  }
  result.finalCodes.set(final, (result.finalCodes.get(final) ?? 0) + 1);
  if (expected.delivered) result.expectations.set(c.id, { ...expected, digest: digest(Buffer.concat([body, Buffer.from('\r\n')])) });
  else result.neverDelivered.add(c.id);
};

const VERBS = ['HELO', 'EHLO', 'LHLO', 'MAIL FROM:', 'VRFY', 'EXPN', 'HELP', 'NOOP', 'RSET', 'DATA', 'BDAT 100', 'TURN', 'ETRN',
  'STARTTLS', 'AUTH LOGIN', 'AUTH PLAIN', 'XCLIENT ADDR=', 'XFORWARD NAME=', 'WIZ', 'SHELL', 'KILL', 'RCPT TO:', '\0', 'QUIT\0'];

const garbageLine = (next: () => number): Buffer => {
  const roll = next();
  const junk = (length: number): string =>
    Array.from({ length }, () => String.fromCharCode(next() < 0.8 ? 32 + Math.floor(next() * 95) : Math.floor(next() * 256))).join('')
      .replace(/[\r\n<@]/g, '#');
  if (roll < 0.3) return Buffer.from(junk(Math.floor(next() * 200)), 'latin1');
  if (roll < 0.85) return Buffer.from(`${VERBS[Math.floor(next() * VERBS.length)]}${next() < 0.5 ? ' ' : ''}${junk(Math.floor(next() * 60))}`, 'latin1');
  if (roll < 0.92) return Buffer.from('GET / HTTP/1.1');
  return Buffer.from('X'.repeat(2_049 + Math.floor(next() * 4_000)));
};

/** Pipelined garbage then QUIT: every reply must be a proper code and the session must end. */
export const runGarbage = async (port: number, c: GarbageCase & Id): Promise<void> => {
  const { client, greeting } = await RawSmtp.open(port);
  check(greeting.code === 220, `greeting ${greeting.code}`);
  const next = prng(c.seed);
  const eol = Buffer.from(c.bareLf ? '\n' : '\r\n');
  client.write(Buffer.concat([...Array.from({ length: c.lines }, () => [garbageLine(next), eol]).flat(), Buffer.from('QUIT\r\n')]));
  await client.closedWithin(10_000);
  const bad = client.drain().filter((reply) => !(reply.code >= 200 && reply.code < 600));
  check(bad.length === 0, `malformed replies ${JSON.stringify(bad)}`);
};

const openTransaction = async (port: number): Promise<RawSmtp> => {
  const { client } = await RawSmtp.open(port);
  const replies = await envelopeReplies(client, ['EHLO fuzz.test', 'MAIL FROM:<fuzz@example.org>', 'RCPT TO:<ok1@inbox.test>', 'DATA'], true);
  check(replies[3]?.code === 354, `DATA answered ${replies[3]?.code}`);
  return client;
};

/** The client vanishes mid-message (FIN or RST): nothing of it may be delivered. */
export const runAbort = async (port: number, c: AbortCase & Id, result: RunResult): Promise<void> => {
  const client = await openTransaction(port);
  const stuffed = dotStuff(bodyOf(c, c.id));
  client.write(stuffed.subarray(0, Math.floor(c.cut * stuffed.length)));
  if (c.reset) client.socket.resetAndDestroy();
  else client.socket.end();
  await client.closedWithin(10_000);
  result.neverDelivered.add(c.id);
};

/** The client stops mid-message and stays: the idle timeout must answer 421 and close. */
export const runStall = async (port: number, c: FuzzCase, result: RunResult): Promise<void> => {
  const client = await openTransaction(port);
  client.write(`X-Fuzz-Id: ${c.id}\r\nSubject: never finished\r\n\r\nhalf`);
  const reply = await client.next(STALL_IDLE_MS * 4);
  check(reply.code === 421, `stalled client got ${reply.code}`);
  await client.closedWithin(10_000);
  result.neverDelivered.add(c.id);
};
