import { createMemoryDocumentStore, type FindQuery, type StoredDocument } from '@ephemail/core';
import { isDeepStrictEqual } from 'node:util';
import test from 'ava';
import fc from 'fast-check';
// The generators every store's comparison with the memory store shares.
import { docs, queries, tidy } from '../../../test/contract/store-arbitraries.js';
import type { Document } from 'mongodb';
import { decodeDocument, encodeFields } from '../src/mongo-fields.js';
import { toMongoFilter, toMongoSort } from '../src/mongo-query.js';
import { matches, sortBy } from './bson-model.js';

const query = queries(['f', 'g', 'id', 'version']);

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
