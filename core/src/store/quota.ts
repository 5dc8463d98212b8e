import type { CoreDeps } from '../deps.js';
import { C } from './collections.js';
import { addToCounter } from './counter.js';

const identitiesCounter = (orgId: string): string => `identities:${orgId}`;

/**
 * Reserves `n` places in the organization's live-identity quota, all or nothing, with one atomic
 * increment of a counter document bounded by the limit (rule 6). Answers whether it was made.
 */
export const reserveIdentities = async (deps: CoreDeps, orgId: string, n: number, limit: number): Promise<boolean> =>
  (await addToCounter(deps, identitiesCounter(orgId), n, { max: limit })) !== 'over_max';

/** Gives back `n` places (an identity squashed or expired, or a reservation not used). */
export const releaseIdentities = async (deps: CoreDeps, orgId: string, n: number): Promise<void> => {
  await addToCounter(deps, identitiesCounter(orgId), -n, { floor: 0 });
};

/** Live identities the quota counter holds for the organization. */
export const liveIdentityCount = async (deps: CoreDeps, orgId: string): Promise<number> => {
  const doc = await deps.store.get(C.counters, identitiesCounter(orgId));
  return typeof doc?.count === 'number' ? doc.count : 0;
};
