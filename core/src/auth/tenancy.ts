import type { CoreDeps } from '../deps.js';
import type { PlanName } from '../domain/plans.js';
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
