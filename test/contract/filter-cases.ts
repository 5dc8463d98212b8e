import type { DocumentStore, Filter } from '@ephemail/core';
import type { ExecutionContext } from 'ava';
import type { ContractCase } from './contract-case.js';
import { idsOf, insertAll, newCollection, orderedIds } from './contract-case.js';

/** Documents whose `v` holds values that a careless backend confuses with one another. */
const lookalikes = async (t: ExecutionContext, store: DocumentStore) => {
  const collection = newCollection();
  const names = ['true', 'false', 'one', 'zero', 'text_one', 'text_true', 'empty', 'null', 'missing'];
  const values = [true, false, 1, 0, '1', 'true', '', null, undefined];
  const ids = orderedIds(...names);
  const id = Object.fromEntries(names.map((name, i) => [name, ids[i] as string]));
  await insertAll(t, store, collection, ids.map((docId, i) => (i === 8 ? { id: docId } : { id: docId, v: values[i] })));
  const expect = async (where: Filter, matching: string[]) => {
    const expected = matching.map((name) => id[name]).sort();
    t.deepEqual(idsOf(await store.find(collection, { where })), expected, JSON.stringify(where));
    t.is(await store.count(collection, { where }), expected.length, JSON.stringify(where));
  };
  return expect;
};

/** Equality, null and `in` filters, and count. */
export const filterCases: Record<string, ContractCase> = {
  'find without a query answers every document ordered by id': async (t, store) => {
    const collection = newCollection();
    const ids = orderedIds('c', 'a', 'b');
    await insertAll(t, store, collection, ids.map((id) => ({ id })));
    t.deepEqual(idsOf(await store.find(collection, {})), [...ids].sort());
  },

  'find and count on an unknown collection answer nothing': async (t, store) => {
    const collection = newCollection();
    t.deepEqual(await store.find(collection, { where: { a: 1 } }), []);
    t.is(await store.count(collection), 0);
  },

  'find filters on string equality': async (t, store) => {
    const collection = newCollection();
    const [a, b, c] = orderedIds('a', 'b', 'c');
    await insertAll(t, store, collection, [
      { id: a, status: 'active' },
      { id: b, status: 'expired' },
      { id: c, status: 'Active' },
    ]);
    t.deepEqual(idsOf(await store.find(collection, { where: { status: 'active' } })), [a]);
  },

  'booleans match only booleans, never 1, 0 or their text': async (t, store) => {
    const expect = await lookalikes(t, store);
    await expect({ v: true }, ['true']);
    await expect({ v: false }, ['false']);
    await expect({ v: 'true' }, ['text_true']);
  },

  'numbers match only numbers, never booleans or text': async (t, store) => {
    const expect = await lookalikes(t, store);
    await expect({ v: 1 }, ['one']);
    await expect({ v: 0 }, ['zero']);
    await expect({ v: '1' }, ['text_one']);
  },

  'a null filter matches missing and null fields, nothing falsy': async (t, store) => {
    const expect = await lookalikes(t, store);
    await expect({ v: null }, ['null', 'missing']);
    await expect({ v: '' }, ['empty']);
  },

  'an in filter matches any listed value, null included': async (t, store) => {
    const expect = await lookalikes(t, store);
    await expect({ v: { in: [true, 0, 'true'] } }, ['true', 'zero', 'text_true']);
    await expect({ v: { in: [null, 1] } }, ['one', 'null', 'missing']);
    await expect({ v: { in: [] } }, []);
  },

  'an in filter with several values of one type keeps every type apart': async (t, store) => {
    const expect = await lookalikes(t, store);
    await expect({ v: { in: [true, false] } }, ['true', 'false']);
    await expect({ v: { in: [1, 0, 'true', '1'] } }, ['one', 'zero', 'text_true', 'text_one']);
    await expect({ v: { in: [null, null] } }, ['null', 'missing']);
    await expect({ v: { in: ['', 'true', null, false, 0, 1] } }, ['empty', 'text_true', 'null', 'missing', 'false', 'zero', 'one']);
  },

  'filters on several fields must all hold': async (t, store) => {
    const collection = newCollection();
    const [a, b, c, d] = orderedIds('a', 'b', 'c', 'd');
    await insertAll(t, store, collection, [
      { id: a, org: 'o1', project: 'p1', pending: true },
      { id: b, org: 'o1', project: 'p2', pending: true },
      { id: c, org: 'o2', project: 'p1', pending: true },
      { id: d, org: 'o1', project: 'p1', pending: false },
    ]);
    const where = { org: 'o1', project: { in: ['p1', 'p2'] }, pending: true };
    t.deepEqual(idsOf(await store.find(collection, { where })), [a, b]);
    t.is(await store.count(collection, { where }), 2);
  },

  'a filter on id selects by id': async (t, store) => {
    const collection = newCollection();
    const [a, b, c] = orderedIds('a', 'b', 'c');
    await insertAll(t, store, collection, [{ id: a }, { id: b }, { id: c }]);
    t.deepEqual(idsOf(await store.find(collection, { where: { id: b } })), [b]);
    t.deepEqual(idsOf(await store.find(collection, { where: { id: { in: [c, a, 'absent'] } } })), [a, c]);
  },

  'count answers how many documents match, ignoring none': async (t, store) => {
    const collection = newCollection();
    const docs = orderedIds(...'abcdefghij'.split('')).map((id, i) => ({ id, even: i % 2 === 0, n: i }));
    await insertAll(t, store, collection, docs);
    t.is(await store.count(collection), 10);
    t.is(await store.count(collection, {}), 10);
    t.is(await store.count(collection, { where: { even: true } }), 5);
    t.is(await store.count(collection, { where: { even: false }, range: { field: 'n', gte: 5 } }), 3);
  },
};
