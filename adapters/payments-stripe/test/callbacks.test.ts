import test from 'ava';
import fc from 'fast-check';
import type { CallbackVerdict } from '@ephemail/core';
import { createStripePaymentProvider } from '../src/index.js';
import { at, checkoutSession, invoice, invoiceLine, signed, stripeEvent, subscription } from './events.js';
import { OPTIONS, WEBHOOK_SECRET } from './options.js';
import { clientFor } from './stand-in.js';

// Verifying a callback makes no request: the client never reaches its (closed) port.
const stripe = clientFor(9);
const provider = createStripePaymentProvider(stripe, OPTIONS);

const verify = (event: unknown, secret = WEBHOOK_SECRET, timestamp?: number): CallbackVerdict => {
  const { body, headers } = signed(stripe, event, secret, timestamp);
  return provider.verifyCallback(body, headers);
};

const eventOf = (verdict: CallbackVerdict) => (verdict.kind === 'event' ? verdict.event : undefined);

test('payments-stripe callbacks: a completed subscription checkout is checkout.completed with the metadata the session was made with', (t) => {
  const session = checkoutSession();
  const event = stripeEvent('checkout.session.completed', session, at('2026-03-01T12:00:00Z'));
  t.deepEqual(verify(event), {
    kind: 'event',
    event: {
      type: 'checkout.completed',
      eventId: event.id,
      orgId: session.metadata.org_id,
      plan: 'pro',
      reference: session.metadata.reference,
      customerReference: session.customer,
      subscriptionReference: session.subscription,
      // The session carries no period: it begins and ends at completion until invoice.paid.
      periodStart: '2026-03-01T12:00:00.000Z',
      periodEnd: '2026-03-01T12:00:00.000Z',
    },
  });
});

test('payments-stripe callbacks: a checkout whose delayed payment succeeded is checkout.completed', (t) => {
  const session = checkoutSession({ payment_status: 'paid' });
  t.like(eventOf(verify(stripeEvent('checkout.session.async_payment_succeeded', session))), { type: 'checkout.completed', orgId: session.metadata.org_id });
});

test('payments-stripe callbacks: checkouts that are unpaid, not subscriptions, or not made by the service are ignored', (t) => {
  const cases = [
    checkoutSession({ payment_status: 'unpaid' }),
    checkoutSession({ mode: 'payment', subscription: null }),
    checkoutSession({ metadata: {} }),
    checkoutSession({ metadata: null }),
    checkoutSession({ metadata: { org_id: 'org_1', plan: 'platinum', reference: 'chk_1' } }),
  ];
  for (const session of cases) t.deepEqual(verify(stripeEvent('checkout.session.completed', session)), { kind: 'ignored', type: 'checkout.session.completed' });
});

test('payments-stripe callbacks: a paid renewal invoice is subscription.renewed with the invoice and the period its lines cover', (t) => {
  const paid = invoice('sub_renew');
  const event = stripeEvent('invoice.paid', paid);
  const period = { periodStart: '2026-03-01T00:00:00.000Z', periodEnd: '2026-04-01T00:00:00.000Z' };
  t.deepEqual(verify(event), {
    kind: 'event',
    event: {
      type: 'subscription.renewed',
      eventId: event.id,
      subscriptionReference: 'sub_renew',
      ...period,
      invoice: { reference: paid.id, amountCents: 4900, currency: 'eur', ...period, lines: [{ description: '1 × Pro (at €49.00 / month)', amountCents: 4900 }] },
    },
  });
});

test('payments-stripe callbacks: the first invoice of a subscription is subscription.renewed too', (t) => {
  t.like(eventOf(verify(stripeEvent('invoice.paid', invoice('sub_first', { billing_reason: 'subscription_create' })))), { type: 'subscription.renewed', subscriptionReference: 'sub_first' });
});

test('payments-stripe callbacks: proration lines are listed but do not stretch the renewed period', (t) => {
  const lines = [
    invoiceLine('Unused time on Growth', -1200, '2026-02-15T00:00:00Z', '2026-03-01T00:00:00Z', true),
    invoiceLine(null, 4900, '2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z'),
  ];
  const renewed = eventOf(verify(stripeEvent('invoice.paid', invoice('sub_prorated', { lines: { object: 'list', has_more: false, data: lines } }))));
  t.like(renewed, { periodStart: '2026-03-01T00:00:00.000Z', periodEnd: '2026-04-01T00:00:00.000Z' });
  t.deepEqual(renewed?.type === 'subscription.renewed' ? renewed.invoice.lines : undefined, [
    { description: 'Unused time on Growth', amountCents: -1200 },
    { description: '', amountCents: 4900 },
  ]);
});

test('payments-stripe callbacks: an invoice without lines takes its period from the invoice', (t) => {
  const bare = invoice('sub_bare', { lines: { object: 'list', has_more: false, data: [] } });
  t.like(eventOf(verify(stripeEvent('invoice.paid', bare))), { periodStart: '2026-02-01T00:00:00.000Z', periodEnd: '2026-03-01T00:00:00.000Z' });
});

test('payments-stripe callbacks: an invoice rendered in an API version before 2025-03-31 names its subscription at the top', (t) => {
  const legacy = invoice(null, { subscription: 'sub_legacy' });
  t.like(eventOf(verify(stripeEvent('invoice.paid', legacy))), { type: 'subscription.renewed', subscriptionReference: 'sub_legacy' });
});

