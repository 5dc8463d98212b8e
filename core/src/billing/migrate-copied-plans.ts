import type { OrganizationRecord } from '../auth/tenancy.js';
import type { CoreDeps } from '../deps.js';
import type { PlanName } from '../domain/plans.js';
import { iso } from '../domain/time.js';
import { C } from '../store/collections.js';
import { keep, updateWithRetry, write } from '../store/compare-and-set.js';
import type { BillingAccount } from './billing-record.js';

/** Marks a store whose organizations' plans were cleaned (a record in `counters`). */
const MARK = 'migration:copied-plans:1';

/** A trial written before ADR 0044: it saved the plan it then wrote back. */
interface LegacyTrial {
  readonly org_id: string;
  readonly plan: PlanName;
  readonly base_plan?: PlanName;
}

/** Sets the organization's plan to `to` only while it still is the copy `from`. */
const replaceCopy = async (deps: CoreDeps, orgId: string, from: PlanName, to: PlanName): Promise<void> => {
  await updateWithRetry<OrganizationRecord, undefined>(deps.store, C.organizations, orgId, (current) =>
    current.plan === from ? write({ ...current, plan: to }, undefined) : keep(undefined),
  );
};

/**
 * Before ADR 0044 trials and checkouts copied their plan into the organization's record, which is
 * now the operator's assignment alone; left there, a copy would outlive the trial or the
 * subscription it came from. Once per store, at start-up: an organization whose running trial
 * copied its plan gets back the plan the trial saved, and one whose plan is its subscription's
 * copy gets `starter` (what a cancellation used to leave it). Each change is a compare-and-set
 * from the copy, so hosts starting together, or a start after a crash, change nothing twice.
 */
export const migrateCopiedPlans = async (deps: CoreDeps): Promise<void> => {
  if ((await deps.store.get(C.counters, MARK)) !== undefined) return;
  const trials = (await deps.store.find(C.trials, { where: { status: 'ACTIVE' } })) as unknown as LegacyTrial[];
  for (const trial of trials) {
    if (trial.base_plan !== undefined) await replaceCopy(deps, trial.org_id, trial.plan, trial.base_plan);
  }
  const accounts = (await deps.store.find(C.billingAccounts, {})) as unknown as BillingAccount[];
  for (const account of accounts) {
    if (account.subscription !== null) await replaceCopy(deps, account.id, account.subscription.plan, 'starter');
  }
  await deps.store.insert(C.counters, { id: MARK, done_at: iso(deps.clock.now()) });
};
