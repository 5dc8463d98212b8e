import type { MailSender, OutgoingMail } from '@ephemail/core';
import nodemailer from 'nodemailer';

/** Options of {@link createNodemailerMailSender}. */
export interface NodemailerMailSenderOptions {
  /**
   * The relay, e.g. `smtp://user:pass@relay:587` (STARTTLS when offered) or
   * `smtps://user:pass@relay:465` (TLS from the start). Query parameters are nodemailer
   * transport options, e.g. `?pool=true` to keep connections open.
   */
  readonly url: string;
  /** The From address of every message, e.g. `ephemail <no-reply@example.com>`. */
  readonly from: string;
}

/** A {@link MailSender} that also releases its relay connections. */
export interface NodemailerMailSender extends MailSender {
  /** Closes pooled relay connections; sending afterwards is not supported. */
  close(): void;
}

/**
 * Sends mail through an SMTP relay with nodemailer. `send` resolves with the Message-ID
 * the message was sent with once the relay answered 250, and rejects when the relay
 * refused it (any 4xx/5xx) or could not be reached.
 */
export const createNodemailerMailSender = (options: NodemailerMailSenderOptions): NodemailerMailSender => {
  const protocol = new URL(options.url).protocol;
  if (protocol !== 'smtp:' && protocol !== 'smtps:') {
    throw new TypeError(`mail-smtp: the relay URL must start with smtp:// or smtps://, got ${protocol}//`);
  }
  const transport = nodemailer.createTransport(options.url);

  const send = async (mail: OutgoingMail): Promise<{ readonly messageId: string }> => {
    const info = await transport.sendMail({
      from: options.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      ...(mail.html === undefined ? {} : { html: mail.html }),
      ...(mail.headers === undefined ? {} : { headers: { ...mail.headers } }),
    });
    return { messageId: info.messageId };
  };

  return { send, close: () => transport.close() };
};
