import { createMemoryDocumentStore } from '@ephemail/core';
import { isDeepStrictEqual } from 'node:util';
import test from 'ava';
import fc from 'fast-check';
// The generators every store's comparison with the memory store shares.
import { docs, queries, tidy } from '../../../test/contract/store-arbitraries.js';
import { createSqliteDocumentStore, openSqliteDatabase } from '../src/index.js';

const query = queries(['f', 'g', 'id']);

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
