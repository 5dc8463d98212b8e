import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import test, { type ExecutionContext } from 'ava';
import { createSqliteDocumentStore, openSqliteDatabase, SqliteStoreError } from '../src/index.js';

const TABLE = 'ephemail_documents';

/** A store on a fresh file, and a second connection to the same file to look from outside. */
const open = async (t: ExecutionContext, options?: { groupCommit?: boolean }) => {
  const dir = await mkdtemp(join(tmpdir(), 'ephemail-group-'));
  const path = join(dir, 'store.db');
  const db = openSqliteDatabase(path);
  const store = createSqliteDocumentStore(db, options);
  const outside = openSqliteDatabase(path);
  t.teardown(async () => {
    outside.close();
    await store.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });
  const visible = (id: string): boolean =>
    outside.prepare(`SELECT 1 FROM "${TABLE}" WHERE collection = 'c' AND id = ?`).get(id) !== undefined;
  return { db, store, visible };
};

/** A trigger that fails inserts of one id: `ABORT` undoes the statement, `ROLLBACK` the transaction. */
const failInsertsOf = (db: Database.Database, id: string, action: 'ABORT' | 'ROLLBACK'): void => {
  db.exec(
    `CREATE TRIGGER fail_${action.toLowerCase()} BEFORE INSERT ON "${TABLE}" WHEN NEW.id = '${id}' ` +
      `BEGIN SELECT RAISE(${action}, 'refused by test trigger'); END`,
  );
};

test('sqlite store: writes of one turn become visible to other connections only when their promises resolve', async (t) => {
  const { store, visible } = await open(t);
  const pending = [store.insert('c', { id: 'a' }), store.insert('c', { id: 'b' }), store.replace('c', { id: 'a', n: 1 }, 1)];
  t.false(visible('a'));
  t.false(visible('b'));
  t.deepEqual(await Promise.all(pending), ['inserted', 'inserted', true]);
  t.true(visible('a'));
  t.true(visible('b'));
});

test('sqlite store: operations of one turn see each other in call order', async (t) => {
  const { store } = await open(t);
  const [inserted, read, replaced, again] = await Promise.all([
    store.insert('c', { id: 'a', n: 0 }),
    store.get('c', 'a'),
    store.replace('c', { id: 'a', n: 1 }, 1),
    store.replace('c', { id: 'a', n: 2 }, 1),
  ]);
  t.is(inserted, 'inserted');
  t.deepEqual(read, { id: 'a', n: 0, version: 1 });
  t.true(replaced);
  t.false(again);
  t.deepEqual(await store.get('c', 'a'), { id: 'a', n: 1, version: 2 });
});

test('sqlite store: a statement that fails inside a batch rejects alone; the rest of the batch commits', async (t) => {
  const { db, store, visible } = await open(t);
  failInsertsOf(db, 'bad', 'ABORT');
  const outcomes = await Promise.allSettled([
    store.insert('c', { id: 'a' }),
    store.insert('c', { id: 'bad' }),
    store.insert('c', { id: 'b' }),
  ]);
  t.deepEqual(outcomes.map((outcome) => outcome.status), ['fulfilled', 'rejected', 'fulfilled']);
  t.true((outcomes[1] as PromiseRejectedResult).reason instanceof SqliteStoreError);
  t.true(visible('a'));
  t.false(visible('bad'));
  t.true(visible('b'));
});

test('sqlite store: when SQLite abandons the transaction every operation of the batch rejects and nothing is kept', async (t) => {
  const { db, store, visible } = await open(t);
  await store.insert('c', { id: 'kept' });
  failInsertsOf(db, 'bad', 'ROLLBACK');
  const before = [store.insert('c', { id: 'a' }), store.get('c', 'kept')];
  const failing = store.insert('c', { id: 'bad' });
  const outcomes = await Promise.allSettled([...before, failing]);
  t.deepEqual(outcomes.map((outcome) => outcome.status), ['rejected', 'rejected', 'rejected']);
  t.false(visible('a'));
  // The store goes on with a new batch.
  t.is(await store.insert('c', { id: 'a' }), 'inserted');
  t.true(visible('a'));
});

test('sqlite store: with group commit off every write is visible as soon as it is made', async (t) => {
  const { store, visible } = await open(t, { groupCommit: false });
  const pending = store.insert('c', { id: 'a' });
  t.true(visible('a'));
  t.is(await pending, 'inserted');
});

test('sqlite store: close commits the open batch first', async (t) => {
  const { store, visible } = await open(t);
  const pending = store.insert('c', { id: 'a' });
  await store.close();
  t.is(await pending, 'inserted');
  t.true(visible('a'));
});

test('sqlite store: two stores on one file in one process never wait out each other\'s open batch', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'ephemail-group-'));
  const path = join(dir, 'store.db');
  const stores = [0, 1].map(() => createSqliteDocumentStore(openSqliteDatabase(path, { busyTimeoutMs: 200 })));
  t.teardown(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await rm(dir, { recursive: true, force: true });
  });
  const [a, b] = stores as [ReturnType<typeof createSqliteDocumentStore>, ReturnType<typeof createSqliteDocumentStore>];
  // a's batch holds the write lock until the turn ends; b's write in the same turn must not block on it.
  const outcomes = await Promise.all([a.insert('c', { id: 'x' }), b.insert('c', { id: 'y' }), a.insert('c', { id: 'z' })]);
  t.deepEqual(outcomes, ['inserted', 'inserted', 'inserted']);
  await b.init([{ name: 'c', indexes: [['n']] }]);
  t.is(await b.count('c'), 3);
  t.is(await a.count('c'), 3);
});

test('sqlite store: writes wait for another connection\'s write lock without blocking, then commit in call order', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'ephemail-group-'));
  const path = join(dir, 'store.db');
  const holder = openSqliteDatabase(path);
  // A long busy timeout: a write that waited synchronously would hold this test for a minute.
  const store = createSqliteDocumentStore(openSqliteDatabase(path, { busyTimeoutMs: 60_000 }));
  t.teardown(async () => {
    await store.close();
    holder.close();
    await rm(dir, { recursive: true, force: true });
  });
  await store.insert('c', { id: 'seed' });
  holder.exec('BEGIN IMMEDIATE');
  const first = store.insert('c', { id: 'a', n: 0 });
  const second = store.replace('c', { id: 'a', n: 1 }, 1);
  let settled = false;
  void Promise.all([first, second]).then(() => (settled = true));
  for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  t.false(settled, 'the writes wait for the lock');
  t.deepEqual(await store.get('c', 'seed'), { id: 'seed', version: 1 }, 'reads answer meanwhile');
  holder.exec('ROLLBACK');
  t.deepEqual(await Promise.all([first, second]), ['inserted', true]);
  t.deepEqual(await store.get('c', 'a'), { id: 'a', n: 1, version: 2 });
});
