import test from 'ava';
import type { DeliveryOutcome } from '@ephemail/core';
import { REPLIES, replyForDelivery, replyForVerdict, type IngressVerdict } from '../src/index.js';
import { resolveOptions } from '../src/options.js';

const table: readonly [IngressVerdict, number | undefined, string][] = [
  ['accept', undefined, ''],
  ['unknown', 550, '5.1.1 <a@inbox.test>: no such mailbox'],
  ['expired', 550, '5.2.1 <a@inbox.test>: mailbox expired'],
  ['squashed', 550, '5.2.1 <a@inbox.test>: mailbox squashed'],
  ['over_quota', 452, '4.2.2 <a@inbox.test>: mailbox full'],
  ['unparseable', 554, '5.6.0 message could not be parsed'],
];

for (const [verdict, code, text] of table) {
  test(`replies: the ${verdict} verdict answers ${code ?? 'with the library 250'}`, (t) => {
    const reply = replyForVerdict(verdict, 'a@inbox.test');
    t.is(reply?.code, code);
    if (reply) t.is(reply.text, text);
  });
}

const stored = (recipient: string): DeliveryOutcome => ({ recipient, kind: 'stored', messageId: `msg_${recipient}`, identityId: 'idn_1', duplicate: false });
type Reason = Extract<DeliveryOutcome, { kind: 'rejected' }>['reason'];
const rejected = (recipient: string, reason: Reason): DeliveryOutcome => ({ recipient, kind: 'rejected', reason });

test('replies: one stored copy makes the delivery a 250 queued as its message id', (t) => {
  t.deepEqual(replyForDelivery([rejected('a', 'expired'), stored('b')]), { code: 250, text: '2.0.0 Ok: queued as msg_b' });
});

test('replies: with nothing stored a temporary reason wins over a permanent one', (t) => {
  t.is(replyForDelivery([rejected('a', 'unknown'), rejected('b', 'over_quota')]).code, 452);
  t.is(replyForDelivery([rejected('a', 'squashed'), rejected('b', 'expired')]).text, '5.2.1 <a>: mailbox squashed');
});

test('replies: every recipient unparseable answers 554 5.6.0', (t) => {
  t.deepEqual(replyForDelivery([rejected('a', 'unparseable'), rejected('b', 'unparseable')]), { code: 554, text: '5.6.0 message could not be parsed' });
});

test('replies: an empty delivery answer is not acknowledged', (t) => {
  t.deepEqual(replyForDelivery([]), REPLIES.deliveryFailed);
});

test('options: a zero, negative or fractional limit is refused at start-up', (t) => {
  t.throws(() => resolveOptions({ maxRecipients: 0 }), { message: /maxRecipients/ });
  t.throws(() => resolveOptions({ maxMessageBytes: -1 }), { message: /maxMessageBytes/ });
  t.throws(() => resolveOptions({ idleTimeoutMs: 1.5 }), { message: /idleTimeoutMs/ });
  t.throws(() => resolveOptions({ sessionTimeoutMs: Number.POSITIVE_INFINITY }), { message: /sessionTimeoutMs/ });
  t.throws(() => resolveOptions({ greetingDelayMs: -1 }), { message: /greetingDelayMs/ });
});

test('options: undefined options take their defaults', (t) => {
  const resolved = resolveOptions({ maxRecipients: undefined, greetingDelayMs: undefined });
  t.is(resolved.maxRecipients, 100);
  t.is(resolved.greetingDelayMs, 0);
  t.is(resolved.maxMessageBytes, 25 * 1024 * 1024);
});
