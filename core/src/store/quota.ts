import type { CoreDeps } from '../deps.js';
import { C } from './collections.js';
import { keep, updateWithRetry, write } from './compare-and-set.js';

interface CounterRecord {
  readonly id: string;
  readonly count: number;
}

const identitiesCounter = (orgId: string): string => `identities:${orgId}`;

/**
 * Reserves `n` places in the organization's live-identity quota, all or nothing, with one
 * compare-and-set on a counter document (rule 6). Answers whether the reservation was made.
 */
export const reserveIdentities = async (deps: CoreDeps, orgId: string, n: number, limit: number): Promise<boolean> => {
  const id = identitiesCounter(orgId);
  // Only the first reservation of an organization creates its counter; later ones skip the write.
  if ((await deps.store.get(C.counters, id)) === undefined) await deps.store.insert(C.counters, { id, count: 0 });
  const outcome = await updateWithRetry<CounterRecord, boolean>(deps.store, C.counters, id, (current) =>
    current.count + n > limit ? keep(false) : write({ id, count: current.count + n }, true),
  );
  return outcome?.result ?? false;
};

/** Gives back `n` places (an identity squashed or expired, or a reservation not used). */
export const releaseIdentities = async (deps: CoreDeps, orgId: string, n: number): Promise<void> => {
  const id = identitiesCounter(orgId);
  await updateWithRetry<CounterRecord, void>(deps.store, C.counters, id, (current) =>
    write({ id, count: Math.max(0, current.count - n) }, undefined),
  );
};

/** Live identities the quota counter holds for the organization. */
export const liveIdentityCount = async (deps: CoreDeps, orgId: string): Promise<number> => {
  const doc = await deps.store.get(C.counters, identitiesCounter(orgId));
  return typeof doc?.count === 'number' ? doc.count : 0;
};
