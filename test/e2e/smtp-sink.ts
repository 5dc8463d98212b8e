import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail the sink received: its recipients and its raw text. */
export interface SunkMail {
  readonly to: string;
  readonly text: string;
}

/**
 * A local SMTP server that keeps every message it is sent: where the host's outbound mail
 * (`SMTP_OUTBOUND_URL`) goes in tests, so a test reads the sign-in link a person would.
 */
export const startSmtpSink = async () => {
  const mails: SunkMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), text: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { mails, url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
};
