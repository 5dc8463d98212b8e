import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import type { DomainError } from '../domain/errors.js';
import { invalidPlan, noActiveSubscription, providerFailed } from '../domain/errors.js';
import type { PlanName } from '../domain/plans.js';
import { isPlanName, PLAN_NAMES } from '../domain/plans.js';
import { C } from '../store/collections.js';
import { findPage } from '../store/page.js';
import type { Page } from '../use-cases/identities.js';
import { ensureAccount, loadAccount } from './account.js';
import type { BillingDeps } from './billing-deps.js';
import type { InvoiceRecord, SubscriptionStatus } from './billing-record.js';
import { toInvoice, type Invoice } from './billing-record.js';
import { ProviderError } from './ports.js';
import { activeTrialPlan } from './limits-in-force.js';
import { mintRedirectToken, redeemRedirectToken } from './redirect-tokens.js';
import { convertible, loadTrial, trialOf } from './trials.js';
import { iso } from '../domain/time.js';

export interface SubscriptionView {
  readonly plan: PlanName;
  readonly status: SubscriptionStatus;
  readonly current_period_start: string;
  readonly current_period_end: string;
  readonly trial: { readonly id: string; readonly status: string; readonly started_at: string } | null;
  readonly billing_provider: string;
  readonly customer_reference: string | null;
}

/** A provider call; its failure is the route's 502, retryable as the provider said. */
const viaProvider = async <T>(operation: 'checkout' | 'portal', call: () => Promise<T>): Promise<E.Either<DomainError, T>> => {
  try {
    return E.right(await call());
  } catch (error) {
    if (error instanceof ProviderError) return E.left(providerFailed(operation, `The payment provider could not open the ${operation}: ${error.message}`, error.retryable));
    throw error;
  }
};

/**
 * The organization's subscription: the provider's, or while a trial runs and there is none, the
 * trial as a `trialing` subscription. `no_active_subscription` when there is neither.
 */
export const getSubscription =
  (deps: BillingDeps) =>
  (principal: Principal): TE.TaskEither<DomainError, SubscriptionView> =>
  async () => {
    const [account, trial] = await Promise.all([loadAccount(deps, principal.orgId), trialOf(deps, principal.orgId)]);
    const trialView = trial === undefined ? null : { id: trial.id, status: trial.status, started_at: trial.started_at };
    const provider = account?.provider ?? deps.billing.provider.name;
    if (account?.subscription) {
      const s = account.subscription;
      return E.right({ plan: s.plan, status: s.status, current_period_start: s.current_period_start, current_period_end: s.current_period_end, trial: trialView, billing_provider: provider, customer_reference: account.customer_reference });
    }
    // A trial shows while it runs: ACTIVE and before its end, whether or not the clock job has run.
    if (trial !== undefined && activeTrialPlan(trial, iso(deps.clock.now())) !== undefined) {
      return E.right({ plan: trial.plan, status: 'trialing', current_period_start: trial.started_at, current_period_end: trial.expires_at, trial: trialView, billing_provider: provider, customer_reference: account?.customer_reference ?? null });
    }
    return E.left(noActiveSubscription());
  };

/** A hosted checkout for `plan`, behind a one-time redirect token (the provider's URL stays server-side). */
export const startCheckout =
  (deps: BillingDeps) =>
  (principal: Principal, input: { readonly plan: string }): TE.TaskEither<DomainError, { checkout_redirect_token: string; expires_at: string }> =>
  async () => {
    const plan = input.plan;
    if (!isPlanName(plan)) return E.left(invalidPlan(plan, PLAN_NAMES));
    const session = await viaProvider('checkout', async () => {
      const account = await ensureAccount(deps, principal.orgId);
      return deps.billing.provider.createCheckoutSession({ customerReference: account.customer_reference, orgId: principal.orgId, plan, reference: deps.ids.next('chk') });
    });
    if (E.isLeft(session)) return session;
    const minted = await mintRedirectToken(deps, 'checkout', principal.orgId, session.right.url);
    return E.right({ checkout_redirect_token: minted.token, expires_at: minted.expires_at });
  };

/** The provider's billing portal for the organization's subscription, behind a one-time token. */
export const startPortal =
  (deps: BillingDeps) =>
  (principal: Principal): TE.TaskEither<DomainError, { portal_redirect_token: string; expires_at: string }> =>
  async () => {
    const account = await loadAccount(deps, principal.orgId);
    if (account?.subscription === undefined || account.subscription === null || account.subscription.status === 'canceled') return E.left(noActiveSubscription());
    const subscriptionReference = account.subscription.subscription_reference;
    const session = await viaProvider('portal', () => deps.billing.provider.createPortalSession({ customerReference: account.customer_reference, subscriptionReference, plan: account.subscription!.plan }));
    if (E.isLeft(session)) return session;
    const minted = await mintRedirectToken(deps, 'portal', principal.orgId, session.right.url);
    return E.right({ portal_redirect_token: minted.token, expires_at: minted.expires_at });
  };

/** Redeems a checkout redirect token once (the internal listener's route). */
export const redeemCheckout = (deps: BillingDeps) => async (token: string) =>
  E.map(({ url }: { url: string }) => ({ checkout_url: url }))(await redeemRedirectToken(deps, 'checkout', token));

/** Redeems a portal redirect token once (the internal listener's route). */
export const redeemPortal = (deps: BillingDeps) => async (token: string) =>
  E.map(({ url }: { url: string }) => ({ portal_url: url }))(await redeemRedirectToken(deps, 'portal', token));

/** The organization's invoices, newest first. */
export const listInvoices =
  (deps: BillingDeps) =>
  (principal: Principal, page: { readonly limit: number; readonly offset: number }): TE.TaskEither<DomainError, Page<Invoice>> =>
  async () => {
    return E.right(await findPage(deps.store, C.invoices, { where: { org_id: principal.orgId }, newestBy: 'created_at' }, page, (d) => toInvoice(d as unknown as InvoiceRecord)));
  };


/** A checkout for the trial's plan, whose completion converts the trial. */
export const startTrialConversion =
  (deps: BillingDeps) =>
  (principal: Principal, trialId: string): TE.TaskEither<DomainError, { checkout_url: string; trial_id: string; plan: PlanName }> =>
  async () => {
    const trial = await loadTrial(deps, principal, trialId);
    if (E.isLeft(trial)) return trial;
    const refused = convertible(trial.right, iso(deps.clock.now()));
    if (refused !== undefined) return E.left(refused);
    const session = await viaProvider('checkout', async () => {
      const account = await ensureAccount(deps, principal.orgId);
      return deps.billing.provider.createCheckoutSession({ customerReference: account.customer_reference, orgId: principal.orgId, plan: trial.right.plan, reference: trial.right.id });
    });
    return E.map(({ url }: { url: string }) => ({ checkout_url: url, trial_id: trialId, plan: trial.right.plan }))(session);
  };
