import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';

const id = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 24)}`;

/** Seconds since the epoch, as Stripe writes times. */
export const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** A snapshot event around `object`, with a fresh event id. */
export const stripeEvent = (type: string, object: Record<string, unknown>, created = at('2026-03-01T12:00:00Z')) => ({
  id: id('evt'),
  object: 'event',
  api_version: '2026-10-28.endive',
  created,
  livemode: false,
  pending_webhooks: 1,
  request: { id: null, idempotency_key: null },
  type,
  data: { object },
});

export const checkoutSession = (fields: Record<string, unknown> = {}) => ({
  id: id('cs_test'),
  object: 'checkout.session',
  mode: 'subscription',
  status: 'complete',
  payment_status: 'paid',
  customer: id('cus'),
  subscription: id('sub'),
  client_reference_id: 'chk_1',
  invoice: id('in'),
  metadata: { org_id: id('org'), plan: 'pro', reference: id('chk') },
  ...fields,
});

export const invoiceLine = (description: string | null, amount: number, start: string, end: string, proration = false) => ({
  id: id('il'),
  object: 'line_item',
  amount,
  currency: 'eur',
  description,
  period: { start: at(start), end: at(end) },
  parent: { type: 'subscription_item_details', invoice_item_details: null, subscription_item_details: { invoice_item: null, proration, subscription: 'sub_x' } },
});

/** An invoice as API versions since 2025-03-31 render it: the subscription under `parent`. */
export const invoice = (subscription: string | null, fields: Record<string, unknown> = {}) => ({
  id: id('in'),
  object: 'invoice',
  status: 'paid',
  billing_reason: 'subscription_cycle',
  amount_paid: 4900,
  currency: 'EUR',
  attempt_count: 1,
  last_finalization_error: null,
  // The window in which items were collected: for a renewal, the period that just ended.
  period_start: at('2026-02-01T00:00:00Z'),
  period_end: at('2026-03-01T00:00:00Z'),
  parent: subscription === null ? null : { type: 'subscription_details', quote_details: null, subscription_details: { metadata: {}, subscription } },
  lines: {
    object: 'list',
    has_more: false,
    data: [invoiceLine('1 × Pro (at €49.00 / month)', 4900, '2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z')],
  },
  ...fields,
});

export const subscription = (fields: Record<string, unknown> = {}) => ({
  id: id('sub'),
  object: 'subscription',
  status: 'canceled',
  customer: id('cus'),
  cancel_at: null,
  canceled_at: at('2026-02-10T09:00:00Z'),
  ended_at: at('2026-03-01T00:00:00Z'),
  metadata: {},
  ...fields,
});

/** The body and headers of a webhook delivery signed the way Stripe signs it. */
export const signed = (stripe: Stripe, event: unknown, secret: string, timestamp?: number) => {
  const payload = JSON.stringify(event);
  const header = stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp === undefined ? {} : { timestamp }) });
  return { body: Buffer.from(payload), headers: { 'content-type': 'application/json', 'stripe-signature': header } };
};
