/**
 * The smtp-server baselines of the smtp benchmark, run as their own process:
 *
 * - `SINK_MODE=discard`: accepts every message and throws the bytes away;
 * - `SINK_MODE=parse`: reads the whole message, parses it with the host's MIME parser
 *   (createPostalMimeMailParser) and then throws it away. A message the parser refuses is
 *   answered 554, which stops smtp-source, so a broken baseline cannot pass for a fast one.
 *
 * Both are configured like the host's MX where the library lets them differ: no AUTH, no
 * STARTTLS, no reverse DNS lookup, no logging, and no greeting delay (see below).
 * Prints `{"port": <n>}` once listening; stops on SIGTERM or SIGINT.
 */
import { createPostalMimeMailParser } from '@ephemail/mail-parse';
import type { SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import { SMTPServer } from 'smtp-server';
import { SMTPConnection } from 'smtp-server/lib/smtp-connection.js';

type DataCallback = (err?: Error | null, message?: string) => void;

const mode = process.env.SINK_MODE;
if (mode !== 'discard' && mode !== 'parse') throw new Error(`SINK_MODE must be discard or parse, got "${mode}"`);

// smtp-server waits a fixed 100 ms before its 220 greeting to catch clients that talk first.
// With one message per connection that wait, not the server's work, sets the rate (20 sessions
// top out near 200 msg/s). The host's MX greets at once by default (SMTP_GREETING_DELAY_MS=0),
// so the baselines do the same: the greeting goes out as soon as the socket is set up.
SMTPConnection.prototype.init = function greetAtOnce(this: SMTPConnection): void {
  this._setListeners(() => this.connectionReady());
};

const parser = createPostalMimeMailParser();

const discard = (stream: SMTPServerDataStream, callback: DataCallback): void => {
  stream.on('end', () => callback(null, 'Discarded'));
  stream.resume();
};

const parseThenDiscard = (stream: SMTPServerDataStream, session: SMTPServerSession, callback: DataCallback): void => {
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => {
    const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
    parser.parse(Buffer.concat(chunks), from).then(
      (outcome) => callback(outcome.ok ? null : Object.assign(new Error('Unparseable message'), { responseCode: 554 }), 'Parsed'),
      (err: unknown) => callback(Object.assign(new Error(`Parser failed: ${String(err)}`), { responseCode: 554 })),
    );
  });
};

const server = new SMTPServer({
  disabledCommands: ['AUTH', 'STARTTLS'],
  authOptional: true,
  disableReverseLookup: true,
  logger: false,
  size: 25 * 1024 * 1024,
  onData: (stream, session, callback) => (mode === 'parse' ? parseThenDiscard(stream, session, callback) : discard(stream, callback)),
});
// A client that drops its connection mid-session is no reason to stop the baseline.
server.on('error', () => undefined);

server.listen(0, '127.0.0.1', () => {
  const address = server.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  console.log(JSON.stringify({ port, mode }));
});

const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
