import type { DeliveryOutcome, RecipientVerdict } from '@ephemail/core';

/** One SMTP reply: the code and the text after it (which starts with the enhanced status code). */
export interface SmtpReply {
  readonly code: number;
  readonly text: string;
}

/** Every verdict core can give about a recipient, at RCPT time or after delivery. */
export type IngressVerdict = RecipientVerdict['kind'] | 'unparseable';

const assertNever = (value: never): never => {
  throw new Error(`mail-smtp: unhandled ingress verdict ${String(value)}`);
};

/**
 * The one mapping from core's verdicts to SMTP replies. `undefined` means "accepted": the
 * library then answers RCPT with its own 250, and a stored message gets {@link queued}.
 */
export const replyForVerdict = (verdict: IngressVerdict, address: string): SmtpReply | undefined => {
  switch (verdict) {
    case 'accept':
      return undefined;
    case 'unknown':
      return { code: 550, text: `5.1.1 <${address}>: no such mailbox` };
    case 'expired':
      return { code: 550, text: `5.2.1 <${address}>: mailbox expired` };
    case 'squashed':
      return { code: 550, text: `5.2.1 <${address}>: mailbox squashed` };
    case 'over_quota':
      return { code: 452, text: `4.2.2 <${address}>: mailbox full` };
    case 'unparseable':
      return { code: 554, text: '5.6.0 message could not be parsed' };
    default:
      return assertNever(verdict);
  }
};

/** Replies that do not depend on a verdict. Enhanced codes per RFC 3463. */
export const REPLIES = {
  /** checkRecipient threw: the store is unreachable, the sender should retry the RCPT. */
  recipientCheckFailed: { code: 451, text: '4.3.0 temporary failure' },
  /** deliver threw: nothing was acknowledged, the sender keeps the message and retries. */
  deliveryFailed: { code: 451, text: '4.3.0 temporary failure, try again' },
  messageTooBig: { code: 552, text: '5.3.4 message too big' },
  tooManyRecipients: { code: 452, text: '4.5.3 too many recipients' },
  /** Over `maxConnections` or `maxConnectionsPerIp`. */
  tooManyConnections: { code: 421, text: '4.7.0 too many connections, try again later' },
  /** Over `maxConnectionsPerNetwork`: the client's network holds its whole share of the server. */
  tooManyFromNetwork: { code: 421, text: '4.7.0 too many connections from your network, try again later' },
  tooManyMessages: { code: 421, text: '4.7.0 too many messages in one session, reconnect' },
  sessionTooLong: { code: 421, text: '4.4.2 session time limit reached, closing connection' },
} as const satisfies Record<string, SmtpReply>;

/** A line of message data over the limit; 5.2.3 as large providers use for it. */
export const lineTooLong = (limit: number): SmtpReply => ({ code: 552, text: `5.2.3 line too long (limit ${limit} bytes)` });

/** The final reply to DATA once core stored the message. */
export const queued = (messageId: string): SmtpReply => ({ code: 250, text: `2.0.0 Ok: queued as ${messageId}` });

/**
 * One SMTP reply for the whole message (SMTP, unlike LMTP, has one reply per DATA).
 * Any stored copy makes it a success: recipients rejected since RCPT (expired meanwhile) are
 * dropped, as they would be a moment later anyway. With none stored, a temporary reason wins
 * over a permanent one, so the sender retries and the retry's RCPT sorts the recipients out.
 */
export const replyForDelivery = (outcomes: readonly DeliveryOutcome[]): SmtpReply => {
  const stored = outcomes.find((outcome) => outcome.kind === 'stored');
  if (stored?.kind === 'stored') return queued(stored.messageId);
  const replies = outcomes.flatMap((outcome) =>
    outcome.kind === 'rejected' ? [replyForVerdict(outcome.reason, outcome.recipient) ?? REPLIES.deliveryFailed] : [],
  );
  // An empty answer breaks the port's contract; not acknowledging is the safe reading.
  return replies.find((reply) => reply.code < 500) ?? replies[0] ?? REPLIES.deliveryFailed;
};
