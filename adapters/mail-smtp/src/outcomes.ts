import type { DeliveryOutcome, SMTP_OUTCOMES } from '@ephemail/core';
import type { IngressVerdict } from './replies.js';

/** What the MX did with a message or a recipient, as `ephemail_smtp_messages_total` counts it. */
export type SmtpOutcome = (typeof SMTP_OUTCOMES)[number];

const OF_VERDICT: Readonly<Record<Exclude<IngressVerdict, 'accept'>, SmtpOutcome>> = {
  unknown: 'unknown_recipient',
  expired: 'expired',
  squashed: 'squashed',
  over_quota: 'full',
  unparseable: 'unparseable',
};

/** The outcome of a recipient core refused. */
export const outcomeOfVerdict = (verdict: Exclude<IngressVerdict, 'accept'>): SmtpOutcome => OF_VERDICT[verdict];

/**
 * The outcome of a delivered message, picked as `replyForDelivery` picks its reply: accepted
 * when any copy was newly stored, a duplicate when every stored copy was there already (a
 * byte-identical resend, ADR 0029), else the reason of the refusal answered, a temporary one
 * (a full mailbox) first.
 */
export const outcomeOfDelivery = (outcomes: readonly DeliveryOutcome[]): SmtpOutcome => {
  let duplicate = false;
  let refused: Exclude<IngressVerdict, 'accept'> | undefined;
  for (const outcome of outcomes) {
    if (outcome.kind === 'stored') {
      if (!outcome.duplicate) return 'accepted';
      duplicate = true;
    } else if (refused === undefined || outcome.reason === 'over_quota') {
      refused = outcome.reason;
    }
  }
  if (duplicate) return 'duplicate';
  return refused === undefined ? 'failed' : OF_VERDICT[refused];
};
