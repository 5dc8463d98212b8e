import { forgetPlan } from './plan-in-force.js';
import type { CoreDeps } from '../deps.js';
import type { PlanName } from '../domain/plans.js';
import { iso } from '../domain/time.js';
import type { StoredDocument } from '../ports/document-store.js';
import { C } from '../store/collections.js';
import { updateWithRetry, write } from '../store/compare-and-set.js';
import type { BillingDeps } from './billing-deps.js';
import type { BillingAccount } from './billing-record.js';

export type StoredAccount = BillingAccount & StoredDocument;

export const loadAccount = async (deps: CoreDeps, orgId: string): Promise<StoredAccount | undefined> =>
  (await deps.store.get(C.billingAccounts, orgId)) as StoredAccount | undefined;

/**
 * The organization's account, made on first use with a customer at the provider. Two first
 * uses at once both ask the provider; the first account written is kept (the other customer is
 * never used).
 */
export const ensureAccount = async (deps: BillingDeps, orgId: string): Promise<BillingAccount> => {
  const existing = await loadAccount(deps, orgId);
  if (existing !== undefined) return existing;
  const { customerReference } = await deps.billing.provider.createCustomer({ orgId });
  const now = iso(deps.clock.now());
  const account: BillingAccount = {
    id: orgId,
    provider: deps.billing.provider.name,
    customer_reference: customerReference,
    subscription_reference: null,
    subscription: null,
    created_at: now,
    updated_at: now,
  };
  if ((await deps.store.insert(C.billingAccounts, account)) === 'inserted') return account;
  return (await loadAccount(deps, orgId))!;
};

/**
 * The operator assigns the organization's plan (the CLI's `orgs set-plan`): what it is entitled
 * to without a paid subscription. Only the operator writes it; payments and trials never do
 * (limits-in-force.ts). Applies at once here, in other processes within a second. `false` when
 * the organization does not exist.
 */
export const assignOrganizationPlan = async (deps: CoreDeps, orgId: string, plan: PlanName): Promise<boolean> => {
  const outcome = await updateWithRetry<{ id: string; plan: PlanName }, undefined>(deps.store, C.organizations, orgId, (current) => write({ ...current, plan }, undefined));
  forgetPlan(deps, orgId);
  return outcome !== undefined;
};
