import type { CoreDeps } from '../deps.js';
import type { PlannedWrite, PlanRead } from '../ports/document-store.js';
import { addToCounter, planCounterAdd } from './counter.js';

/** The counter whose count is the newest position taken in the event log. */
export const EVENT_LOG_COUNTER = 'event_log';

/**
 * The next `count` positions of the event log (answers the first), taken with one atomic
 * increment of one counter document, so a flush of several events costs one update of the hot
 * counter and concurrent flushes never retry. A position taken by a writer that then failed to
 * insert its event is never reused: relays treat it as a gap and wait for it a while before
 * passing it (see event-relay.ts).
 */
export const nextLogPositions = async (deps: CoreDeps, count: number): Promise<number> => {
  const last = await addToCounter(deps, EVENT_LOG_COUNTER, count);
  if (last === 'over_max') throw new Error('event log counter refused an unbounded increment');
  return last - count + 1;
};

/**
 * The next `count` positions of the event log inside a `transact` plan (answers the first), and
 * the counter's write that takes them.
 */
export const planLogPositions = (read: PlanRead, count: number): { readonly first: number; readonly write: PlannedWrite } => {
  const taken = planCounterAdd(read, EVENT_LOG_COUNTER, count);
  return { first: taken.count - count + 1, write: taken.write };
};
