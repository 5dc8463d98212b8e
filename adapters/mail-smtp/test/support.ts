import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { ExecutionContext } from 'ava';
import type { DeliveryOutcome, InboundEnvelope, MailIngress, RecipientVerdict } from '@ephemail/core';
import { createSmtpInbound, type SmtpInboundOptions } from '../src/index.js';

/** A message as the in-test ingress received it. */
export interface Delivered {
  readonly raw: Buffer;
  readonly envelope: InboundEnvelope;
}

/** Local part → verdict; any address not listed is accepted. */
export type VerdictTable = Readonly<Record<string, RecipientVerdict['kind']>>;

/**
 * A small MailIngress of our own that keeps what it was given. `deliver` can be replaced per
 * test to hold, fail or reject.
 */
export class ArrayIngress implements MailIngress {
  readonly delivered: Delivered[] = [];
  deliverImpl: (raw: Buffer, envelope: InboundEnvelope) => Promise<readonly DeliveryOutcome[]> = async (raw, envelope) => {
    this.delivered.push({ raw, envelope });
    return envelope.rcptTo.map((recipient) => ({ recipient, kind: 'stored', messageId: `msg_${randomBytes(6).toString('hex')}`, identityId: 'idn_1', duplicate: false }));
  };
  checkImpl: (address: string) => Promise<RecipientVerdict> = async (address) => {
    const kind = this.verdicts[address.slice(0, address.indexOf('@'))] ?? 'accept';
    return kind === 'accept' ? { kind, identityId: 'idn_1' } : { kind };
  };

  constructor(private readonly verdicts: VerdictTable = {}) {}

  checkRecipient(address: string): Promise<RecipientVerdict> {
    return this.checkImpl(address);
  }

  deliver(raw: Uint8Array, envelope: InboundEnvelope): Promise<readonly DeliveryOutcome[]> {
    return this.deliverImpl(Buffer.from(raw), envelope);
  }
}

/** Starts an MX on 127.0.0.1, port 0, closed when the test ends. */
export const startServer = async (t: ExecutionContext, ingress: MailIngress, options: SmtpInboundOptions = {}): Promise<number> => {
  const inbound = createSmtpInbound(ingress, { closeTimeoutMs: 1_000, ...options });
  const { port } = await inbound.listen(0, '127.0.0.1');
  t.teardown(() => inbound.close());
  return port;
};

/** One SMTP reply, all its lines joined. */
export interface Reply {
  readonly code: number;
  readonly text: string;
  readonly lines: readonly string[];
}

/** A raw SMTP client over `net`: we see every byte the server sends, nothing is hidden. */
export class RawSmtp {
  private pending = '';
  private lines: string[] = [];
  private readonly replies: Reply[] = [];
  private readonly waiters: ((reply: Reply | undefined) => void)[] = [];
  private ended = false;
  readonly closed: Promise<void>;

  private constructor(readonly socket: net.Socket) {
    // Commands are small writes; without this, Nagle holds each one for the previous ACK.
    socket.setNoDelay(true);
    socket.on('data', (data: Buffer) => this.onData(data.toString('latin1')));
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => socket.once('close', () => {
      this.ended = true;
      for (const waiter of this.waiters.splice(0)) waiter(undefined);
      resolve();
    }));
  }

  /** Connects from `from` (any 127.x.y.z is loopback on Linux), by default 127.0.0.1. */
  static connect(port: number, from?: string): Promise<RawSmtp> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ port, host: '127.0.0.1', localAddress: from }, () => resolve(new RawSmtp(socket)));
      socket.once('error', reject);
    });
  }

  /** Connects and reads the greeting. */
  static async open(port: number, from?: string): Promise<{ client: RawSmtp; greeting: Reply }> {
    const client = await RawSmtp.connect(port, from);
    return { client, greeting: await client.next() };
  }

  /** Replies received and not yet read. */
  get unread(): number {
    return this.replies.length;
  }

  /** Takes every reply received and not yet read. */
  drain(): Reply[] {
    return this.replies.splice(0);
  }

  /** Resolves when the connection closed; rejects if that takes longer than `timeoutMs`. */
  closedWithin(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still open after ${timeoutMs} ms`)), timeoutMs)));
    return Promise.race([this.closed, late]).finally(() => clearTimeout(timer));
  }

  get isClosed(): boolean {
    return this.ended;
  }

  write(data: string | Buffer): void {
    if (!this.socket.destroyed) this.socket.write(data);
  }

  /** The next reply; rejects when the connection closes first or nothing comes in time (by default a bound that only catches a hang). */
  next(timeoutMs = 60_000): Promise<Reply> {
    const ready = this.replies.shift();
    if (ready !== undefined) return Promise.resolve(ready);
    if (this.ended) return Promise.reject(new Error('connection closed'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reply within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push((reply) => {
        clearTimeout(timer);
        if (reply === undefined) reject(new Error('connection closed'));
        else resolve(reply);
      });
    });
  }

  /** Sends one command line and reads its reply. */
  command(line: string, timeoutMs?: number): Promise<Reply> {
    this.write(`${line}\r\n`);
    return this.next(timeoutMs);
  }

  /** EHLO, MAIL FROM and each RCPT TO; returns the RCPT replies. */
  async envelope(from: string, to: readonly string[]): Promise<Reply[]> {
    await this.command('EHLO client.test');
    await this.command(`MAIL FROM:<${from}>`);
    const replies: Reply[] = [];
    for (const rcpt of to) replies.push(await this.command(`RCPT TO:<${rcpt}>`));
    return replies;
  }

  /** DATA, the (already dot-stuffed) body and the final dot; returns the final reply. */
  async data(body: string | Buffer, timeoutMs?: number): Promise<Reply> {
    const go = await this.command('DATA');
    if (go.code !== 354) return go;
    this.write(Buffer.concat([Buffer.from(body), Buffer.from('\r\n.\r\n')]));
    return this.next(timeoutMs);
  }

  quit(): void {
    this.write('QUIT\r\n');
    this.socket.end();
  }

  destroy(): void {
    this.socket.destroy();
  }

  private onData(text: string): void {
    this.pending += text;
    let end = this.pending.indexOf('\n');
    while (end !== -1) {
      const line = this.pending.slice(0, end).replace(/\r$/, '');
      this.pending = this.pending.slice(end + 1);
      this.lines.push(line);
      if (line[3] !== '-') this.emit();
      end = this.pending.indexOf('\n');
    }
  }

  private emit(): void {
    const lines = this.lines.map((line) => line.slice(4));
    const reply = { code: Number(this.lines[0]?.slice(0, 3)), text: lines.join('\n'), lines };
    this.lines = [];
    const waiter = this.waiters.shift();
    if (waiter) waiter(reply);
    else this.replies.push(reply);
  }
}

/**
 * Connects until a session is admitted: a slot freed by a client that just left is released
 * once the server has seen that close, a moment after the client has.
 */
export const openAdmitted = async (port: number, from?: string): Promise<RawSmtp> => {
  for (let attempt = 0; attempt < 50; attempt++) {
    const { client, greeting } = await RawSmtp.open(port, from);
    if (greeting.code === 220) return client;
    await client.closed;
  }
  throw new Error('never admitted');
};

/** A small, well-formed message. */
export const message = (subject = 'hello', body = 'Your code is 123456.'): string =>
  [`From: sender@example.org`, `To: someone@inbox.test`, `Subject: ${subject}`, `Message-ID: <${randomBytes(8).toString('hex')}@example.org>`, '', body].join('\r\n');
