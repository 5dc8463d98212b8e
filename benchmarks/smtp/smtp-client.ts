/**
 * A minimal SMTP client on a raw socket, for the latency measurement: it needs the exact moment
 * the final `<CRLF>.<CRLF>` of DATA was handed to the socket, which a mail library hides.
 * One command at a time, no pipelining, no TLS.
 */
import type { Socket } from 'node:net';
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface Reply {
  readonly code: number;
  readonly text: string;
}

export class SmtpClient {
  private buffered = '';
  private lines: string[] = [];
  private waiting: ((reply: Reply) => void) | undefined;
  private failure: Error | undefined;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new Error('the SMTP server closed the connection')));
  }

  /** Connects and reads the 220 greeting. */
  static async open(port: number): Promise<SmtpClient> {
    const socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    const client = new SmtpClient(socket);
    await expect(client.reply(), 220, 'greeting');
    await expect(client.command('EHLO bench.test'), 250, 'EHLO');
    return client;
  }

  command(line: string): Promise<Reply> {
    const reply = this.reply();
    this.socket.write(`${line}\r\n`);
    return reply;
  }

  /**
   * One whole transaction. `endOfData` is performance.now() right after the final dot was
   * written; `reply` is the server's answer to the message (250 once it is stored).
   */
  async send(from: string, to: string, message: string): Promise<{ endOfData: number; reply: Reply }> {
    await expect(this.command(`MAIL FROM:<${from}>`), 250, 'MAIL FROM');
    await expect(this.command(`RCPT TO:<${to}>`), 250, 'RCPT TO');
    await expect(this.command('DATA'), 354, 'DATA');
    const reply = this.reply();
    // Dot-stuffing: a line that starts with a dot gets a second one.
    this.socket.write(`${message.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..')}\r\n.\r\n`);
    const endOfData = performance.now();
    return { endOfData, reply: await reply };
  }

  async quit(): Promise<void> {
    await this.command('QUIT').catch(() => undefined);
    this.socket.destroy();
  }

  private reply(): Promise<Reply> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.deliver();
    });
  }

  private onData(chunk: Buffer): void {
    const parts = (this.buffered + chunk.toString('latin1')).split('\r\n');
    this.buffered = parts.pop() ?? '';
    this.lines.push(...parts);
    this.deliver();
  }

  // A reply is complete at its last line, "NNN text" (continuation lines read "NNN-text").
  private deliver(): void {
    const end = this.lines.findIndex((line) => /^\d{3}(?: |$)/.test(line));
    if (end < 0 || this.waiting === undefined) return;
    const lines = this.lines.splice(0, end + 1);
    const last = lines.at(-1) ?? '';
    const resolve = this.waiting;
    this.waiting = undefined;
    resolve({ code: Number(last.slice(0, 3)), text: lines.map((line) => line.slice(4)).join('\n') });
  }

  private fail(error: Error): void {
    this.failure ??= error;
    const resolve = this.waiting;
    this.waiting = undefined;
    // A pending reply becomes a 0 "no answer", which every caller treats as a failure.
    resolve?.({ code: 0, text: error.message });
  }
}

const expect = async (pending: Promise<Reply>, code: number, step: string): Promise<Reply> => {
  const reply = await pending;
  if (reply.code !== code) throw new Error(`${step} answered ${reply.code} ${reply.text}, expected ${code}`);
  return reply;
};
