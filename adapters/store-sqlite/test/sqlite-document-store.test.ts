import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FindQuery } from '@ephemail/core';
import test, { type ExecutionContext } from 'ava';
import { createSqliteDocumentStore, openSqliteDatabase, SqliteStoreError } from '../src/index.js';

const tempFile = async (t: ExecutionContext): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'ephemail-store-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return join(dir, 'store.db');
};

const memoryStore = (t: ExecutionContext) => {
  const db = openSqliteDatabase(':memory:');
  const store = createSqliteDocumentStore(db);
  t.teardown(() => store.close());
  return { db, store };
};

test('sqlite store: field names that are not plain identifiers are refused before any SQL runs', async (t) => {
  const { store } = memoryStore(t);
  const unsafe = ["a'b", 'a-b', 'a.b', '1a', 'a b', "x') OR 1=1 --", ''];
  for (const field of unsafe) {
    const queries: FindQuery[] = [
      { where: { [field]: 1 } },
      { range: { field, gt: 1 } },
      { sort: { field, direction: 'asc' } },
    ];
    for (const query of queries) await t.throwsAsync(store.find('c', query), { instanceOf: TypeError });
    await t.throwsAsync(store.count('c', { where: { [field]: null } }), { instanceOf: TypeError });
    await t.throwsAsync(store.init([{ name: 'c', indexes: [[field]] }]), { instanceOf: TypeError });
  }
  t.deepEqual(await store.find('c', { where: { Snake_Case_9: 1 } }), []);
});

test('sqlite store: a table name that is not a plain identifier is refused', (t) => {
  const db = openSqliteDatabase(':memory:');
  t.teardown(() => db.close());
  t.throws(() => createSqliteDocumentStore(db, { table: 'docs; DROP TABLE x' }), { instanceOf: TypeError });
  t.throws(() => createSqliteDocumentStore(db, { statementCacheSize: 0 }), { instanceOf: RangeError });
});

test('sqlite store: documents survive closing and reopening the file', async (t) => {
  const path = await tempFile(t);
  const first = createSqliteDocumentStore(openSqliteDatabase(path));
  await first.init([{ name: 'c', indexes: [['k']] }]);
  await first.insert('c', { id: 'a', k: 'v', nested: { list: [1, 'two'] } });
  await first.replace('c', { id: 'a', k: 'w', nested: { list: [1, 'two'] } }, 1);
  await first.close();
  const second = createSqliteDocumentStore(openSqliteDatabase(path));
  t.teardown(() => second.close());
  await second.init([{ name: 'c', indexes: [['k']] }]);
  t.deepEqual(await second.get('c', 'a'), { id: 'a', k: 'w', nested: { list: [1, 'two'] }, version: 2 });
  t.is(await second.count('c', { where: { k: 'w' } }), 1);
});

test('sqlite store: a custom table name keeps its documents apart', async (t) => {
  const db = openSqliteDatabase(':memory:');
  const one = createSqliteDocumentStore(db, { table: 'one' });
  const two = createSqliteDocumentStore(db, { table: 'two' });
  t.teardown(() => db.close());
  await one.insert('c', { id: 'a' });
  t.is(await two.get('c', 'a'), undefined);
  t.is(await two.insert('c', { id: 'a' }), 'inserted');
});

test('sqlite store: queries stay correct when there are more shapes than cached statements', async (t) => {
  const db = openSqliteDatabase(':memory:');
  const store = createSqliteDocumentStore(db, { statementCacheSize: 2 });
  t.teardown(() => store.close());
  await store.insert('c', { id: 'a', x: 1, y: 'b', z: true });
  for (let round = 0; round < 3; round += 1) {
    t.is(await store.count('c', { where: { x: 1 } }), 1);
    t.is(await store.count('c', { where: { y: 'b' } }), 1);
    t.is(await store.count('c', { where: { z: true } }), 1);
    t.is((await store.get('c', 'a'))?.version, 1);
  }
});

test('sqlite store: operations after close reject with a store error', async (t) => {
  const { store } = memoryStore(t);
  await store.close();
  const error = await t.throwsAsync(store.get('c', 'a'), { instanceOf: SqliteStoreError });
  t.regex(error?.message ?? '', /get failed/);
  await t.throwsAsync(store.insert('c', { id: 'a' }), { instanceOf: SqliteStoreError });
});

