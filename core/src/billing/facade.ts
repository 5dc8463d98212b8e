import type { CoreDeps } from '../deps.js';
import { run } from '../use-cases/run.js';
import type { BillingDeps } from './billing-deps.js';
import { getSubscription, listInvoices, redeemCheckout, redeemPortal, startCheckout, startPortal, startTrialConversion } from './billing.js';
import { handleProviderCallback } from './callbacks.js';
import type { InvoiceRenderer, PaymentProvider } from './ports.js';
import { exchangeInvoiceDownload, issueInvoiceDownload } from './invoice-downloads.js';
import type { ApiCallCounter } from './api-calls.js';
import { getUsage } from './usage.js';
import { ProviderError } from './ports.js';
import { cancelTrial, getTrial, startTrial } from './trials.js';

export interface BillingOptions {
  /** The payment provider; the host passes the sandbox provider or Stripe's. */
  readonly provider?: PaymentProvider;
  /** Renders invoice PDFs; the host passes one on a PDF library. */
  readonly renderer?: InvoiceRenderer;
}

/** Without a provider, every checkout and portal answers 502 (not retryable) and no callback verifies. */
const NO_PROVIDER: PaymentProvider = {
  name: 'none',
  createCustomer: async () => {
    throw new ProviderError('no payment provider is configured', false);
  },
  createCheckoutSession: async () => {
    throw new ProviderError('no payment provider is configured', false);
  },
  createPortalSession: async () => {
    throw new ProviderError('no payment provider is configured', false);
  },
  verifyCallback: () => ({ kind: 'invalid', reason: 'no payment provider is configured' }),
};

/** Without a renderer an exchange fails loudly: the token was spent on nothing, which a host must not allow. */
const NO_RENDERER: InvoiceRenderer = {
  render: async () => {
    throw new Error('no invoice renderer is configured');
  },
};

export const billingDeps = (deps: CoreDeps, options: BillingOptions): BillingDeps => ({
  ...deps,
  billing: { provider: options.provider ?? NO_PROVIDER, renderer: options.renderer ?? NO_RENDERER },
});

/** The `billing` and `trials` sections of the service. */
export const billingFacade = (deps: BillingDeps, calls: ApiCallCounter) => ({
  billing: {
    usage: run(getUsage(deps, calls)),
    /** The organization's API calls this month: counted in memory, flushed every second (api-calls.ts). */
    apiCalls: calls,
    subscription: run(getSubscription(deps)),
    checkout: run(startCheckout(deps)),
    portal: run(startPortal(deps)),
    invoices: run(listInvoices(deps)),
    /** The internal listener's redemptions of one-time redirect tokens. */
    redeemCheckout: redeemCheckout(deps),
    redeemPortal: redeemPortal(deps),
    /** A payment provider's callback, as received (raw body and headers). */
    callback: (rawBody: Buffer, headers: Parameters<typeof handleProviderCallback>[2]) => handleProviderCallback(deps, rawBody, headers),
    /** A fresh one-time token for an invoice's PDF, and its exchange for the PDF's bytes. */
    issueInvoiceDownload: run(issueInvoiceDownload(deps)),
    exchangeInvoiceDownload: run(exchangeInvoiceDownload(deps)),
    providerName: deps.billing.provider.name,
  },
  trials: {
    start: run(startTrial(deps)),
    get: run(getTrial(deps)),
    convert: run(startTrialConversion(deps)),
    cancel: run(cancelTrial(deps)),
  },
});
