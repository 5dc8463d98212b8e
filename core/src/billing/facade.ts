import * as E from 'fp-ts/lib/Either.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { billingNotConfigured } from '../domain/errors.js';
import type { PlanName } from '../domain/plans.js';
import { assignOrganizationPlan } from './account.js';
import { readPlanInForce } from './plan-in-force.js';
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
  /**
   * The payment provider; the host passes the sandbox provider or Stripe's. Without one, billing
   * is not configured: the billing and trial operations answer `BillingNotConfigured` (usage
   * still answers), and plans are what the operator assigns (`assignPlan`).
   */
  readonly provider?: PaymentProvider;
  /** Renders invoice PDFs; the host passes one on a PDF library. */
  readonly renderer?: InvoiceRenderer;
}

/** Without a provider nothing reaches it (see `guarded`); a call that still did fails loudly, and no callback verifies. */
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
  billing: { provider: options.provider ?? NO_PROVIDER, renderer: options.renderer ?? NO_RENDERER, configured: options.provider !== undefined },
});

/** An operation that needs billing: as it is with a provider, `BillingNotConfigured` without. */
const guarded =
  (configured: boolean) =>
  <A extends unknown[], R>(operation: (...args: A) => Promise<E.Either<DomainError, R>>): ((...args: A) => Promise<E.Either<DomainError, R>>) =>
    configured ? operation : async () => E.left(billingNotConfigured());

/** The `billing` and `trials` sections of the service. */
export const billingFacade = (deps: BillingDeps, calls: ApiCallCounter) => {
  const needs = guarded(deps.billing.configured);
  return {
    billing: {
      /** Whether a payment provider is configured; without one only usage and plan assignment work. */
      configured: deps.billing.configured,
      usage: run(getUsage(deps, calls)),
      /** The organization's API calls this month: counted in memory, flushed every second (api-calls.ts). */
      apiCalls: calls,
      subscription: needs(run(getSubscription(deps))),
      checkout: needs(run(startCheckout(deps))),
      portal: needs(run(startPortal(deps))),
      invoices: needs(run(listInvoices(deps))),
      /** The internal listener's redemptions of one-time redirect tokens. */
      redeemCheckout: needs(redeemCheckout(deps)),
      redeemPortal: needs(redeemPortal(deps)),
      /** A payment provider's callback, as received (raw body and headers). */
      callback: (rawBody: Buffer, headers: Parameters<typeof handleProviderCallback>[2]) => handleProviderCallback(deps, rawBody, headers),
      /** A fresh one-time token for an invoice's PDF, and its exchange for the PDF's bytes. */
      issueInvoiceDownload: needs(run(issueInvoiceDownload(deps))),
      exchangeInvoiceDownload: needs(run(exchangeInvoiceDownload(deps))),
      providerName: deps.billing.provider.name,
      /**
       * The operator assigns an organization's plan (the host's CLI): its limits without a paid
       * subscription. `false` when there is no such organization.
       */
      assignPlan: (orgId: string, plan: PlanName) => assignOrganizationPlan(deps, orgId, plan),
      /** The plan whose limits apply to the organization now (limits-in-force.ts). */
      planInForce: async (orgId: string): Promise<PlanName> => (await readPlanInForce(deps, orgId)).plan,
    },
    trials: {
      start: needs(run(startTrial(deps))),
      get: needs(run(getTrial(deps))),
      convert: needs(run(startTrialConversion(deps))),
      cancel: needs(run(cancelTrial(deps))),
    },
  };
};
