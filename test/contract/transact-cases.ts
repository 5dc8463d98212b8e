import type { DocumentStore } from '@ephemail/core';
import type { ExecutionContext } from 'ava';
import type { ContractCase } from './contract-case.js';
import { newCollection, newId, PARALLEL, times, whenOffered } from './contract-case.js';

type Transact = NonNullable<DocumentStore['transact']>;

/** `transact` is optional: see the pipeline's recording-paths test for core's path without it. */
const offered = (check: (t: ExecutionContext, store: DocumentStore, transact: Transact) => Promise<void>): ContractCase => whenOffered('transact', check);

/** Adds one to a counter document through a plan that reads it and replaces it at the version read. */
const bump = (transact: Transact, collection: string, id: string) =>
  transact((read) => {
    const current = read(collection, id);
    if (current === undefined) return { writes: [{ kind: 'insert', collection, doc: { id, n: 1 } }], result: 1 };
    const n = (current.n as number) + 1;
    return { writes: [{ kind: 'replace', collection, doc: { id, n }, expectedVersion: current.version }], result: n };
  });

/** transact: reads, then inserts and compare-and-set replaces of several documents, all or none. */
export const transactCases: Record<string, ContractCase> = {
  'transact reads documents and writes inserts and replaces across collections at once': offered(async (t, store, transact) => {
    const [a, b, x, y] = [newCollection(), newCollection(), newId(), newId()];
    await store.insert(a, { id: x, n: 1 });
    const outcome = await transact((read) => {
      const current = read(a, x);
      if (current === undefined) throw new Error('missing');
      t.deepEqual(current, { id: x, n: 1, version: 1 });
      t.is(read(b, y), undefined);
      return {
        writes: [
          { kind: 'replace', collection: a, doc: { id: x, n: 2, version: 99 }, expectedVersion: current.version },
          { kind: 'insert', collection: b, doc: { id: y, from: x } },
        ],
        result: 'done',
      };
    });
    t.deepEqual(outcome, { kind: 'written', result: 'done' });
    t.deepEqual(await store.get(a, x), { id: x, n: 2, version: 2 });
    t.deepEqual(await store.get(b, y), { id: y, from: x, version: 1 });
  }),

  'a plan with no writes answers its result and changes nothing': offered(async (t, store, transact) => {
    const [a, x] = [newCollection(), newId()];
    await store.insert(a, { id: x });
    t.deepEqual(await transact((read) => ({ writes: [], result: read(a, x)?.version })), { kind: 'written', result: 1 });
    t.deepEqual(await store.get(a, x), { id: x, version: 1 });
  }),

  'a copy the plan changes is not the stored document': offered(async (t, store, transact) => {
    const [a, x] = [newCollection(), newId()];
    await store.insert(a, { id: x, list: [1] });
    await transact((read) => {
      (read(a, x)?.list as number[]).push(2);
      return { writes: [], result: undefined };
    });
    t.deepEqual(await store.get(a, x), { id: x, list: [1], version: 1 });
  }),

  'a taken id or a stale version writes none of the plan': offered(async (t, store, transact) => {
    const [a, taken, fresh, held] = [newCollection(), newId(), newId(), newId()];
    await store.insert(a, { id: taken, n: 0 });
    await store.insert(a, { id: held, n: 0 });
    const insertTaken = await transact(() => ({
      writes: [
        { kind: 'insert', collection: a, doc: { id: fresh } },
        { kind: 'insert', collection: a, doc: { id: taken, n: 1 } },
      ],
      result: 'never',
    }));
    const staleReplace = await transact(() => ({
      writes: [
        { kind: 'insert', collection: a, doc: { id: fresh } },
        { kind: 'replace', collection: a, doc: { id: held, n: 1 }, expectedVersion: 7 },
      ],
      result: 'never',
    }));
    const absentReplace = await transact(() => ({
      writes: [{ kind: 'replace', collection: a, doc: { id: newId(), n: 1 }, expectedVersion: 1 }],
      result: 'never',
    }));
    t.deepEqual([insertTaken, staleReplace, absentReplace], [{ kind: 'conflict' }, { kind: 'conflict' }, { kind: 'conflict' }]);
    t.is(await store.get(a, fresh), undefined);
    t.deepEqual(await store.get(a, taken), { id: taken, n: 0, version: 1 });
    t.deepEqual(await store.get(a, held), { id: held, n: 0, version: 1 });
  }),

  'a plan that writes one document twice writes nothing': offered(async (t, store, transact) => {
    const [a, x, other] = [newCollection(), newId(), newId()];
    const outcome = await transact(() => ({
      writes: [
        { kind: 'insert', collection: a, doc: { id: other } },
        { kind: 'insert', collection: a, doc: { id: x, n: 1 } },
        { kind: 'insert', collection: a, doc: { id: x, n: 2 } },
      ],
      result: 'never',
    }));
    t.deepEqual(outcome, { kind: 'conflict' });
    t.is(await store.count(a), 0);
  }),

  'a plan that throws rejects the call and writes nothing': offered(async (t, store, transact) => {
    const [a, x] = [newCollection(), newId()];
    await store.insert(a, { id: x, n: 0 });
    await t.throwsAsync(
      () =>
        transact((read) => {
          read(a, x);
          throw new Error('plan failed');
        }),
      { message: 'plan failed' },
    );
    t.deepEqual(await store.get(a, x), { id: x, n: 0, version: 1 });
    // The store still works after it, for this call and the writes beside it.
    t.is(await store.insert(a, { id: newId() }), 'inserted');
  }),

  'a refused transact leaves the writes made beside it alone': offered(async (t, store, transact) => {
    const [a, taken, mine, theirs] = [newCollection(), newId(), newId(), newId()];
    await store.insert(a, { id: taken });
    const [refused, plain] = await Promise.all([
      transact(() => ({
        writes: [
          { kind: 'insert', collection: a, doc: { id: theirs } },
          { kind: 'insert', collection: a, doc: { id: taken } },
        ],
        result: 'never',
      })),
      store.insert(a, { id: mine }),
    ]);
    t.deepEqual(refused, { kind: 'conflict' });
    t.is(plain, 'inserted');
    t.truthy(await store.get(a, mine));
    t.is(await store.get(a, theirs), undefined);
  }),

  [`${PARALLEL} parallel transacts that read and replace one counter lose no update`]: offered(async (t, store, transact) => {
    const [a, id] = [newCollection(), newId()];
    const outcomes = await times(PARALLEL, () => bump(transact, a, id));
    t.true(outcomes.every((outcome) => outcome.kind === 'written'), 'no plan meets a write between its read and its writes');
    const seen = outcomes.map((outcome) => (outcome.kind === 'written' ? outcome.result : 0)).sort((x, y) => x - y);
    t.deepEqual(seen, Array.from({ length: PARALLEL }, (_, i) => i + 1));
    t.like(await store.get(a, id), { n: PARALLEL, version: PARALLEL });
  }),
};
