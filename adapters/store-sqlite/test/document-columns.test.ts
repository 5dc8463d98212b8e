import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { createMemoryDocumentStore, type CollectionSpec, type DocumentStore, type FindQuery } from '@ephemail/core';
import test, { type ExecutionContext } from 'ava';
import type Database from 'better-sqlite3';
import fc from 'fast-check';
import { docs, queries, scalar, tidy } from '../../../test/contract/store-arbitraries.js';
import { createSqliteDocumentStore, openSqliteDatabase } from '../src/index.js';

const tempFile = async (t: ExecutionContext): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'ephemail-columns-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return join(dir, 'store.db');
};

interface Columns {
  readonly body: Record<string, unknown>;
  readonly unindexed: Record<string, unknown> | null;
}

const columnsOf = (db: Database.Database, collection: string, id: string): Columns => {
  const row = db.prepare('SELECT body, unindexed FROM ephemail_documents WHERE collection = ? AND id = ?').get(collection, id) as { body: string; unindexed: string | null };
  return { body: JSON.parse(row.body) as Record<string, unknown>, unindexed: row.unindexed === null ? null : (JSON.parse(row.unindexed) as Record<string, unknown>) };
};

const IDENTITIES: CollectionSpec[] = [{ name: 'people', indexes: [['org', 'created_at'], ['status', 'expires_at'], ['root', 'depth']] }];

test('sqlite columns: the fields an index reads are in body, the others in unindexed', async (t) => {
  const db = openSqliteDatabase(':memory:');
  const store = createSqliteDocumentStore(db);
  t.teardown(() => store.close());
  await store.init(IDENTITIES);
  await store.insert('people', { id: 'p1', org: 'o', status: 'active', created_at: '2026-01-01', count: 1, recent: ['a'] });
  t.deepEqual(columnsOf(db, 'people', 'p1'), { body: { org: 'o', status: 'active', created_at: '2026-01-01' }, unindexed: { count: 1, recent: ['a'] } });
  t.deepEqual(await store.get('people', 'p1'), { id: 'p1', org: 'o', status: 'active', created_at: '2026-01-01', count: 1, recent: ['a'], version: 1 });
});

/** WAL frames that `write` appends, on a file whose WAL is emptied first. */
const framesOf = async (db: Database.Database, write: () => Promise<unknown>): Promise<number> => {
  db.pragma('wal_checkpoint(TRUNCATE)');
  await write();
  return (db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]!.log;
};

test('sqlite columns: a write that leaves the indexed fields as they are touches no index page', async (t) => {
  const db = openSqliteDatabase(await tempFile(t), { autoCheckpointPages: 100_000 });
  const store = createSqliteDocumentStore(db);
  t.teardown(() => store.close());
  await store.init(IDENTITIES);
  // Enough rows that each index and the table have pages of their own below a root.
  for (let i = 0; i < 400; i += 1) {
    await store.insert('people', { id: `p${String(i).padStart(4, '0')}`, org: 'o', status: 'active', created_at: `2026-01-01T00:${i}`, expires_at: 'z', root: `p${i}`, depth: 0, count: 0, pad: 'x'.repeat(200) });
  }
  const doc = (await store.get('people', 'p0200'))!;
  const counted = await framesOf(db, () => store.update('people', 'p0200', (current) => ({ ...current, count: 1 })));
  const expired = await framesOf(db, () => store.update('people', 'p0200', (current) => ({ ...current, status: 'expired' })));
  const incremented = await framesOf(db, () => store.increment('people', 'p0200', 'count', 1));
  const { version: _version, ...fields } = (await store.get('people', 'p0200'))!;
  const transacted = await framesOf(db, () =>
    store.transact!((read) => ({ writes: [{ kind: 'replace', collection: 'people', doc: { ...fields, count: 9 }, expectedVersion: read('people', 'p0200')!.version }], result: undefined })),
  );
  // One frame: the table's leaf. Setting `body` as well cost one more for each index's leaf.
  t.is(counted, 1, 'a counter update');
  t.is(incremented, 1, 'an increment');
  t.is(transacted, 1, 'a replace planned in transact');
  t.true(expired >= 3, `a status change moves its index entry (${expired} frames)`);
  t.is(doc.count, 0);
  t.like(await store.get('people', 'p0200'), { status: 'expired', count: 9, version: 5 });
  t.deepEqual((await store.find('people', { where: { status: 'expired' } })).map((found) => found.id), ['p0200']);
});

test('sqlite columns: rows written before the column existed read, match and update as before', async (t) => {
  const path = await tempFile(t);
  const old = openSqliteDatabase(path);
  old.exec(`CREATE TABLE ephemail_documents (collection TEXT NOT NULL, id TEXT NOT NULL, version INTEGER NOT NULL, body TEXT NOT NULL, bytes BLOB, PRIMARY KEY (collection, id))`);
  old.prepare(`INSERT INTO ephemail_documents VALUES ('people', 'old', 4, '{"org":"o","status":"active","count":7,"note":null}', NULL)`).run();
  old.close();
  const db = openSqliteDatabase(path);
  const store = createSqliteDocumentStore(db);
  t.teardown(() => store.close());
  await store.init(IDENTITIES);
  t.deepEqual(await store.get('people', 'old'), { id: 'old', org: 'o', status: 'active', count: 7, note: null, version: 4 });
  // By an indexed field and by fields kept in body only there.
  for (const where of [{ status: 'active' }, { count: 7 }, { note: null }] as FindQuery['where'][]) t.is((await store.find('people', { where })).length, 1, JSON.stringify(where));
  t.is(await store.increment('people', 'old', 'count', 1), 8);
  t.deepEqual(columnsOf(db, 'people', 'old'), { body: { org: 'o', status: 'active' }, unindexed: { count: 8, note: null } }, 'its first write splits it');
  t.deepEqual(await store.find('people', { where: { count: 8 } }), [{ id: 'old', org: 'o', status: 'active', count: 8, note: null, version: 5 }]);
});

