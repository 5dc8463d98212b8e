import { PLAN_NAMES, ProviderError, type PaymentProvider, type PlanName } from '@ephemail/core';
import type Stripe from 'stripe';
import { toProviderError } from './to-provider-error.js';
import { verifyStripeCallback } from './verify-callback.js';

export interface StripePaymentProviderOptions {
  /** The Stripe price id (`price_…`) each plan subscribes to; a recurring price. */
  readonly prices: Readonly<Record<PlanName, string>>;
  /** The signing secret of the webhook endpoint (`whsec_…`). */
  readonly webhookSecret: string;
  /** Where Checkout sends the buyer after paying. May hold Stripe's `{CHECKOUT_SESSION_ID}`. */
  readonly successUrl: string;
  /** Where Checkout sends the buyer who leaves without paying. */
  readonly cancelUrl: string;
  /** Where the Billing Portal's "return" link goes. */
  readonly portalReturnUrl: string;
  /** How old a webhook's signed timestamp may be. */
  readonly toleranceSeconds?: number;
}

export const STRIPE_PAYMENT_PROVIDER_DEFAULTS = { toleranceSeconds: 300 } as const;

/** Misconfiguration shows at start-up, not at the first customer's checkout. */
const checkOptions = (options: StripePaymentProviderOptions): void => {
  const missing = PLAN_NAMES.filter((plan) => !options.prices?.[plan]);
  if (missing.length > 0) throw new TypeError(`stripe: no price id for plan ${missing.join(', ')}`);
  if (!options.webhookSecret) throw new TypeError('stripe: webhookSecret is required');
  for (const name of ['successUrl', 'cancelUrl', 'portalReturnUrl'] as const) {
    if (!URL.canParse(options[name] ?? '')) throw new TypeError(`stripe: ${name} must be an absolute URL`);
  }
  const tolerance = options.toleranceSeconds;
  if (tolerance !== undefined && !(Number.isFinite(tolerance) && tolerance > 0)) throw new TypeError('stripe: toleranceSeconds must be positive');
};

/** A session without a URL is of no use to the buyer: the port never answers half a session. */
const urlOf = (session: { readonly url: string | null }, call: string): { readonly url: string } => {
  if (!session.url) throw new ProviderError(`stripe ${call} answered a session without a url`, false);
  return { url: session.url };
};

const calling = async <A>(call: string, run: () => Promise<A>): Promise<A> => {
  try {
    return await run();
  } catch (error) {
    throw error instanceof ProviderError ? error : toProviderError(error, call);
  }
};

/**
 * The `PaymentProvider` port on Stripe: Checkout for subscriptions, the Billing Portal, and
 * signed webhooks. The client is the host's, configured with its key, retries and timeout.
 */
export const createStripePaymentProvider = (stripe: Stripe, options: StripePaymentProviderOptions): PaymentProvider => {
  checkOptions(options);
  const tolerance = options.toleranceSeconds ?? STRIPE_PAYMENT_PROVIDER_DEFAULTS.toleranceSeconds;
  return {
    name: 'stripe',

    createCustomer: ({ orgId }) =>
      calling('customers.create', async () => {
        const customer = await stripe.customers.create({ metadata: { org_id: orgId } });
        return { customerReference: customer.id };
      }),

    createCheckoutSession: ({ customerReference, orgId, plan, reference }) =>
      calling('checkout.sessions.create', async () => {
        // On the session for `checkout.session.completed`; on the subscription so that its own
        // events and invoices can be traced back to the organization in Stripe's dashboard.
        const metadata = { org_id: orgId, plan, reference };
        const session = await stripe.checkout.sessions.create({
          mode: 'subscription',
          customer: customerReference,
          client_reference_id: reference,
          line_items: [{ price: options.prices[plan], quantity: 1 }],
          metadata,
          subscription_data: { metadata },
          success_url: options.successUrl,
          cancel_url: options.cancelUrl,
        });
        return urlOf(session, 'checkout.sessions.create');
      }),

    // The portal shows all of the customer's subscriptions; a service customer has one.
    createPortalSession: ({ customerReference }) =>
      calling('billingPortal.sessions.create', async () => {
        const session = await stripe.billingPortal.sessions.create({ customer: customerReference, return_url: options.portalReturnUrl });
        return urlOf(session, 'billingPortal.sessions.create');
      }),

    verifyCallback: (rawBody, headers) => verifyStripeCallback(stripe, options.webhookSecret, tolerance, rawBody, headers),
  };
};
