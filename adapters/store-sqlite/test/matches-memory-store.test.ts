import { createMemoryDocumentStore, type FindQuery, type NewDocument, type Scalar } from '@ephemail/core';
import { isDeepStrictEqual } from 'node:util';
import test from 'ava';
import fc from 'fast-check';
import { createSqliteDocumentStore, openSqliteDatabase } from '../src/index.js';

// Values chosen to collide: booleans and 1/0, numbers and their text, null and missing, case.
const scalar: fc.Arbitrary<Scalar> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -2, max: 2 }),
  fc.constantFrom(0.5, -1.5),
  fc.constantFrom('', '0', '1', 'true', 'a', 'B', 'b', '2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z'),
);
const field = fc.constantFrom('f', 'g');

const docs: fc.Arbitrary<NewDocument[]> = fc
  .uniqueArray(fc.constantFrom(...'abcdefghij'.split('')), { maxLength: 10 })
  .chain((ids) =>
    fc.tuple(...ids.map((id) => fc.record({ id: fc.constant(id), f: scalar, g: scalar }, { requiredKeys: ['id'] }))),
  );

const bound = fc.option(scalar, { nil: undefined });
const query: fc.Arbitrary<FindQuery> = fc.record(
  {
    where: fc.dictionary(field, fc.oneof(scalar, fc.record({ in: fc.array(scalar, { maxLength: 3 }) }))),
    range: fc.record({ field: fc.constantFrom('f', 'g', 'id'), gt: bound, gte: bound, lt: bound, lte: bound }),
    sort: fc.record({ field: fc.constantFrom('f', 'g', 'id', 'version'), direction: fc.constantFrom('asc', 'desc') }),
    limit: fc.nat(6),
    offset: fc.nat(6),
  },
  { requiredKeys: [] },
);

/** Drops bounds fast-check left undefined, as a caller would simply not write them. */
const tidy = (q: FindQuery): FindQuery =>
  q.range === undefined
    ? q
    : { ...q, range: Object.fromEntries(Object.entries(q.range).filter(([, v]) => v !== undefined)) as FindQuery['range'] };

test('sqlite store: find and count answer exactly what the memory store answers', async (t) => {
  const db = openSqliteDatabase(':memory:');
  const sqlite = createSqliteDocumentStore(db);
  t.teardown(() => sqlite.close());
  await sqlite.init([{ name: 'c', indexes: [['f', 'g'], ['g']] }]);
  let run = 0;
  await fc.assert(
    fc.asyncProperty(docs, fc.array(query, { minLength: 1, maxLength: 4 }), async (documents, queries) => {
      const collection = `c${(run += 1)}`;
      const memory = createMemoryDocumentStore();
      for (const doc of documents) {
        await memory.insert(collection, doc);
        await sqlite.insert(collection, doc);
      }
      for (const q of queries.map(tidy)) {
        const [found, expected] = [await sqlite.find(collection, q), await memory.find(collection, q)];
        if (!isDeepStrictEqual(found, expected)) return false;
        if ((await sqlite.count(collection, q)) !== (await memory.count(collection, q))) return false;
      }
      return true;
    }),
    { numRuns: 500 },
  );
  t.pass();
});
