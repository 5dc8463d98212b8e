import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { createSqliteDocumentStore, openSqliteDatabase, SqliteStoreError } from '../src/index.js';

const tempFile = async (t: ExecutionContext): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'ephemail-lock-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return join(dir, 'store.db');
};

test('sqlite store: a write still locked out after the busy timeout throws SQLITE_BUSY, never answers false', async (t) => {
  const path = await tempFile(t);
  const holder = openSqliteDatabase(path);
  const store = createSqliteDocumentStore(openSqliteDatabase(path, { busyTimeoutMs: 50 }));
  t.teardown(async () => {
    await store.close();
    holder.close();
  });
  await store.insert('c', { id: 'a', n: 0 });
  holder.exec('BEGIN IMMEDIATE');
  try {
    for (const attempt of [
      () => store.insert('c', { id: 'b' }),
      () => store.replace('c', { id: 'a', n: 1 }, 1),
      () => store.remove('c', 'a', 1),
    ]) {
      const error = await t.throwsAsync(attempt(), { instanceOf: SqliteStoreError });
      t.is(error?.code, 'SQLITE_BUSY');
    }
    // WAL readers do not wait for the writer.
    t.is((await store.get('c', 'a'))?.version, 1);
  } finally {
    holder.exec('ROLLBACK');
  }
  t.true(await store.replace('c', { id: 'a', n: 1 }, 1));
});

test('sqlite store: init from two connections at once on a fresh file is safe', async (t) => {
  const path = await tempFile(t);
  const stores = [0, 1, 2].map(() => createSqliteDocumentStore(openSqliteDatabase(path)));
  t.teardown(() => Promise.all(stores.map((store) => store.close())));
  const specs = [{ name: 'c', indexes: [['a', 'b'], ['b']] }];
  await Promise.all(stores.map((store) => store.init(specs)));
  await Promise.all(stores.map((store) => store.init(specs)));
  t.is(await stores[0]?.insert('c', { id: 'x', a: 1, b: 2 }), 'inserted');
  t.is(await stores[2]?.count('c', { where: { a: 1 } }), 1);
});
