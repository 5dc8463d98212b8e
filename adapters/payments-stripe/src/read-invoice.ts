import type { ProviderInvoice } from '@ephemail/core';
import type Stripe from 'stripe';

type Ref = string | { readonly id: string } | null | undefined;

/** The id of a field Stripe sends either as an id or, when expanded, as the object. */
export const idOf = (ref: Ref): string | undefined => (typeof ref === 'string' ? ref : ref?.id);

export const isoOf = (seconds: number): string => new Date(seconds * 1000).toISOString();

/**
 * The subscription an invoice bills. Since API version 2025-03-31 it sits under `parent`; before,
 * at the top. Events are rendered in the webhook endpoint's API version, not the library's, so
 * both shapes arrive.
 */
export const subscriptionOfInvoice = (invoice: Stripe.Invoice): string | undefined =>
  idOf(invoice.parent?.subscription_details?.subscription) ?? idOf((invoice as { subscription?: Ref }).subscription);

type Line = Stripe.InvoiceLineItem;

/** Proration lines cover part of an earlier period, so they must not stretch the new one. */
const isProration = (line: Line): boolean =>
  line.parent?.subscription_item_details?.proration === true ||
  line.parent?.invoice_item_details?.proration === true ||
  (line as { proration?: boolean }).proration === true;

/**
 * The service period an invoice pays for. The invoice's own `period_start`/`period_end` are
 * the window in which items were collected (for a renewal, the period that just ended), so
 * the period comes from the lines, falling back to the invoice's fields when it has none.
 */
export const periodOfInvoice = (invoice: Stripe.Invoice): { readonly start: string; readonly end: string } => {
  const lines = invoice.lines?.data ?? [];
  const regular = lines.filter((line) => !isProration(line));
  const chosen = regular.length > 0 ? regular : lines;
  if (chosen.length === 0) return { start: isoOf(invoice.period_start), end: isoOf(invoice.period_end) };
  return {
    start: isoOf(Math.min(...chosen.map((line) => line.period.start))),
    end: isoOf(Math.max(...chosen.map((line) => line.period.end))),
  };
};

/** The invoice as core records it. Only the first page of lines comes with an event (Stripe sends ten). */
export const toProviderInvoice = (invoice: Stripe.Invoice): ProviderInvoice => {
  const period = periodOfInvoice(invoice);
  return {
    reference: invoice.id,
    amountCents: invoice.amount_paid,
    currency: invoice.currency.toLowerCase(),
    periodStart: period.start,
    periodEnd: period.end,
    lines: (invoice.lines?.data ?? []).map((line) => ({ description: line.description ?? '', amountCents: line.amount })),
  };
};
