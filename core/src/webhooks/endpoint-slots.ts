import type { CoreDeps } from '../deps.js';
import { iso } from '../domain/time.js';
import { C } from '../store/collections.js';
import { keep, updateWithRetry, write } from '../store/compare-and-set.js';

/**
 * The webhook-endpoint quota of an organization: one document listing the endpoints that hold
 * a place, moved by compare-and-set (rule 6), so N concurrent creations at the limit admit
 * exactly as many as fit. Listing the ids instead of keeping a count lets the quota heal after a
 * crash between the slot write and the endpoint write: a slot whose endpoint does not exist
 * (and that is older than a creation could take) is given back when the quota looks full.
 */
interface SlotsRecord {
  readonly id: string;
  readonly slots: readonly { readonly id: string; readonly at: string }[];
}

/** A creation writes its endpoint well within this after taking its slot. */
const ORPHAN_AFTER_MS = 60_000;

const slotsId = (orgId: string): string => `webhook_endpoints:${orgId}`;

const take = (deps: CoreDeps, id: string, endpointId: string, limit: number) =>
  updateWithRetry<SlotsRecord, boolean>(deps.store, C.counters, id, (current) => {
    if (current.slots.some((slot) => slot.id === endpointId)) return keep(true);
    if (current.slots.length >= limit) return keep(false);
    return write({ id, slots: [...current.slots, { id: endpointId, at: iso(deps.clock.now()) }] }, true);
  });

const drop = (deps: CoreDeps, id: string, endpointIds: ReadonlySet<string>) =>
  updateWithRetry<SlotsRecord, void>(deps.store, C.counters, id, (current) => {
    const rest = current.slots.filter((slot) => !endpointIds.has(slot.id));
    return rest.length === current.slots.length ? keep(undefined) : write({ id, slots: rest }, undefined);
  });

/** Slots whose endpoint was never written or whose removal did not finish. */
const orphans = async (deps: CoreDeps, id: string): Promise<Set<string>> => {
  const record = (await deps.store.get(C.counters, id)) as SlotsRecord | undefined;
  const cutoff = deps.clock.now().getTime() - ORPHAN_AFTER_MS;
  const old = (record?.slots ?? []).filter((slot) => Date.parse(slot.at) <= cutoff);
  const present = await Promise.all(old.map(async (slot) => (await deps.store.get(C.webhooks, slot.id)) !== undefined));
  return new Set(old.filter((_, index) => !present[index]).map((slot) => slot.id));
};

/** Takes a place for `endpointId` in the organization's quota; answers whether it got one. */
export const reserveEndpointSlot = async (deps: CoreDeps, orgId: string, endpointId: string, limit: number): Promise<boolean> => {
  const id = slotsId(orgId);
  if ((await deps.store.get(C.counters, id)) === undefined) await deps.store.insert(C.counters, { id, slots: [] });
  if ((await take(deps, id, endpointId, limit))?.result === true) return true;
  const stale = await orphans(deps, id);
  if (stale.size === 0) return false;
  await drop(deps, id, stale);
  return (await take(deps, id, endpointId, limit))?.result === true;
};

/** Gives the place of a removed (or never written) endpoint back. */
export const releaseEndpointSlot = async (deps: CoreDeps, orgId: string, endpointId: string): Promise<void> => {
  await drop(deps, slotsId(orgId), new Set([endpointId]));
};
