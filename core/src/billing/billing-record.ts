import type { PlanName } from '../domain/plans.js';

export type SubscriptionStatus = 'trialing' | 'active' | 'past_due' | 'canceled';

/** An organization's billing: its provider customer and its subscription (id = the org id). */
export interface BillingAccount {
  readonly id: string;
  readonly provider: string;
  readonly customer_reference: string;
  /** The provider's subscription, top-level so a renewal or cancellation finds the account. */
  readonly subscription_reference: string | null;
  readonly subscription: {
    readonly plan: PlanName;
    readonly status: Exclude<SubscriptionStatus, 'trialing'>;
    readonly subscription_reference: string;
    readonly current_period_start: string;
    readonly current_period_end: string;
    readonly canceled_at: string | null;
  } | null;
  readonly created_at: string;
  readonly updated_at: string;
}

/** A one-time redirect token, stored by the SHA-256 of the token (its id). */
export interface RedirectTokenRecord {
  readonly id: string;
  readonly kind: 'checkout' | 'portal';
  readonly org_id: string;
  /** Where redeeming it sends the buyer: the provider's hosted page. */
  readonly url: string;
  readonly created_at: string;
  readonly expires_at: string;
  readonly redeemed_at: string | null;
}

/** An invoice, from a provider's callback. Its id is derived from the provider's reference. */
export interface InvoiceRecord {
  readonly id: string;
  readonly org_id: string;
  readonly provider_reference: string;
  readonly amount_cents: number;
  readonly currency: string;
  readonly status: 'paid';
  readonly period_start: string;
  readonly period_end: string;
  readonly lines: readonly { readonly description: string; readonly amount_cents: number }[];
  readonly created_at: string;
  /** The PDF's one-time download token, by its SHA-256; `download_used_at` once exchanged. */
  readonly download_hash: string;
  readonly download_preview: string;
  readonly download_expires_at: string;
  readonly download_used_at: string | null;
}

export const toInvoice = (r: InvoiceRecord) => ({
  id: r.id,
  amount_cents: r.amount_cents,
  currency: r.currency,
  status: r.status,
  period_start: r.period_start,
  period_end: r.period_end,
  created_at: r.created_at,
  lines: r.lines,
  pdf_download: { exchange_required: true, token_preview: r.download_preview, expires_at: r.download_expires_at },
});
export type Invoice = ReturnType<typeof toInvoice>;