test('sqlite columns: when an index starts or stops reading a field, init moves it and queries keep finding it', async (t) => {
  const db = openSqliteDatabase(await tempFile(t));
  const store = createSqliteDocumentStore(db);
  t.teardown(() => store.close());
  await store.init([{ name: 'people', indexes: [['status']] }]);
  await store.insert('people', { id: 'a', status: 'active', tier: 'gold', count: 1 });
  await store.insert('people', { id: 'b', status: 'expired', tier: 'free', count: 2 });
  t.deepEqual(columnsOf(db, 'people', 'a'), { body: { status: 'active' }, unindexed: { tier: 'gold', count: 1 } });
  // The next version indexes `tier` instead of `status`.
  await store.init([{ name: 'people', indexes: [['tier']] }]);
  t.deepEqual(columnsOf(db, 'people', 'a'), { body: { tier: 'gold' }, unindexed: { count: 1, status: 'active' } });
  const ids = async (query: FindQuery) => (await store.find('people', query)).map((doc) => doc.id);
  t.deepEqual(await ids({ where: { tier: 'gold' } }), ['a']);
  t.deepEqual(await ids({ where: { status: 'expired' } }), ['b']);
  t.deepEqual(await ids({ sort: { field: 'status', direction: 'desc' } }), ['b', 'a']);
  t.deepEqual(await ids({ range: { field: 'tier', gt: 'g' } }), ['a']);
  t.deepEqual(await store.get('people', 'b'), { id: 'b', tier: 'free', count: 2, status: 'expired', version: 1 });
  const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT id FROM ephemail_documents WHERE collection = 'people' AND (CASE coalesce(json_type(body, '$.tier'), 'null') WHEN 'null' THEN 0 WHEN 'true' THEN 1 WHEN 'false' THEN 1 WHEN 'integer' THEN 2 WHEN 'real' THEN 2 WHEN 'text' THEN 3 ELSE 4 END) = 3 AND json_extract(body, '$.tier') = 'gold'`).all() as { detail: string }[];
  t.regex(plan.map((row) => row.detail).join(' | '), /USING INDEX ephemail_documents_people_tier_/);
});

test('sqlite columns: a connection opened before another created the indexes still writes indexed fields into body', async (t) => {
  const path = await tempFile(t);
  const early = createSqliteDocumentStore(openSqliteDatabase(path));
  const later = createSqliteDocumentStore(openSqliteDatabase(path));
  // Never writes, so it never looks at the schema again: its queries read both columns.
  const reader = createSqliteDocumentStore(openSqliteDatabase(path));
  t.teardown(() => Promise.all([early.close(), later.close(), reader.close()]));
  // `early` has seen the table without indexes; `later` creates them.
  await early.insert('people', { id: 'first', status: 'active' });
  await later.init([{ name: 'people', indexes: [['status']] }]);
  await early.insert('people', { id: 'second', status: 'active' });
  await early.update('people', 'first', (doc) => ({ ...doc, seen: true }));
  for (const store of [early, later, reader]) {
    t.deepEqual((await store.find('people', { where: { status: 'active' }, sort: { field: 'id', direction: 'asc' } })).map((doc) => doc.id), ['first', 'second']);
    t.deepEqual((await store.find('people', { where: { seen: true } })).map((doc) => doc.id), ['first']);
  }
});

test('sqlite columns: with indexes, and after updates, find and count answer what the memory store answers', async (t) => {
  const db = openSqliteDatabase(':memory:');
  const sqlite = createSqliteDocumentStore(db);
  t.teardown(() => sqlite.close());
  // `f` in body, `g` in unindexed: queries name both.
  await sqlite.init([{ name: 'c', indexes: [['f']] }]);
  const query = queries(['f', 'g', 'id']);
  const same = async (memory: DocumentStore, q: FindQuery) =>
    isDeepStrictEqual(await sqlite.find('c', q), await memory.find('c', q)) && (await sqlite.count('c', q)) === (await memory.count('c', q));
  await fc.assert(
    fc.asyncProperty(docs, fc.array(query, { minLength: 1, maxLength: 4 }), fc.array(fc.tuple(fc.nat(), fc.constantFrom('f', 'g', 'h'), fc.option(scalar, { nil: undefined }))), async (documents, qs, changes) => {
      const memory = createMemoryDocumentStore();
      try {
        for (const doc of documents) {
          await memory.insert('c', doc);
          await sqlite.insert('c', doc);
        }
        // Each change sets or drops one field (indexed or not) of one document in both stores.
        for (const [at, field, value] of changes) {
          const id = documents[at % Math.max(1, documents.length)]?.id;
          if (id === undefined) break;
          const change = (doc: Record<string, unknown>) => {
            const { [field]: _dropped, ...rest } = doc;
            return value === undefined ? rest : { ...rest, [field]: value };
          };
          for (const store of [memory, sqlite]) await store.update('c', id, (doc) => change(doc) as typeof doc);
        }
        for (const q of qs.map(tidy)) if (!(await same(memory, q))) return false;
        return true;
      } finally {
        for (const doc of documents) await sqlite.remove('c', doc.id);
      }
    }),
    { numRuns: 300 },
  );
  t.pass();
});
