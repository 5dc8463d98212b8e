import type { RangeCondition } from '@ephemail/core';
import type { ContractCase } from './contract-case.js';
import { idsOf, insertAll, newCollection, orderedIds, pick } from './contract-case.js';

const at = (minute: number): string => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

/** Ranges, sorting and paging. */
export const orderCases: Record<string, ContractCase> = {
  'a range on ISO timestamps selects by time, each bound as given': async (t, store) => {
    const collection = newCollection();
    const ids = orderedIds('m0', 'm1', 'm2', 'm3', 'm4');
    await insertAll(t, store, collection, ids.map((id, i) => ({ id, occurred_at: at(i * 10) })));
    const find = async (range: Omit<RangeCondition, 'field'>) =>
      idsOf(await store.find(collection, { range: { field: 'occurred_at', ...range } }));
    t.deepEqual(await find({ gte: at(10), lt: at(30) }), ids.slice(1, 3));
    t.deepEqual(await find({ gt: at(10), lte: at(30) }), ids.slice(2, 4));
    t.deepEqual(await find({ gt: at(15) }), ids.slice(2));
    t.deepEqual(await find({ lt: at(15) }), ids.slice(0, 2));
    t.deepEqual(await find({ gte: at(40), lte: at(40) }), ids.slice(4));
    t.deepEqual(await find({ gt: at(30), lt: at(20) }), []);
  },

  'a range on numbers compares numerically, each bound as given': async (t, store) => {
    const collection = newCollection();
    const values = [-10, -1.5, 0, 2, 10, 100];
    const ids = orderedIds('a', 'b', 'c', 'd', 'e', 'f');
    await insertAll(t, store, collection, ids.map((id, i) => ({ id, n: values[i] })));
    const find = async (range: Omit<RangeCondition, 'field'>) =>
      idsOf(await store.find(collection, { range: { field: 'n', ...range } }));
    t.deepEqual(await find({ gt: -1.5, lte: 10 }), ids.slice(2, 5));
    t.deepEqual(await find({ gte: -1.5, lt: 10 }), ids.slice(1, 4));
    t.deepEqual(await find({ gt: 2 }), ids.slice(4));
    t.deepEqual(await find({ lte: 0 }), ids.slice(0, 3));
    t.is(await store.count(collection, { range: { field: 'n', gte: 2 } }), 3);
  },

  'a range never matches a missing or null field': async (t, store) => {
    const collection = newCollection();
    const [a, b, c] = orderedIds('a', 'b', 'c');
    await insertAll(t, store, collection, [{ id: a, n: 1 }, { id: b, n: null }, { id: c }]);
    t.deepEqual(idsOf(await store.find(collection, { range: { field: 'n', lt: 5 } })), [a]);
    t.deepEqual(idsOf(await store.find(collection, { range: { field: 'n', gte: null } })), [a]);
    t.deepEqual(idsOf(await store.find(collection, { range: { field: 'n', lte: null } })), []);
  },

  'a range combines with filters and a sort': async (t, store) => {
    const collection = newCollection();
    const ids = orderedIds('a', 'b', 'c', 'd', 'e', 'f');
    const docs = ids.map((id, i) => ({ id, org: i % 2 === 0 ? 'o1' : 'o2', occurred_at: at(i) }));
    await insertAll(t, store, collection, docs);
    const query = {
      where: { org: 'o1' },
      range: { field: 'occurred_at', gte: at(1), lte: at(5) },
      sort: { field: 'occurred_at', direction: 'desc' as const },
    };
    t.deepEqual(idsOf(await store.find(collection, query)), pick(ids, 4, 2));
    t.is(await store.count(collection, query), 2);
  },

  'sort orders strings by code unit, ascending and descending': async (t, store) => {
    const collection = newCollection();
    const [a, b, c, d] = orderedIds('a', 'b', 'c', 'd');
    const names = { [a]: 'b', [b]: 'B', [c]: 'a', [d]: 'ab' };
    await insertAll(t, store, collection, Object.entries(names).map(([id, name]) => ({ id, name })));
    const asc = await store.find(collection, { sort: { field: 'name', direction: 'asc' } });
    t.deepEqual(asc.map((doc) => doc.name), ['B', 'a', 'ab', 'b']);
    const desc = await store.find(collection, { sort: { field: 'name', direction: 'desc' } });
    t.deepEqual(desc.map((doc) => doc.name), ['b', 'ab', 'a', 'B']);
  },

  'sort orders numbers by value, not as text': async (t, store) => {
    const collection = newCollection();
    const values = [10, 2, -3, 1.5, 100];
    await insertAll(t, store, collection, orderedIds('a', 'b', 'c', 'd', 'e').map((id, i) => ({ id, n: values[i] })));
    const docs = await store.find(collection, { sort: { field: 'n', direction: 'asc' } });
    t.deepEqual(docs.map((doc) => doc.n), [-3, 1.5, 2, 10, 100]);
  },

  'sort breaks ties by id in the same direction': async (t, store) => {
    const collection = newCollection();
    const [a, b, c, d] = orderedIds('a', 'b', 'c', 'd');
    const docs = [{ id: c, rank: 1 }, { id: a, rank: 2 }, { id: d, rank: 1 }, { id: b, rank: 2 }];
    await insertAll(t, store, collection, docs);
    const asc = await store.find(collection, { sort: { field: 'rank', direction: 'asc' } });
    t.deepEqual(idsOf(asc), [c, d, a, b]);
    const desc = await store.find(collection, { sort: { field: 'rank', direction: 'desc' } });
    t.deepEqual(idsOf(desc), [b, a, d, c]);
    const byId = await store.find(collection, { sort: { field: 'id', direction: 'desc' } });
    t.deepEqual(idsOf(byId), [d, c, b, a]);
  },

  'values of mixed types order null, booleans, numbers, then strings': async (t, store) => {
    const collection = newCollection();
    const values = ['a', 10, true, null, -1, false, '10', undefined];
    const ids = orderedIds('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');
    await insertAll(t, store, collection, ids.map((id, i) => (i === 7 ? { id } : { id, v: values[i] })));
    const asc = await store.find(collection, { sort: { field: 'v', direction: 'asc' } });
    t.deepEqual(idsOf(asc), pick(ids, 3, 7, 5, 2, 4, 1, 6, 0));
    const desc = await store.find(collection, { sort: { field: 'v', direction: 'desc' } });
    t.deepEqual(idsOf(desc), pick(ids, 0, 6, 1, 4, 2, 5, 7, 3));
  },

  'a range compares values of different types by that order': async (t, store) => {
    const collection = newCollection();
    const values = ['a', 10, true, null, -1, false, '10'];
    const ids = orderedIds('a', 'b', 'c', 'd', 'e', 'f', 'g');
    await insertAll(t, store, collection, ids.map((id, i) => ({ id, v: values[i] })));
    const find = async (range: Omit<RangeCondition, 'field'>) =>
      idsOf(await store.find(collection, { range: { field: 'v', ...range }, sort: { field: 'v', direction: 'asc' } }));
    t.deepEqual(await find({ gt: 0 }), pick(ids, 1, 6, 0));
    t.deepEqual(await find({ lt: 0 }), pick(ids, 5, 2, 4));
    t.deepEqual(await find({ gte: true, lt: 'a' }), pick(ids, 2, 4, 1, 6));
    t.deepEqual(await find({ lte: false }), pick(ids, 5));
  },

  'limit and offset page through a sorted result': async (t, store) => {
    const collection = newCollection();
    const ids = orderedIds(...'abcdefg'.split(''));
    await insertAll(t, store, collection, ids.map((id, i) => ({ id, n: i % 3 })));
    const sort = { field: 'n', direction: 'desc' as const };
    const all = idsOf(await store.find(collection, { sort }));
    const pages = [];
    for (let offset = 0; offset < 9; offset += 3) {
      pages.push(...idsOf(await store.find(collection, { sort, limit: 3, offset })));
    }
    t.deepEqual(pages, all);
    t.deepEqual(idsOf(await store.find(collection, { sort, offset: 5 })), all.slice(5));
    t.deepEqual(await store.find(collection, { sort, limit: 2, offset: 7 }), []);
    t.deepEqual(await store.find(collection, { sort, limit: 0 }), []);
    t.deepEqual(idsOf(await store.find(collection, { limit: 2 })), ids.slice(0, 2));
  },
};