test('sqlite store: the change mark moves when another connection commits, not when this handle writes', async (t) => {
  const path = await tempFile(t);
  const one = createSqliteDocumentStore(openSqliteDatabase(path));
  const other = createSqliteDocumentStore(openSqliteDatabase(path));
  t.teardown(async () => {
    await one.close();
    await other.close();
  });
  const first = one.changeMark();
  await one.insert('notes', { id: 'a', text: 'mine' });
  t.is(one.changeMark(), first, 'its own write leaves the mark');
  await other.insert('notes', { id: 'b', text: 'theirs' });
  // The mark is read once per turn (see the next test): read it in a turn after the commit.
  await new Promise((resolve) => setImmediate(resolve));
  const moved = one.changeMark();
  t.not(moved, first, "another connection's commit moves it");
  t.is(one.changeMark(), moved, 'and it stays until the next such commit');
});

test('sqlite store: a field of bytes is a blob beside the JSON body, and one is the most a document may hold', async (t) => {
  const { db, store } = memoryStore(t);
  const raw = Buffer.from('line one\r\nline two\r\n\u00ff\u0000', 'latin1');
  await store.insert('c', { id: 'a', raw, n: 1 });
  const row = db.prepare(`SELECT body, unindexed, bytes FROM ephemail_documents WHERE id = 'a'`).get() as { body: string; unindexed: string; bytes: Buffer };
  t.true(row.bytes.equals(raw));
  // No index reads a field of 'c', so every field is in `unindexed`.
  t.deepEqual(JSON.parse(row.unindexed), { n: 1, $bytes: 'raw' });
  t.is(row.body, '{}');
  await t.throwsAsync(store.insert('c', { id: 'b', one: raw, two: raw }), { instanceOf: TypeError, message: /at most one field of bytes/ });
  await t.throwsAsync(store.insert('c', { id: 'b', $bytes: 'x' }), { instanceOf: TypeError, message: /reserved/ });
  t.is(await store.get('c', 'b'), undefined);
});

test('sqlite store: a table made before the bytes column gets it on open, and its rows read as before', async (t) => {
  const path = await tempFile(t);
  const old = openSqliteDatabase(path);
  old.exec(`CREATE TABLE ephemail_documents (collection TEXT NOT NULL, id TEXT NOT NULL, version INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (collection, id))`);
  old.prepare(`INSERT INTO ephemail_documents VALUES ('c', 'old', 3, '{"ascii":"hi\\r\\n"}')`).run();
  old.close();
  // The first store to open it adds the column; a second connection finds it there.
  const [first, second] = [createSqliteDocumentStore(openSqliteDatabase(path)), createSqliteDocumentStore(openSqliteDatabase(path))];
  t.teardown(() => Promise.all([first.close(), second.close()]));
  t.deepEqual(await second.get('c', 'old'), { id: 'old', ascii: 'hi\r\n', version: 3 });
  await first.insert('c', { id: 'new', raw: Buffer.from([1, 2, 3]) });
  t.deepEqual(await second.get('c', 'new'), { id: 'new', raw: Buffer.from([1, 2, 3]), version: 1 });
});

test('sqlite store: the change mark is read once per turn of the event loop; a commit made during the turn shows from the next', async (t) => {
  const path = await tempFile(t);
  const one = createSqliteDocumentStore(openSqliteDatabase(path));
  const raw = openSqliteDatabase(path);
  t.teardown(async () => {
    await one.close();
    raw.close();
  });
  await one.ping();
  const first = one.changeMark();
  // Another connection commits synchronously, within this turn.
  raw.prepare(`CREATE TABLE IF NOT EXISTS other (n INTEGER)`).run();
  raw.prepare(`INSERT INTO other VALUES (1)`).run();
  t.is(one.changeMark(), first, 'the rest of the turn shares the mark');
  await new Promise((resolve) => setImmediate(resolve));
  t.not(one.changeMark(), first, 'the next turn reads it again');
});
