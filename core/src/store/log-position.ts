import type { CoreDeps } from '../deps.js';
import { C } from './collections.js';
import { updateWithRetry, write } from './compare-and-set.js';

const COUNTER = 'event_log';

/**
 * The next position of the event log, from one counter document moved by compare-and-set.
 * A position taken by a writer that then failed to insert its event is never reused: relays
 * treat it as a gap and wait for it a while before passing it (see event-relay.ts).
 */
export const nextLogPosition = async (deps: CoreDeps): Promise<number> => {
  if ((await deps.store.get(C.counters, COUNTER)) === undefined) await deps.store.insert(C.counters, { id: COUNTER, count: 0 });
  const outcome = await updateWithRetry<{ id: string; count: number }, number>(deps.store, C.counters, COUNTER, (current) =>
    write({ id: COUNTER, count: current.count + 1 }, current.count + 1),
  );
  if (outcome === undefined) throw new Error('event log counter vanished');
  return outcome.result;
};
