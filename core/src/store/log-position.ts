import type { CoreDeps } from '../deps.js';
import { C } from './collections.js';
import { updateWithRetry, write } from './compare-and-set.js';

const COUNTER = 'event_log';

/**
 * The next `count` positions of the event log (answers the first), taken with one compare-and-set
 * of one counter document, so a flush of several events costs one update of the hot counter.
 * A position taken by a writer that then failed to insert its event is never reused: relays
 * treat it as a gap and wait for it a while before passing it (see event-relay.ts).
 */
export const nextLogPositions = async (deps: CoreDeps, count: number): Promise<number> => {
  if ((await deps.store.get(C.counters, COUNTER)) === undefined) await deps.store.insert(C.counters, { id: COUNTER, count: 0 });
  const outcome = await updateWithRetry<{ id: string; count: number }, number>(deps.store, C.counters, COUNTER, (current) =>
    write({ id: COUNTER, count: current.count + count }, current.count + 1),
  );
  if (outcome === undefined) throw new Error('event log counter vanished');
  return outcome.result;
};
