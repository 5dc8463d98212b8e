import { isPlanName, type CallbackVerdict, type ProviderEvent } from '@ephemail/core';
import type Stripe from 'stripe';
import { idOf, isoOf, subscriptionOfInvoice, toProviderInvoice } from './read-invoice.js';

/** Invoices that start or continue a subscription; upgrades, one-off and manual invoices are not renewals. */
const RENEWAL_REASONS: ReadonlySet<string> = new Set(['subscription_create', 'subscription_cycle']);

const eventOf = (event: ProviderEvent): CallbackVerdict => ({ kind: 'event', event });
const ignored = (event: Stripe.Event): CallbackVerdict => ({ kind: 'ignored', type: event.type });

/**
 * A subscription checkout that has been paid for (or needs no payment). Sessions that were not
 * made by this service (no or foreign metadata) are none of its business. The session does not
 * carry the subscription's period, and a callback cannot ask Stripe for it, so the period starts
 * and ends at completion until the `invoice.paid` of the first invoice (`subscription_create`)
 * brings the real one.
 */
const fromCheckout = (event: Stripe.Event, session: Stripe.Checkout.Session): CallbackVerdict => {
  if (session.mode !== 'subscription' || session.payment_status === 'unpaid') return ignored(event);
  const { org_id: orgId, plan, reference } = session.metadata ?? {};
  const customerReference = idOf(session.customer);
  const subscriptionReference = idOf(session.subscription);
  if (!orgId || !reference || plan === undefined || !isPlanName(plan) || !customerReference || !subscriptionReference) return ignored(event);
  const completedAt = isoOf(event.created);
  return eventOf({
    type: 'checkout.completed',
    eventId: event.id,
    orgId,
    plan,
    reference,
    customerReference,
    subscriptionReference,
    periodStart: completedAt,
    periodEnd: completedAt,
  });
};

const fromPaidInvoice = (event: Stripe.Event, invoice: Stripe.Invoice): CallbackVerdict => {
  const subscriptionReference = subscriptionOfInvoice(invoice);
  if (!subscriptionReference || !RENEWAL_REASONS.has(invoice.billing_reason ?? '')) return ignored(event);
  const paid = toProviderInvoice(invoice);
  return eventOf({ type: 'subscription.renewed', eventId: event.id, subscriptionReference, periodStart: paid.periodStart, periodEnd: paid.periodEnd, invoice: paid });
};

/** The decline itself lives on the payment, not the invoice: the reason says which attempt failed. */
const fromFailedInvoice = (event: Stripe.Event, invoice: Stripe.Invoice): CallbackVerdict => {
  const subscriptionReference = subscriptionOfInvoice(invoice);
  if (!subscriptionReference) return ignored(event);
  const reason = invoice.last_finalization_error?.message ?? `payment attempt ${invoice.attempt_count} of invoice ${invoice.id} failed`;
  return eventOf({ type: 'payment.failed', eventId: event.id, subscriptionReference, reason });
};

/** `ended_at` is when the subscription stopped; `canceled_at` may be a request made weeks before. */
const fromDeletedSubscription = (event: Stripe.Event, subscription: Stripe.Subscription): CallbackVerdict =>
  eventOf({
    type: 'subscription.canceled',
    eventId: event.id,
    subscriptionReference: subscription.id,
    canceledAt: isoOf(subscription.ended_at ?? subscription.canceled_at ?? event.created),
  });

/** A verified Stripe event as the callback verdict core understands. */
export const toCallbackVerdict = (event: Stripe.Event): CallbackVerdict => {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return fromCheckout(event, event.data.object);
    case 'invoice.paid':
      return fromPaidInvoice(event, event.data.object);
    case 'invoice.payment_failed':
      return fromFailedInvoice(event, event.data.object);
    case 'customer.subscription.deleted':
      return fromDeletedSubscription(event, event.data.object);
    default:
      return ignored(event);
  }
};
