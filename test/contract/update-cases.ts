import type { ContractCase } from './contract-case.js';
import { newCollection, newId, PARALLEL, times } from './contract-case.js';

/** The store's atomic read-modify-write, which core's compare-and-set rules go through. */
export const updateCases: Record<string, ContractCase> = {
  'update writes what change answers, bumps the version and answers the stored document': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, n: 1, keep: 'x' });
    const outcome = await store.update(collection, id, (current) => ({ id, n: (current.n as number) + 1 }));
    t.deepEqual(outcome, { doc: { id, n: 2, version: 2 }, written: true });
    t.deepEqual(await store.get(collection, id), { id, n: 2, version: 2 });
  },

  'update whose change answers undefined writes nothing and answers the document as found': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, n: 1 });
    t.deepEqual(await store.update(collection, id, () => undefined), { doc: { id, n: 1, version: 1 }, written: false });
    t.deepEqual(await store.get(collection, id), { id, n: 1, version: 1 });
  },

  'update of an absent document answers undefined without calling change': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    let called = false;
    t.is(await store.update(collection, id, () => ((called = true), { id })), undefined);
    t.false(called);
    t.is(await store.get(collection, id), undefined);
  },

  'update keeps the id and ignores a version in what change answers': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, n: 1 });
    await store.update(collection, id, () => ({ id: 'elsewhere', n: 5, version: 99 }));
    t.deepEqual(await store.get(collection, id), { id, n: 5, version: 2 });
    t.is(await store.get(collection, 'elsewhere'), undefined);
  },

  'update rejects with the error change throws and leaves the document unchanged': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, n: 1 });
    const error = await t.throwsAsync(store.update(collection, id, () => {
      throw new RangeError('no');
    }));
    t.true(error instanceof RangeError);
    t.deepEqual(await store.get(collection, id), { id, n: 1, version: 1 });
  },

  'change gets a copy: mutating it changes nothing stored': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, list: [1] });
    await store.update(collection, id, (current) => {
      (current.list as number[]).push(2);
      return undefined;
    });
    t.deepEqual(await store.get(collection, id), { id, list: [1], version: 1 });
  },

  [`${PARALLEL} parallel updates lose no change`]: async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, seen: [] as number[] });
    const outcomes = await times(PARALLEL, (i) =>
      store.update(collection, id, (current) => ({ id, seen: [...(current.seen as number[]), i] })),
    );
    t.true(outcomes.every((outcome) => outcome?.written === true));
    const stored = await store.get(collection, id);
    t.deepEqual([...(stored?.seen as number[])].sort((a, b) => a - b), Array.from({ length: PARALLEL }, (_, i) => i));
    t.is(stored?.version, PARALLEL + 1);
    t.deepEqual(new Set(outcomes.map((outcome) => outcome?.doc.version)).size, PARALLEL);
  },
};
