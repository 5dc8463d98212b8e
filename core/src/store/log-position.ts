import type { CoreDeps } from '../deps.js';
import type { PlannedWrite, PlanRead } from '../ports/document-store.js';
import { C } from './collections.js';
import { addToCounter } from './counter.js';

const COUNTER = 'event_log';

/**
 * The next `count` positions of the event log (answers the first), taken with one atomic
 * increment of one counter document, so a flush of several events costs one update of the hot
 * counter and concurrent flushes never retry. A position taken by a writer that then failed to
 * insert its event is never reused: relays treat it as a gap and wait for it a while before
 * passing it (see event-relay.ts).
 */
export const nextLogPositions = async (deps: CoreDeps, count: number): Promise<number> => {
  const last = await addToCounter(deps, COUNTER, count);
  if (last === 'over_max') throw new Error('event log counter refused an unbounded increment');
  return last - count + 1;
};

/**
 * The next `count` positions of the event log inside a `transact` plan: the counter as `read`
 * finds it, and the write that takes the positions (its replace at the version read, or its
 * creation on first use). Answers the first position and that write.
 */
export const planLogPositions = (read: PlanRead, count: number): { readonly first: number; readonly write: PlannedWrite } => {
  const counter = read(C.counters, COUNTER);
  if (counter === undefined) {
    const created = { id: COUNTER, count };
    return { first: 1, write: { kind: 'insert', collection: C.counters, doc: created } };
  }
  const last = counter.count;
  if (typeof last !== 'number') throw new TypeError(`counter ${COUNTER} does not hold a number`);
  const { version, ...fields } = counter;
  const taken = { ...fields, count: last + count };
  return { first: last + 1, write: { kind: 'replace', collection: C.counters, doc: taken, expectedVersion: version } };
};
