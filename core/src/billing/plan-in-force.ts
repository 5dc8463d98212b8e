import type { OrganizationRecord } from '../auth/tenancy.js';
import type { CoreDeps } from '../deps.js';
import type { PlanLimits, PlanName } from '../domain/plans.js';
import { iso } from '../domain/time.js';
import { C } from '../store/collections.js';
import type { BillingAccount } from './billing-record.js';
import { activeTrialPlan, planInForce, type Entitlement } from './limits-in-force.js';
import type { TrialRecord } from './trial-record.js';

/** How long a process keeps an organization's plan in force after working it out. */
export const PLAN_CACHE_MS = 1_000;

interface Kept {
  readonly plan: PlanName;
  /** performance.now() after which the entry is read again. */
  readonly until: number;
  /** The service clock's time (ms) at which a running trial ends, so its end applies on time. */
  readonly trialEndsAt: number;
}

const plansRead = new WeakMap<CoreDeps, Map<string, Kept>>();

/** The organization's trial, if it ever had one (one per organization, ever). */
export const trialOf = async (deps: CoreDeps, orgId: string): Promise<TrialRecord | undefined> => {
  const [trial] = (await deps.store.find(C.trials, { where: { org_id: orgId }, limit: 1 })) as unknown as TrialRecord[];
  return trial;
};

/**
 * What is true of the organization now (its record, its subscription, its trial), read from
 * three records, and the plan the rule puts in force. No record: the starter plan, kept by no one.
 */
export const readPlanInForce = async (deps: CoreDeps, orgId: string): Promise<{ plan: PlanName; exists: boolean; trialEndsAt: number }> => {
  const [org, account, trial] = await Promise.all([
    deps.store.get(C.organizations, orgId) as Promise<OrganizationRecord | undefined>,
    deps.store.get(C.billingAccounts, orgId) as Promise<BillingAccount | undefined>,
    trialOf(deps, orgId),
  ]);
  const now = iso(deps.clock.now());
  const entitlement: Entitlement = { assignedPlan: org?.plan ?? 'starter', subscription: account?.subscription ?? null };
  const trialEndsAt = activeTrialPlan(trial, now) === undefined ? Number.POSITIVE_INFINITY : Date.parse(trial!.expires_at);
  return { plan: planInForce(entitlement, trial, now), exists: org !== undefined, trialEndsAt };
};

/**
 * The limits in force for an organization (limits-in-force.ts). The answer is kept for up to a
 * second per process: every create asks for it, and what it is made of changes far more rarely.
 * The limits themselves are still enforced atomically by the store (the quota counter's bounded
 * increment); only which limit applies may lag a change made by another process by a second. A
 * change made by this process applies at once ({@link forgetPlan}), and a trial's end applies at
 * its end by the service clock. An organization with no record is not kept.
 */
export const planLimitsOf = async (deps: CoreDeps, orgId: string): Promise<PlanLimits> => {
  let known = plansRead.get(deps);
  if (known === undefined) plansRead.set(deps, (known = new Map()));
  const now = performance.now();
  const kept = known.get(orgId);
  if (kept !== undefined && kept.until > now && deps.clock.now().getTime() < kept.trialEndsAt) return deps.config.plans[kept.plan];
  const read = await readPlanInForce(deps, orgId);
  if (!read.exists) {
    known.delete(orgId);
    return deps.config.plans[read.plan];
  }
  // Bounded by the organizations this process serves; expired entries are replaced as they are read.
  if (known.size >= 10_000) known.clear();
  known.set(orgId, { plan: read.plan, until: now + PLAN_CACHE_MS, trialEndsAt: read.trialEndsAt });
  return deps.config.plans[read.plan];
};

/** Drops this process's copy of an organization's plan: a change this process made applies at once. */
export const forgetPlan = (deps: CoreDeps, orgId: string): void => {
  plansRead.get(deps)?.delete(orgId);
};
