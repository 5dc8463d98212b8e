import type { PlanName } from '../domain/plans.js';

/** An invoice as the provider reports it with a renewal (or a first payment). */
export interface ProviderInvoice {
  /** The provider's own id of the invoice: what makes a repeated callback recognisable. */
  readonly reference: string;
  readonly amountCents: number;
  /** ISO 4217, lower case (`usd`). */
  readonly currency: string;
  readonly periodStart: string;
  readonly periodEnd: string;
  readonly lines: readonly { readonly description: string; readonly amountCents: number }[];
}

/**
 * What a provider's signed callback reports, once verified. `eventId` is the provider's id of
 * the callback: callbacks are delivered at least once, and the service handles each id once.
 * Timestamps are ISO 8601.
 */
export type ProviderEvent =
  | {
      readonly type: 'checkout.completed';
      readonly eventId: string;
      readonly orgId: string;
      readonly plan: PlanName;
      /** The service's reference given to `createCheckoutSession` (a checkout or trial id). */
      readonly reference: string;
      readonly customerReference: string;
      readonly subscriptionReference: string;
      readonly periodStart: string;
      readonly periodEnd: string;
      readonly invoice?: ProviderInvoice;
    }
  | {
      readonly type: 'subscription.renewed';
      readonly eventId: string;
      readonly subscriptionReference: string;
      readonly periodStart: string;
      readonly periodEnd: string;
      readonly invoice: ProviderInvoice;
    }
  | { readonly type: 'payment.failed'; readonly eventId: string; readonly subscriptionReference: string; readonly reason: string }
  | { readonly type: 'subscription.canceled'; readonly eventId: string; readonly subscriptionReference: string; readonly canceledAt: string };

/** A callback's verdict: the event it carries, a signature that does not verify, or a type the service does not use. */
export type CallbackVerdict =
  | { readonly kind: 'event'; readonly event: ProviderEvent }
  | { readonly kind: 'ignored'; readonly type: string }
  | { readonly kind: 'invalid'; readonly reason: string };

/** A provider call that failed: `retryable` when trying again later may succeed (a timeout, a 5xx). */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/**
 * A payment provider: it keeps customers and subscriptions, hosts checkout and billing-portal
 * pages, and reports what happens (checkouts completed, renewals with their invoices, failed
 * payments, cancellations) as signed callbacks. Session calls throw {@link ProviderError} when
 * the provider cannot be used; they never answer a half-made session.
 */
export interface PaymentProvider {
  /** The provider's name, shown as `billing_provider` (`sandbox`, `stripe`). */
  readonly name: string;
  /** Creates the provider's customer for an organization; answers its reference. */
  createCustomer(input: { readonly orgId: string }): Promise<{ readonly customerReference: string }>;
  /**
   * A hosted checkout for `plan`: the URL to send the buyer to. Its completion comes back as a
   * `checkout.completed` callback carrying `reference` and `orgId`.
   */
  createCheckoutSession(input: {
    readonly customerReference: string;
    readonly orgId: string;
    readonly plan: PlanName;
    readonly reference: string;
  }): Promise<{ readonly url: string }>;
  /** A hosted billing portal for the customer's subscription: the URL to send them to. */
  createPortalSession(input: {
    readonly customerReference: string;
    readonly subscriptionReference: string;
    /** The subscription's plan, for a provider that shows it (the sandbox prices its renewals by it). */
    readonly plan?: PlanName;
  }): Promise<{ readonly url: string }>;
  /**
   * Verifies a callback exactly as received (the raw body bytes and the request headers) and
   * reads the event it carries. Never throws for bad input: an unverifiable callback is `invalid`.
   */
  verifyCallback(rawBody: Buffer, headers: Readonly<Record<string, string | readonly string[] | undefined>>): CallbackVerdict;
}

/** An invoice as a document renders it. */
export interface InvoiceDocument {
  readonly id: string;
  readonly orgId: string;
  readonly amountCents: number;
  readonly currency: string;
  readonly periodStart: string;
  readonly periodEnd: string;
  readonly createdAt: string;
  readonly lines: readonly { readonly description: string; readonly amountCents: number }[];
  readonly provider: string;
  readonly providerReference: string;
}

/** Renders an invoice as a PDF (the host's, on a PDF library). */
export interface InvoiceRenderer {
  render(invoice: InvoiceDocument): Promise<Uint8Array>;
}
