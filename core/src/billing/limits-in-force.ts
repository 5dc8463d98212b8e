import type { PlanLimits, PlanName, PlanTable } from '../domain/plans.js';
import { PLAN_NAMES } from '../domain/plans.js';
import type { SubscriptionStatus } from './billing-record.js';
import type { TrialStatus } from './trial-record.js';

/**
 * What the organization is entitled to by itself: the plan its operator assigned (the
 * organization's record), and the provider's subscription when it has one.
 */
export interface Entitlement {
  readonly assignedPlan: PlanName;
  readonly subscription: { readonly plan: PlanName; readonly status: Exclude<SubscriptionStatus, 'trialing'> } | null;
}

/** The part of a trial the rule reads. */
export interface TrialTerms {
  readonly plan: PlanName;
  readonly status: TrialStatus;
  readonly expires_at: string;
}

/**
 * Subscription statuses that are paid for. `past_due` counts: the provider is still collecting
 * and ends the subscription (`subscription.canceled`) if it cannot.
 */
const PAID: readonly string[] = ['active', 'past_due'];

/** An active paid subscription's plan, else the plan the operator assigned. */
export const entitledPlan = (entitlement: Entitlement): PlanName =>
  entitlement.subscription !== null && PAID.includes(entitlement.subscription.status) ? entitlement.subscription.plan : entitlement.assignedPlan;

/** The trial's plan while it runs (`ACTIVE` and before its end, whether or not the clock job has run yet). */
export const activeTrialPlan = (trial: TrialTerms | undefined, now: string): PlanName | undefined =>
  trial !== undefined && trial.status === 'ACTIVE' && trial.expires_at > now ? trial.plan : undefined;

const rank = (plan: PlanName): number => PLAN_NAMES.indexOf(plan);

/**
 * The plan in force: the higher of the entitled plan and an active trial's. Computed from what is
 * true now, never stored: a trial can only raise the limits, and when it ends, or a subscription
 * is paid or canceled, the answer follows the inputs — no stored plan is ever written back.
 */
export const planInForce = (entitlement: Entitlement, trial: TrialTerms | undefined, now: string): PlanName => {
  const entitled = entitledPlan(entitlement);
  const trialPlan = activeTrialPlan(trial, now);
  return trialPlan !== undefined && rank(trialPlan) > rank(entitled) ? trialPlan : entitled;
};

/** The limits in force, from the deployment's plan table. */
export const limitsInForce = (plans: PlanTable, entitlement: Entitlement, trial: TrialTerms | undefined, now: string): PlanLimits =>
  plans[planInForce(entitlement, trial, now)];
