import type { CoreDeps } from '../deps.js';
import type { IncrementBounds, PlannedWrite, PlanRead } from '../ports/document-store.js';
import { C } from './collections.js';
import { incremented } from './increment-rule.js';

/**
 * Adds `by` to the `count` of a counter document with the store's atomic increment, creating the
 * counter at 0 on first use. Answers the new count, or `'over_max'` when `bounds.max` refused it.
 * Counters are the documents every request touches, so they never go through compare-and-set.
 * A counter given `expiresAt` (a rate window) lives among the expiring records, which the
 * maintenance job deletes after that time; without it, it is kept.
 */
export const addToCounter = async (
  deps: CoreDeps,
  id: string,
  by: number,
  bounds?: IncrementBounds,
  expiresAt?: string,
): Promise<number | 'over_max'> => {
  const collection = expiresAt === undefined ? C.counters : C.expiring;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const outcome = await deps.store.increment(collection, id, 'count', by, bounds);
    if (outcome !== 'absent') return outcome;
    // Only the first use creates it; a concurrent creator makes this one answer 'exists'.
    await deps.store.insert(collection, expiresAt === undefined ? { id, count: 0 } : { id, count: 0, expires_at: expiresAt });
  }
  throw new Error(`counter ${id} vanished while it was being incremented`);
};

/**
 * `addToCounter` inside a `transact` plan: the counter as `read` finds it, `by` added by the same
 * rule as the store's increment (created at 0 on first use), and the write that stores it.
 * Answers the new count and that write.
 */
export const planCounterAdd = (read: PlanRead, id: string, by: number): { readonly count: number; readonly write: PlannedWrite } => {
  const counter = read(C.counters, id);
  const count = incremented(counter === undefined ? 0 : counter.count, by, {});
  if (typeof count !== 'number') throw new TypeError(`counter ${id} does not hold a number`);
  if (counter === undefined) {
    const created = { id, count };
    return { count, write: { kind: 'insert', collection: C.counters, doc: created } };
  }
  const { version, ...fields } = counter;
  const added = Object.assign({}, fields, { count });
  return { count, write: { kind: 'replace', collection: C.counters, doc: added, expectedVersion: version } };
};
