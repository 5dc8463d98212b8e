import type { DocumentStore } from '@ephemail/core';
import type { ContractCase } from './contract-case.js';
import { newCollection, newId, PARALLEL, times } from './contract-case.js';

/** Far more attempts than 50 contenders can need; reaching it means a lost update loop. */
const MAX_ATTEMPTS = 10_000;

/**
 * Adds one to the counter with read-modify-write and compare-and-set, retrying on a lost race:
 * the pattern every quota and claim in core relies on. Answers how many attempts it took.
 */
export const increment = async (store: DocumentStore, collection: string, id: string): Promise<number> => {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    const current = await store.get(collection, id);
    if (current === undefined) throw new Error(`counter ${id} is missing`);
    const count = current.count as number;
    if (await store.replace(collection, { id, count: count + 1 }, current.version)) return attempt;
  }
  throw new Error(`counter ${id}: no increment after ${MAX_ATTEMPTS} attempts`);
};

/** N concurrent callers, exactly one winner. */
export const raceCases: Record<string, ContractCase> = {
  [`of ${PARALLEL} parallel inserts of one id exactly one wins`]: async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    const outcomes = await times(PARALLEL, (i) => store.insert(collection, { id, writer: i }));
    t.is(outcomes.filter((outcome) => outcome === 'inserted').length, 1);
    t.is(outcomes.filter((outcome) => outcome === 'exists').length, PARALLEL - 1);
    const winner = outcomes.indexOf('inserted');
    t.deepEqual(await store.get(collection, id), { id, writer: winner, version: 1 });
  },

  [`of ${PARALLEL} parallel replaces with one expected version exactly one wins`]: async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, writer: -1 });
    const outcomes = await times(PARALLEL, (i) => store.replace(collection, { id, writer: i }, 1));
    t.is(outcomes.filter(Boolean).length, 1);
    const winner = outcomes.indexOf(true);
    t.deepEqual(await store.get(collection, id), { id, writer: winner, version: 2 });
  },

  [`of ${PARALLEL} parallel removes with one expected version exactly one wins`]: async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id });
    const outcomes = await times(PARALLEL, () => store.remove(collection, id, 1));
    t.is(outcomes.filter(Boolean).length, 1);
    t.is(await store.get(collection, id), undefined);
  },

  [`${PARALLEL} parallel read-modify-write increments lose no update`]: async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, count: 0 });
    await times(PARALLEL, () => increment(store, collection, id));
    t.deepEqual(await store.get(collection, id), { id, count: PARALLEL, version: PARALLEL + 1 });
  },
};
