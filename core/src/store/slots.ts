import type { CoreDeps } from '../deps.js';
import type { StoredDocument } from '../ports/document-store.js';
import { iso } from '../domain/time.js';
import { C } from './collections.js';
import { keep, updateWithRetry, write } from './compare-and-set.js';

/**
 * A per-organization quota of things that each hold a place (webhook endpoints, custom domains):
 * one document listing the ids that hold one, moved by compare-and-set (rule 6), so N concurrent
 * creations at the limit admit exactly as many as fit. Listing the ids instead of keeping a count
 * lets the quota heal after a crash between the slot write and the thing's write: a slot whose
 * thing does not exist (and that is older than a creation could take) is given back when the
 * quota looks full.
 */
interface SlotsRecord {
  readonly id: string;
  readonly slots: readonly { readonly id: string; readonly at: string }[];
}

/** A creation writes its thing well within this after taking its slot. */
const ORPHAN_AFTER_MS = 60_000;

export interface Slots {
  /** Takes a place for `thingId` in the organization's quota; answers whether it got one. */
  reserve(deps: CoreDeps, orgId: string, thingId: string, limit: number): Promise<boolean>;
  /** Gives the place of a removed (or never written) thing back. */
  release(deps: CoreDeps, orgId: string, thingId: string): Promise<void>;
}

/**
 * The slots of things named `kind`, stored in `collection` (where an orphan's absence is seen).
 * `holds` says whether a thing that exists still holds its place (an export holds one only while
 * it runs); a slot of one that no longer does is given back like an orphan's. Default: any thing
 * that exists holds its place.
 */
export const slotsOf = (kind: string, collection: string, holds: (thing: StoredDocument) => boolean = () => true): Slots => {
  const slotsId = (orgId: string): string => `${kind}:${orgId}`;
  const take = (deps: CoreDeps, id: string, thingId: string, limit: number) =>
    updateWithRetry<SlotsRecord, boolean>(deps.store, C.counters, id, (current) => {
      if (current.slots.some((slot) => slot.id === thingId)) return keep(true);
      if (current.slots.length >= limit) return keep(false);
      return write({ id, slots: [...current.slots, { id: thingId, at: iso(deps.clock.now()) }] }, true);
    });
  const drop = (deps: CoreDeps, id: string, thingIds: ReadonlySet<string>) =>
    updateWithRetry<SlotsRecord, void>(deps.store, C.counters, id, (current) => {
      const rest = current.slots.filter((slot) => !thingIds.has(slot.id));
      return rest.length === current.slots.length ? keep(undefined) : write({ id, slots: rest }, undefined);
    });
  /** Slots whose thing was never written, whose removal did not finish, or that holds its place no longer. */
  const orphans = async (deps: CoreDeps, id: string): Promise<Set<string>> => {
    const record = (await deps.store.get(C.counters, id)) as SlotsRecord | undefined;
    const cutoff = deps.clock.now().getTime() - ORPHAN_AFTER_MS;
    const old = (record?.slots ?? []).filter((slot) => Date.parse(slot.at) <= cutoff);
    const present = await Promise.all(
      old.map(async (slot) => {
        const thing = await deps.store.get(collection, slot.id);
        return thing !== undefined && holds(thing);
      }),
    );
    return new Set(old.filter((_, index) => !present[index]).map((slot) => slot.id));
  };
  return {
    reserve: async (deps, orgId, thingId, limit) => {
      const id = slotsId(orgId);
      if ((await deps.store.get(C.counters, id)) === undefined) await deps.store.insert(C.counters, { id, slots: [] });
      if ((await take(deps, id, thingId, limit))?.result === true) return true;
      const stale = await orphans(deps, id);
      if (stale.size === 0) return false;
      await drop(deps, id, stale);
      return (await take(deps, id, thingId, limit))?.result === true;
    },
    release: async (deps, orgId, thingId) => {
      await drop(deps, slotsId(orgId), new Set([thingId]));
    },
  };
};
