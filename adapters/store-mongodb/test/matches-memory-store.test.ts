import { createMemoryDocumentStore, type FindQuery, type NewDocument, type Scalar, type StoredDocument } from '@ephemail/core';
import { isDeepStrictEqual } from 'node:util';
import test from 'ava';
import fc from 'fast-check';
import type { Document } from 'mongodb';
import { decodeDocument, encodeFields } from '../src/mongo-fields.js';
import { toMongoFilter, toMongoSort } from '../src/mongo-query.js';
import { matches, sortBy } from './bson-model.js';

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
    range: fc.record({ field: fc.constantFrom('f', 'g', 'id', 'version'), gt: bound, gte: bound, lt: bound, lte: bound }),
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

/** What the store's find would answer if MongoDB behaves as documented (see bson-model.ts). */
const modelFind = (stored: readonly Document[], q: FindQuery): StoredDocument[] => {
  if (q.limit !== undefined && q.limit <= 0) return [];
  const sorted = sortBy(stored.filter((doc) => matches(doc, toMongoFilter(q))), toMongoSort(q.sort));
  const offset = q.offset ?? 0;
  return sorted.slice(offset, q.limit === undefined ? undefined : offset + q.limit).map(decodeDocument);
};

test('mongodb model: BSON sorts booleans after strings, which is why the store sorts by rank first', (t) => {
  const values = [true, 'a', 1, null, false];
  t.deepEqual(sortBy(values.map((v) => ({ v })), [['v', 1]]).map((doc) => doc.v), [null, 1, 'a', false, true]);
});

test('mongodb store translation: find and count select and order what the memory store does', async (t) => {
  await fc.assert(
    fc.asyncProperty(docs, fc.array(query, { minLength: 1, maxLength: 4 }), async (documents, queries) => {
      const memory = createMemoryDocumentStore();
      for (const doc of documents) await memory.insert('c', doc);
      const stored = documents.map((doc) => ({ ...encodeFields(doc, 1), _id: doc.id }));
      for (const q of queries.map(tidy)) {
        if (!isDeepStrictEqual(modelFind(stored, q), await memory.find('c', q))) return false;
        const counted = stored.filter((doc) => matches(doc, toMongoFilter(q))).length;
        if (counted !== (await memory.count('c', q))) return false;
      }
      return true;
    }),
    { numRuns: 500 },
  );
  t.pass();
});