test('payments-stripe callbacks: paid invoices that are not renewals or belong to no subscription are ignored', (t) => {
  for (const paid of [invoice('sub_1', { billing_reason: 'subscription_update' }), invoice('sub_1', { billing_reason: 'manual' }), invoice(null)]) {
    t.deepEqual(verify(stripeEvent('invoice.paid', paid)), { kind: 'ignored', type: 'invoice.paid' });
  }
});

test('payments-stripe callbacks: a failed invoice payment is payment.failed for its subscription', (t) => {
  const failed = invoice('sub_failing', { status: 'open', amount_paid: 0, attempt_count: 2 });
  const event = stripeEvent('invoice.payment_failed', failed);
  t.deepEqual(verify(event), {
    kind: 'event',
    event: { type: 'payment.failed', eventId: event.id, subscriptionReference: 'sub_failing', reason: `payment attempt 2 of invoice ${failed.id} failed` },
  });
});

test('payments-stripe callbacks: a deleted subscription is subscription.canceled at the time it ended', (t) => {
  const ended = subscription();
  const event = stripeEvent('customer.subscription.deleted', ended);
  t.deepEqual(verify(event), {
    kind: 'event',
    event: { type: 'subscription.canceled', eventId: event.id, subscriptionReference: ended.id, canceledAt: '2026-03-01T00:00:00.000Z' },
  });
});

test('payments-stripe callbacks: an event type the service does not use is ignored with its type', (t) => {
  t.deepEqual(verify(stripeEvent('customer.updated', { id: 'cus_1', object: 'customer' })), { kind: 'ignored', type: 'customer.updated' });
});

test('payments-stripe callbacks: a callback signed with another secret is invalid', (t) => {
  const verdict = verify(stripeEvent('invoice.paid', invoice('sub_1')), 'whsec_someone_else');
  t.is(verdict.kind, 'invalid');
});

test('payments-stripe callbacks: a body changed after signing is invalid', (t) => {
  const { body, headers } = signed(stripe, stripeEvent('invoice.paid', invoice('sub_1', { amount_paid: 100 })), WEBHOOK_SECRET);
  const changed = Buffer.from(body.toString('utf8').replace('"amount_paid":100', '"amount_paid":1'));
  t.is(provider.verifyCallback(changed, headers).kind, 'invalid');
});

test('payments-stripe callbacks: a signature older than the tolerance is invalid, and accepted within a longer one', (t) => {
  const event = stripeEvent('invoice.paid', invoice('sub_1'));
  const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
  const verdict = verify(event, WEBHOOK_SECRET, tenMinutesAgo);
  t.is(verdict.kind, 'invalid');
  t.regex(verdict.kind === 'invalid' ? verdict.reason : '', /tolerance/i);
  const { body, headers } = signed(stripe, event, WEBHOOK_SECRET, tenMinutesAgo);
  t.is(createStripePaymentProvider(stripe, { ...OPTIONS, toleranceSeconds: 3600 }).verifyCallback(body, headers).kind, 'event');
});

test('payments-stripe callbacks: a missing, repeated or malformed signature header is invalid', (t) => {
  const { body, headers } = signed(stripe, stripeEvent('invoice.paid', invoice('sub_1')), WEBHOOK_SECRET);
  const sig = headers['stripe-signature'];
  t.deepEqual(provider.verifyCallback(body, { 'content-type': 'application/json' }), { kind: 'invalid', reason: 'missing stripe-signature header' });
  t.deepEqual(provider.verifyCallback(body, { 'stripe-signature': [sig, sig] }), { kind: 'invalid', reason: 'more than one stripe-signature header' });
  t.is(provider.verifyCallback(body, { 'stripe-signature': 'not a signature' }).kind, 'invalid');
});

test('payments-stripe callbacks: the signature header is found whatever its case', (t) => {
  const { body, headers } = signed(stripe, stripeEvent('invoice.paid', invoice('sub_1')), WEBHOOK_SECRET);
  t.is(provider.verifyCallback(body, { 'Stripe-Signature': headers['stripe-signature'] }).kind, 'event');
});

test('payments-stripe callbacks: a signed event in a shape the adapter cannot read is invalid, not a throw', (t) => {
  const broken = stripeEvent('invoice.paid', { id: 'in_1', object: 'invoice', billing_reason: 'subscription_cycle', parent: { subscription_details: { subscription: 'sub_1' } } });
  const verdict = verify(broken);
  t.is(verdict.kind, 'invalid');
  t.regex(verdict.kind === 'invalid' ? verdict.reason : '', /unreadable invoice\.paid/);
});

test('payments-stripe callbacks: any bytes with any signature header give an invalid verdict, never a throw', (t) => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 512 }), fc.option(fc.string({ maxLength: 200 })), (bytes, header) => {
      const verdict = provider.verifyCallback(Buffer.from(bytes), header === null ? {} : { 'stripe-signature': header });
      return verdict.kind === 'invalid';
    }),
  );
  t.pass();
});

test('payments-stripe callbacks: any correctly signed JSON of a handled type gives a verdict, never a throw', (t) => {
  const types = fc.constantFrom('checkout.session.completed', 'checkout.session.async_payment_succeeded', 'invoice.paid', 'invoice.payment_failed', 'customer.subscription.deleted', 'x.y');
  fc.assert(
    fc.property(types, fc.jsonValue(), (type, object) => {
      const verdict = verify({ id: 'evt_any', object: 'event', created: 1_700_000_000, type, data: { object } });
      return ['event', 'ignored', 'invalid'].includes(verdict.kind);
    }),
    { numRuns: 300 },
  );
  t.pass();
});
