/** The plans of the spec, in ascending order. */
export const PLAN_NAMES = ['starter', 'growth', 'pro', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

/**
 * What a plan allows. `identities` counts live identities (provisioned, active or extended) of
 * an organization at once; squashed and expired ones free their place.
 */
export interface PlanLimits {
  readonly identities: number;
  readonly bulkBatchSize: number;
  readonly webhookEndpoints: number;
  readonly domains: number;
  readonly apiCallsPerMonth: number;
}

export type PlanTable = Readonly<Record<PlanName, PlanLimits>>;

/** The default plan table; an embedder passes its own through `createEphemail({ plans })`. */
export const DEFAULT_PLANS: PlanTable = {
  starter: { identities: 50, bulkBatchSize: 5, webhookEndpoints: 2, domains: 1, apiCallsPerMonth: 10_000 },
  growth: { identities: 500, bulkBatchSize: 25, webhookEndpoints: 10, domains: 3, apiCallsPerMonth: 100_000 },
  pro: { identities: 5_000, bulkBatchSize: 100, webhookEndpoints: 25, domains: 10, apiCallsPerMonth: 1_000_000 },
  enterprise: { identities: 50_000, bulkBatchSize: 200, webhookEndpoints: 100, domains: 50, apiCallsPerMonth: 10_000_000 },
};

export const isPlanName = (value: string): value is PlanName => (PLAN_NAMES as readonly string[]).includes(value);
