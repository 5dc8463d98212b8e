import type { ContractCase } from './contract-case.js';
import { newCollection, newId } from './contract-case.js';

/** get, insert, replace and remove on single documents. */
export const crudCases: Record<string, ContractCase> = {
  'get answers undefined for an absent document': async (t, store) => {
    t.is(await store.get(newCollection(), newId()), undefined);
  },

  'insert stores the document at version 1': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    t.is(await store.insert(collection, { id, name: 'ada', age: 36 }), 'inserted');
    t.deepEqual(await store.get(collection, id), { id, name: 'ada', age: 36, version: 1 });
  },

  'insert refuses a duplicate id and keeps the first document': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, name: 'first' });
    t.is(await store.insert(collection, { id, name: 'second' }), 'exists');
    t.deepEqual(await store.get(collection, id), { id, name: 'first', version: 1 });
  },

  'insert starts at version 1 whatever version the caller passes': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, version: 7, name: 'x' });
    t.is((await store.get(collection, id))?.version, 1);
  },

  'the same id in two collections names two documents': async (t, store) => {
    const [a, b, id] = [newCollection(), newCollection(), newId()];
    t.is(await store.insert(a, { id, in: 'a' }), 'inserted');
    t.is(await store.insert(b, { id, in: 'b' }), 'inserted');
    t.is((await store.get(a, id))?.in, 'a');
    t.is((await store.get(b, id))?.in, 'b');
  },

  'replace with the current version succeeds and increments the version': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, n: 0 });
    t.true(await store.replace(collection, { id, n: 1 }, 1));
    t.true(await store.replace(collection, { id, n: 2 }, 2));
    t.deepEqual(await store.get(collection, id), { id, n: 2, version: 3 });
  },

  'replace with a stale version answers false and changes nothing': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, n: 0 });
    await store.replace(collection, { id, n: 1 }, 1);
    t.false(await store.replace(collection, { id, n: 99 }, 1));
    t.false(await store.replace(collection, { id, n: 99 }, 3));
    t.deepEqual(await store.get(collection, id), { id, n: 1, version: 2 });
  },

  'replace of an absent document answers false and creates nothing': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    t.false(await store.replace(collection, { id, n: 1 }, 1));
    t.is(await store.get(collection, id), undefined);
  },

  'replace swaps the whole document, dropping fields left out': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, keep: 1, drop: 'me', nested: { a: 1 } });
    t.true(await store.replace(collection, { id, keep: 2, added: true }, 1));
    t.deepEqual(await store.get(collection, id), { id, keep: 2, added: true, version: 2 });
  },

  'replace sets the version itself, ignoring one in the new document': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, n: 0 });
    const current = await store.get(collection, id);
    t.true(await store.replace(collection, { ...current, id, n: 1, version: 42 }, 1));
    t.is((await store.get(collection, id))?.version, 2);
  },

  'documents returned by get and find are copies': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, tags: ['a'], meta: { deep: { n: 1 } } });
    const got = (await store.get(collection, id)) as unknown as { tags: string[]; meta: { deep: { n: number } } };
    got.tags.push('mutated');
    got.meta.deep.n = 2;
    const [found] = (await store.find(collection, {})) as unknown as { tags: string[] }[];
    found?.tags.push('mutated too');
    t.deepEqual(await store.get(collection, id), { id, tags: ['a'], meta: { deep: { n: 1 } }, version: 1 });
  },

  'a stored document does not follow later changes to the inserted object': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    const doc = { id, list: [1, 2], meta: { n: 1 } };
    await store.insert(collection, doc);
    doc.list.push(3);
    doc.meta.n = 2;
    t.deepEqual(await store.get(collection, id), { id, list: [1, 2], meta: { n: 1 }, version: 1 });
  },

  'remove without a version deletes the document': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id });
    await store.replace(collection, { id, n: 1 }, 1);
    t.true(await store.remove(collection, id));
    t.is(await store.get(collection, id), undefined);
  },

  'remove with the current version deletes the document': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id });
    await store.replace(collection, { id, n: 1 }, 1);
    t.true(await store.remove(collection, id, 2));
    t.is(await store.get(collection, id), undefined);
  },

  'remove with a stale version answers false and keeps the document': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id });
    await store.replace(collection, { id, n: 1 }, 1);
    t.false(await store.remove(collection, id, 1));
    t.deepEqual(await store.get(collection, id), { id, n: 1, version: 2 });
  },

  'remove of an absent document answers false': async (t, store) => {
    const collection = newCollection();
    t.false(await store.remove(collection, newId()));
    t.false(await store.remove(collection, newId(), 1));
  },

  'an id is free again after remove, starting over at version 1': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, life: 1 });
    await store.replace(collection, { id, life: 1, n: 1 }, 1);
    await store.remove(collection, id);
    t.is(await store.insert(collection, { id, life: 2 }), 'inserted');
    t.deepEqual(await store.get(collection, id), { id, life: 2, version: 1 });
  },
};
