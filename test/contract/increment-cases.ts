import type { ContractCase } from './contract-case.js';
import { newCollection, newId, PARALLEL, times } from './contract-case.js';

/** The store's own atomic add, used for counters every request touches. */
export const incrementCases: Record<string, ContractCase> = {
  'increment adds to the field, answers the new value and bumps the version': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, count: 5, label: 'kept' });
    t.is(await store.increment(collection, id, 'count', 3), 8);
    t.is(await store.increment(collection, id, 'count', -2), 6);
    t.deepEqual(await store.get(collection, id), { id, count: 6, label: 'kept', version: 3 });
  },

  'increment of an absent document answers absent and creates nothing': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    t.is(await store.increment(collection, id, 'count', 1), 'absent');
    t.is(await store.get(collection, id), undefined);
  },

  'increment past max answers over_max and changes nothing': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, count: 4 });
    t.is(await store.increment(collection, id, 'count', 2, { max: 5 }), 'over_max');
    t.deepEqual(await store.get(collection, id), { id, count: 4, version: 1 });
    t.is(await store.increment(collection, id, 'count', 1, { max: 5 }), 5);
  },

  'increment below floor stores the floor': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, count: 2 });
    t.is(await store.increment(collection, id, 'count', -5, { floor: 0 }), 0);
    t.is(await store.increment(collection, id, 'count', -1, { floor: -3 }), -1);
    t.deepEqual(await store.get(collection, id), { id, count: -1, version: 3 });
  },

  'increment of a field that holds no number rejects and changes nothing': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, count: '7' });
    await t.throwsAsync(store.increment(collection, id, 'count', 1), { instanceOf: TypeError });
    await t.throwsAsync(store.increment(collection, id, 'missing', 1), { instanceOf: TypeError });
    t.deepEqual(await store.get(collection, id), { id, count: '7', version: 1 });
  },

  [`${PARALLEL} parallel increments answer distinct values and lose no update`]: async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, count: 0 });
    const values = await times(PARALLEL, () => store.increment(collection, id, 'count', 1));
    t.deepEqual([...values].sort((a, b) => Number(a) - Number(b)), Array.from({ length: PARALLEL }, (_, i) => i + 1));
    t.deepEqual(await store.get(collection, id), { id, count: PARALLEL, version: PARALLEL + 1 });
  },

  'an increment that races the creation of its document answers absent or counts, never over_max': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    // Issued together: the increment may run before the insert (absent) or after it (1).
    const [outcome, inserted] = await Promise.all([
      store.increment(collection, id, 'count', 1, { max: 5 }),
      store.insert(collection, { id, count: 0 }),
    ]);
    t.is(inserted, 'inserted');
    t.true(outcome === 'absent' || outcome === 1, `answered ${String(outcome)}`);
  },

  [`of ${PARALLEL} parallel increments under a max of 10 exactly 10 succeed`]: async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, count: 0 });
    const outcomes = await times(PARALLEL, () => store.increment(collection, id, 'count', 1, { max: 10 }));
    t.is(outcomes.filter((outcome) => typeof outcome === 'number').length, 10);
    t.is(outcomes.filter((outcome) => outcome === 'over_max').length, PARALLEL - 10);
    t.deepEqual(await store.get(collection, id), { id, count: 10, version: 11 });
  },
};
