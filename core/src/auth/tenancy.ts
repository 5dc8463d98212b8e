import type { CoreDeps } from '../deps.js';
import type { PlanLimits, PlanName } from '../domain/plans.js';
import { iso } from '../domain/time.js';
import { C } from '../store/collections.js';

export interface OrganizationRecord {
  readonly id: string;
  readonly name: string;
  readonly plan: PlanName;
  readonly created_at: string;
}

export interface ProjectRecord {
  readonly id: string;
  readonly org_id: string;
  readonly name: string;
  readonly created_at: string;
}

/**
 * Creates the organization unless it exists (then it is left as it is). Answers the stored one.
 */
export const ensureOrganization = async (
  deps: CoreDeps,
  input: { readonly id: string; readonly plan: PlanName; readonly name?: string },
): Promise<OrganizationRecord> => {
  const record: OrganizationRecord = {
    id: input.id,
    name: input.name ?? input.id,
    plan: input.plan,
    created_at: iso(deps.clock.now()),
  };
  await deps.store.insert(C.organizations, record);
  return (await deps.store.get(C.organizations, input.id)) as unknown as OrganizationRecord;
};

/** Creates the project in the organization unless it exists. Answers `'other_org'` on a clash. */
export const ensureProject = async (
  deps: CoreDeps,
  input: { readonly id: string; readonly orgId: string; readonly name?: string },
): Promise<ProjectRecord | 'other_org'> => {
  const record: ProjectRecord = {
    id: input.id,
    org_id: input.orgId,
    name: input.name ?? input.id,
    created_at: iso(deps.clock.now()),
  };
  await deps.store.insert(C.projects, record);
  const stored = (await deps.store.get(C.projects, input.id)) as unknown as ProjectRecord;
  return stored.org_id === input.orgId ? stored : 'other_org';
};

/** How long a process keeps an organization's plan after reading it. */
export const PLAN_CACHE_MS = 1_000;

const plansRead = new WeakMap<CoreDeps, Map<string, { readonly plan: PlanName; readonly until: number }>>();

/**
 * The plan limits of an organization (the starter plan when it has no record). The plan is kept
 * for up to a second per process: every create asked for it, a store read each time, and a plan
 * changes far more rarely than that. The limits themselves are still enforced atomically by the
 * store (the quota counter's bounded increment); only which limit applies may lag a change by a
 * second. An organization with no record is not kept, so one made a moment later counts at once.
 */
export const planLimitsOf = async (deps: CoreDeps, orgId: string): Promise<PlanLimits> => {
  let known = plansRead.get(deps);
  if (known === undefined) plansRead.set(deps, (known = new Map()));
  const now = performance.now();
  const kept = known.get(orgId);
  if (kept !== undefined && kept.until > now) return deps.config.plans[kept.plan];
  const org = (await deps.store.get(C.organizations, orgId)) as OrganizationRecord | undefined;
  if (org === undefined) {
    known.delete(orgId);
    return deps.config.plans.starter;
  }
  // Bounded by the organizations this process serves; expired entries are replaced as they are read.
  if (known.size >= 10_000) known.clear();
  known.set(orgId, { plan: org.plan, until: now + PLAN_CACHE_MS });
  return deps.config.plans[org.plan];
};

/** Drops this process's copy of an organization's plan: the process that changed it applies it at once. */
export const forgetPlan = (deps: CoreDeps, orgId: string): void => {
  plansRead.get(deps)?.delete(orgId);
};
