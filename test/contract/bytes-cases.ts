import type { StoredDocument } from '@ephemail/core';
import type { ExecutionContext } from 'ava';
import type { ContractCase } from './contract-case.js';
import { newCollection, newId, whenOffered } from './contract-case.js';

/** Every byte value, CR and LF among them, and bytes that are not UTF-8. */
const SAMPLE = Uint8Array.from({ length: 600 }, (_, i) => (i * 7 + 13) % 256);

/** The document's bytes field holds exactly `expected`, as a Uint8Array. */
const holds = (t: ExecutionContext, doc: StoredDocument | undefined, field: string, expected: Uint8Array): void => {
  const value = doc?.[field];
  t.true(value instanceof Uint8Array, `${field} reads back as a Uint8Array`);
  t.deepEqual(Buffer.from(value as Uint8Array), Buffer.from(expected));
};

/** One top-level field of bytes: kept as bytes through every operation that keeps the field. */
export const bytesCases: Record<string, ContractCase> = {
  'a field of bytes is stored as bytes, beside JSON fields': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    t.is(await store.insert(collection, { id, raw: SAMPLE, n: 1, note: 'x' }), 'inserted');
    const doc = await store.get(collection, id);
    holds(t, doc, 'raw', SAMPLE);
    t.like(doc, { id, n: 1, note: 'x', version: 1 });
    t.deepEqual(Object.keys(doc ?? {}).sort(), ['id', 'n', 'note', 'raw', 'version']);
  },

  'empty bytes and a view into a larger buffer are stored as what they show': async (t, store) => {
    const collection = newCollection();
    const [empty, view] = [newId(), newId()];
    await store.insert(collection, { id: empty, raw: new Uint8Array(0) });
    holds(t, await store.get(collection, empty), 'raw', new Uint8Array(0));
    await store.insert(collection, { id: view, raw: SAMPLE.subarray(100, 200) });
    holds(t, await store.get(collection, view), 'raw', SAMPLE.slice(100, 200));
  },

  'replace and update keep, change or drop the field of bytes as the new document says': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, raw: SAMPLE, n: 1 });
    t.true(await store.replace(collection, { id, raw: SAMPLE.slice(0, 10), n: 2 }, 1));
    holds(t, await store.get(collection, id), 'raw', SAMPLE.slice(0, 10));
    const updated = await store.update(collection, id, (current) => ({ ...current, n: (current.n as number) + 1 }));
    holds(t, updated?.doc, 'raw', SAMPLE.slice(0, 10));
    holds(t, await store.get(collection, id), 'raw', SAMPLE.slice(0, 10));
    t.true(await store.replace(collection, { id, n: 9 }, 3));
    t.deepEqual(await store.get(collection, id), { id, n: 9, version: 4 });
  },

  'increment leaves the field of bytes as it was': async (t, store) => {
    const [collection, id] = [newCollection(), newId()];
    await store.insert(collection, { id, raw: SAMPLE, count: 1 });
    t.is(await store.increment(collection, id, 'count', 2), 3);
    const doc = await store.get(collection, id);
    holds(t, doc, 'raw', SAMPLE);
    t.like(doc, { count: 3, version: 2 });
  },

  'find returns documents with their bytes': async (t, store) => {
    const collection = newCollection();
    await store.insert(collection, { id: newId(), raw: SAMPLE, kind: 'a' });
    await store.insert(collection, { id: newId(), kind: 'b' });
    const found = await store.find(collection, { where: { kind: 'a' } });
    t.is(found.length, 1);
    holds(t, found[0], 'raw', SAMPLE);
  },

  'transact reads and writes a field of bytes': whenOffered('transact', async (t, store, transact) => {
    const [collection, id, copy] = [newCollection(), newId(), newId()];
    await store.insert(collection, { id, raw: SAMPLE });
    const outcome = await transact((read) => {
      const current = read(collection, id);
      holds(t, current, 'raw', SAMPLE);
      return { writes: [{ kind: 'insert', collection, doc: { id: copy, raw: current?.raw as Uint8Array } }], result: undefined };
    });
    t.is(outcome.kind, 'written');
    holds(t, await store.get(collection, copy), 'raw', SAMPLE);
  }),
};
