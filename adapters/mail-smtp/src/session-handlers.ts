import { performance } from 'node:perf_hooks';
import type { DeliveryOutcome, InboundEnvelope, MailIngress } from '@ephemail/core';
import type { SMTPServerAddress, SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import { MessageCollector } from './message-collector.js';
import type { MxServer } from './mx-server.js';
import type { ResolvedSmtpInboundOptions } from './options.js';
import { outcomeOfDelivery, outcomeOfVerdict, type SmtpOutcome } from './outcomes.js';
import { REPLIES, lineTooLong, replyForDelivery, replyForVerdict, type SmtpReply } from './replies.js';
import type { Admission, SessionRegistry } from './session-registry.js';

type Callback = (err?: Error | null) => void;
type DataCallback = (err?: Error | null, message?: string) => void;

/** smtp-server sends `err.responseCode` and `err.message` as the reply. */
const replyError = (reply: SmtpReply): Error => Object.assign(new Error(reply.text), { responseCode: reply.code });

const envelopeOf = (session: SMTPServerSession): InboundEnvelope => {
  const from = session.envelope.mailFrom;
  return {
    mailFrom: from === false || from.address === '' ? null : from.address,
    rcptTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
    transport: 'smtp',
    remoteAddress: session.remoteAddress,
    heloName: session.hostNameAppearsAs || undefined,
  };
};

const assertNever = (value: never): never => {
  throw new Error(`mail-smtp: unhandled admission ${String(value)}`);
};

/** The reply to a session refused at connect, by the limit it met. */
const refusal = (admission: Exclude<Admission, 'admitted'>): SmtpReply => {
  switch (admission) {
    case 'address_full':
    case 'server_full':
      return REPLIES.tooManyConnections;
    case 'network_full':
      return REPLIES.tooManyFromNetwork;
    default:
      return assertNever(admission);
  }
};

const isListed = (session: SMTPServerSession, address: string): boolean =>
  session.envelope.rcptTo.some((rcpt) => rcpt.address.toLowerCase() === address.toLowerCase());

/**
 * The smtp-server callbacks of one inbound server: every SMTP decision of the MX is here,
 * the protocol itself is the library's. Members are arrow functions so they can be handed
 * to smtp-server's options as they are.
 */
export class SessionHandlers {
  constructor(
    private readonly ingress: MailIngress,
    private readonly config: ResolvedSmtpInboundOptions,
    private readonly sessions: SessionRegistry,
    private readonly server: () => MxServer,
  ) {}

  private counted(outcome: SmtpOutcome): void {
    this.config.meter.count('ephemail_smtp_messages_total', outcome);
  }

  readonly onConnect = (session: SMTPServerSession, callback: Callback): void => {
    const fields = { session: session.id, ip: session.remoteAddress };
    const deadline = (): void => {
      this.config.logger.info(fields, 'smtp: session time limit reached');
      this.server().connectionOf(session.id)?.send(REPLIES.sessionTooLong.code, REPLIES.sessionTooLong.text);
    };
    const admission = this.sessions.admit(session.id, session.remoteAddress, deadline);
    if (admission === 'admitted') return callback();
    this.config.logger.warn({ session: session.id, ip: session.remoteAddress, limit: admission }, 'smtp: connection refused, too many connections');
    this.counted('rate');
    callback(replyError(refusal(admission)));
  };

  readonly onClose = (session: SMTPServerSession): void => this.sessions.release(session.id);

  readonly onMailFrom = (_address: SMTPServerAddress, session: SMTPServerSession, callback: Callback): void => {
    // `transaction` counts from 1 and grows after each DATA, answered or refused.
    if (session.transaction <= this.config.maxMessagesPerConnection) return callback();
    this.counted('rate');
    callback(replyError(REPLIES.tooManyMessages));
  };

  readonly onRcptTo = (address: SMTPServerAddress, session: SMTPServerSession, callback: Callback): void => {
    const rcpt = address.address;
    // A repeated RCPT replaces its entry in the library, so it does not count twice.
    if (session.envelope.rcptTo.length >= this.config.maxRecipients && !isListed(session, rcpt)) {
      this.counted('too_many_recipients');
      return callback(replyError(REPLIES.tooManyRecipients));
    }
    void this.recipientReply(rcpt, session).then((reply) => callback(reply === undefined ? null : replyError(reply)));
  };

  readonly onData = (stream: SMTPServerDataStream, session: SMTPServerSession, callback: DataCallback): void => {
    const collector = new MessageCollector(this.config.maxMessageBytes, this.config.maxLineLength);
    let answered = false;
    const answer = (reply: SmtpReply): void => {
      if (answered) return;
      answered = true;
      if (reply.code === 250) callback(null, reply.text);
      else callback(replyError(reply));
    };
    stream.on('data', (chunk: Buffer) => collector.push(chunk));
    // The client vanished mid-message: nobody hears the reply, but the session is released.
    stream.once('error', () => answer(REPLIES.deliveryFailed));
    // The library replies only once we call back, so 250 waits for deliver to resolve.
    stream.once('end', () => void this.decide(collector, session).then(answer));
  };

  // One try around the call and the mapping: whatever goes wrong, the client gets a reply.
  private async recipientReply(rcpt: string, session: SMTPServerSession): Promise<SmtpReply | undefined> {
    try {
      const verdict = await this.ingress.checkRecipient(rcpt);
      if (verdict.kind === 'accept') return undefined;
      this.config.logger.info({ session: session.id, rcpt, verdict: verdict.kind }, 'smtp: recipient refused');
      this.counted(outcomeOfVerdict(verdict.kind));
      return replyForVerdict(verdict.kind, rcpt);
    } catch (err) {
      this.config.logger.error({ session: session.id, rcpt, err }, 'smtp: recipient check failed');
      this.counted('failed');
      return REPLIES.recipientCheckFailed;
    }
  }

  private async decide(collector: MessageCollector, session: SMTPServerSession): Promise<SmtpReply> {
    const dataEnded = performance.now();
    this.config.meter.count('ephemail_smtp_received_bytes_total', '', collector.size);
    const verdict = collector.verdict();
    // Each entry's fields as one literal: `{ ...fields, code }` for every message put the entry in
    // V8's old generation, which grew until a full collection (ADR 0024).
    const fields = <T extends object>(more: T) => Object.assign({ session: session.id, bytes: collector.size, recipients: session.envelope.rcptTo.length }, more);
    if (verdict !== 'ok') {
      this.config.logger.info(fields({ verdict }), 'smtp: message refused');
      this.counted(verdict === 'too_big' ? 'too_large' : 'line_too_long');
      return verdict === 'too_big' ? REPLIES.messageTooBig : lineTooLong(this.config.maxLineLength);
    }
    try {
      return this.answered(await this.ingress.deliver(collector.bytes(), envelopeOf(session)), dataEnded, fields);
    } catch (err) {
      this.counted('failed');
      this.config.logger.error(fields({ err }), 'smtp: delivery failed, answered 451');
      return REPLIES.deliveryFailed;
    }
  }

  /** The reply to a delivered message, counted and logged. */
  private answered(outcomes: readonly DeliveryOutcome[], dataEnded: number, fields: (more: object) => object): SmtpReply {
    const reply = replyForDelivery(outcomes);
    const outcome = outcomeOfDelivery(outcomes);
    this.counted(outcome);
    if (outcome === 'accepted' || outcome === 'duplicate') {
      this.config.meter.observe('ephemail_smtp_delivery_duration_seconds', (performance.now() - dataEnded) / 1000);
    }
    // Copies stored now, and copies the identity held already (a resend of the same bytes).
    let stored = 0;
    let duplicates = 0;
    for (const each of outcomes) {
      if (each.kind !== 'stored') continue;
      if (each.duplicate) duplicates += 1;
      else stored += 1;
    }
    const message = outcome === 'duplicate' ? 'smtp: duplicate message answered, nothing stored' : 'smtp: message answered';
    this.config.logger.info(fields({ code: reply.code, stored, duplicates }), message);
    return reply;
  }
}
