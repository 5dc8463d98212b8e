import type { ContractCase } from './contract-case.js';
import { idsOf, newCollection, newId } from './contract-case.js';

const NESTED = {
  object: { a: 1, b: { c: [1, 'two', { three: 3 }] }, empty: {} },
  array: [[], [null], [true, false], [-1.5, 0, 1e21]],
  unicode: 'héllo wörld — 日本語 — 😀🎉 — e\u0301 — \u0000 nul',
  escapes: 'quote " backslash \\ newline \n tab \t',
  keys: { 'with space': 1, 'dot.ted': 2, $dollar: 3, 'ü': 4 },
  falsy: { zero: 0, empty: '', no: false, nothing: null },
  numbers: [Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 0.1 + 0.2, -0.000001],
};

/** Values round-trip, the store prepares and answers, and closing ends it. */
export const lifecycleCases: Record<string, ContractCase> = {
  'nested JSON values round-trip unchanged': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, ...NESTED });
    t.deepEqual(await store.get(collection, id), { id, ...NESTED, version: 1 });
    t.true(await store.replace(collection, { id, again: NESTED }, 1));
    t.deepEqual(await store.get(collection, id), { id, again: NESTED, version: 2 });
  },

  'large strings round-trip unchanged': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    const large = 'ab€😀'.repeat(256 * 1024);
    await store.insert(collection, { id, large });
    const [found] = await store.find(collection, { where: { id } });
    t.is(found?.large, large);
  },

  'init is idempotent': async (t, store) => {
    const collection = newCollection();
    const specs = [
      { name: collection, indexes: [['owner', 'created_at'], ['status'], ['flag', 'n']] },
      { name: newCollection(), indexes: [] },
    ];
    await store.init(specs);
    await store.init(specs);
    await store.init([]);
    const id = newId();
    await store.insert(collection, { id, owner: 'o', created_at: '2026-01-01T00:00:00.000Z', flag: true });
    const query = { where: { owner: 'o', flag: true }, sort: { field: 'created_at', direction: 'asc' as const } };
    t.deepEqual(idsOf(await store.find(collection, query)), [id]);
  },

  'init does not disturb stored documents': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, status: 'active' });
    await store.init([{ name: collection, indexes: [['status']] }]);
    t.deepEqual(await store.get(collection, id), { id, status: 'active', version: 1 });
    t.is(await store.count(collection, { where: { status: 'active' } }), 1);
  },

  'ping resolves while the store is open': async (t, store) => {
    await t.notThrowsAsync(store.ping());
  },

  'ping rejects once the store is closed': async (t, store) => {
    await store.close();
    await t.throwsAsync(store.ping());
  },
};
