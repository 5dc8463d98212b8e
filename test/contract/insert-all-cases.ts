import type { DocumentStore } from '@ephemail/core';
import type { ExecutionContext } from 'ava';
import type { ContractCase } from './contract-case.js';
import { newCollection, newId, PARALLEL, times, whenOffered } from './contract-case.js';

type InsertAll = NonNullable<DocumentStore['insertAll']>;

/** `insertAll` is optional: see the core test of the outbox path for core's path without it. */
const offered = (check: (t: ExecutionContext, store: DocumentStore, insertAll: InsertAll) => Promise<void>): ContractCase => whenOffered('insertAll', check);

/** insertAll: several documents, of one collection or several, all or none. */
export const insertAllCases: Record<string, ContractCase> = {
  'insertAll stores every document at version 1, across collections': offered(async (t, store, insertAll) => {
    const [a, b, x, y, z] = [newCollection(), newCollection(), newId(), newId(), newId()];
    t.is(await insertAll([{ collection: a, doc: { id: x, n: 1 } }, { collection: b, doc: { id: y, n: 2, version: 9 } }, { collection: a, doc: { id: z, n: 3 } }]), 'inserted');
    t.deepEqual(await store.get(a, x), { id: x, n: 1, version: 1 });
    t.deepEqual(await store.get(b, y), { id: y, n: 2, version: 1 });
    t.deepEqual(await store.get(a, z), { id: z, n: 3, version: 1 });
  }),

  'insertAll with one id taken stores none of the documents': offered(async (t, store, insertAll) => {
    const [a, b, taken, fresh, later] = [newCollection(), newCollection(), newId(), newId(), newId()];
    await store.insert(b, { id: taken, first: true });
    t.is(await insertAll([{ collection: a, doc: { id: fresh } }, { collection: b, doc: { id: taken, first: false } }, { collection: a, doc: { id: later } }]), 'exists');
    t.is(await store.get(a, fresh), undefined);
    t.is(await store.get(a, later), undefined);
    t.deepEqual(await store.get(b, taken), { id: taken, first: true, version: 1 });
  }),

  'insertAll naming one id twice in one collection stores nothing': offered(async (t, store, insertAll) => {
    const [a, id, other] = [newCollection(), newId(), newId()];
    t.is(await insertAll([{ collection: a, doc: { id: other } }, { collection: a, doc: { id, n: 1 } }, { collection: a, doc: { id, n: 2 } }]), 'exists');
    t.is(await store.count(a), 0);
  }),

  'a refused insertAll leaves the writes made beside it alone': offered(async (t, store, insertAll) => {
    const [a, taken, mine, theirs] = [newCollection(), newId(), newId(), newId()];
    await store.insert(a, { id: taken });
    const [refused, plain] = await Promise.all([
      insertAll([{ collection: a, doc: { id: theirs } }, { collection: a, doc: { id: taken } }]),
      store.insert(a, { id: mine }),
    ]);
    t.is(refused, 'exists');
    t.is(plain, 'inserted');
    t.truthy(await store.get(a, mine));
    t.is(await store.get(a, theirs), undefined);
  }),

  [`of ${PARALLEL} parallel insertAlls sharing one id exactly one stores its documents`]: offered(async (t, store, insertAll) => {
    const [shared, own, id] = [newCollection(), newCollection(), newId()];
    const outcomes = await times(PARALLEL, (i) =>
      insertAll([{ collection: own, doc: { id: `own_${i}`, writer: i } }, { collection: shared, doc: { id, writer: i } }]),
    );
    t.is(outcomes.filter((outcome) => outcome === 'inserted').length, 1);
    const winner = outcomes.indexOf('inserted');
    t.deepEqual(await store.get(shared, id), { id, writer: winner, version: 1 });
    t.is(await store.count(own), 1);
    t.deepEqual(await store.get(own, `own_${winner}`), { id: `own_${winner}`, writer: winner, version: 1 });
  }),
};
