import { once } from 'node:events';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import test, { type ExecutionContext } from 'ava';
import { openSqliteDatabase, SqliteStoreError } from '../src/index.js';

const tempDir = async (t: ExecutionContext): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'ephemail-open-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
};

const pragma = (db: ReturnType<typeof openSqliteDatabase>, name: string): unknown =>
  db.pragma(name, { simple: true });

test('openSqliteDatabase: a file database is in WAL mode with synchronous NORMAL', async (t) => {
  const db = openSqliteDatabase(join(await tempDir(t), 'a.db'));
  t.teardown(() => db.close());
  t.is(pragma(db, 'journal_mode'), 'wal');
  t.is(pragma(db, 'synchronous'), 1);
  t.is(pragma(db, 'foreign_keys'), 1);
  t.is(pragma(db, 'busy_timeout'), 5000);
});

test('openSqliteDatabase: creates the missing directories of the path', async (t) => {
  const path = join(await tempDir(t), 'nested', 'deeper', 'store.db');
  const db = openSqliteDatabase(path);
  t.teardown(() => db.close());
  t.true((await stat(path)).isFile());
});

test('openSqliteDatabase: the busy timeout is configurable', async (t) => {
  const db = openSqliteDatabase(join(await tempDir(t), 'b.db'), { busyTimeoutMs: 250 });
  t.teardown(() => db.close());
  t.is(pragma(db, 'busy_timeout'), 250);
});

test('openSqliteDatabase: rejects a busy timeout that is not a whole number of milliseconds', (t) => {
  t.throws(() => openSqliteDatabase(':memory:', { busyTimeoutMs: -1 }), { instanceOf: RangeError });
  t.throws(() => openSqliteDatabase(':memory:', { busyTimeoutMs: 1.5 }), { instanceOf: RangeError });
});

test('openSqliteDatabase: :memory: opens a private in-memory database', (t) => {
  const db = openSqliteDatabase(':memory:');
  t.teardown(() => db.close());
  t.true(db.memory);
  t.is(pragma(db, 'foreign_keys'), 1);
});

test('openSqliteDatabase: a new file gets 8 KiB pages (or the size asked for); an existing file keeps its own', async (t) => {
  const dir = await tempDir(t);
  const created = openSqliteDatabase(join(dir, 'p.db'));
  created.exec('CREATE TABLE t (x)');
  t.is(pragma(created, 'page_size'), 8192);
  created.close();
  const reopened = openSqliteDatabase(join(dir, 'p.db'), { pageSize: 4096 });
  t.is(pragma(reopened, 'page_size'), 8192, 'a WAL database cannot change its page size');
  reopened.close();
  const small = openSqliteDatabase(join(dir, 's.db'), { pageSize: 4096 });
  small.exec('CREATE TABLE t (x)');
  t.is(pragma(small, 'page_size'), 4096);
  small.close();
});

test('openSqliteDatabase: rejects a page size SQLite would ignore', (t) => {
  for (const pageSize of [256, 3000, 131072, 8192.5]) {
    t.throws(() => openSqliteDatabase(':memory:', { pageSize }), { instanceOf: RangeError }, String(pageSize));
  }
});

/**
 * A thread that creates `path` in rollback mode and holds its write lock, as another process
 * creating the same file does while it switches it to WAL. It lets go `releaseAfterMs` after
 * reporting `held`, or when told `release`.
 */
const holdWriteLock = async (t: ExecutionContext, path: string, releaseAfterMs: number): Promise<Worker> => {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const holder = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    const db = new (require(workerData.driver))(workerData.path);
    db.exec('BEGIN IMMEDIATE');
    const release = () => { if (db.open) { db.exec('COMMIT'); db.close(); } parentPort.close(); };
    parentPort.on('message', release);
    setTimeout(release, workerData.releaseAfterMs);
    parentPort.postMessage('held');`,
    { eval: true, workerData: { driver, path, releaseAfterMs } },
  );
  t.teardown(() => holder.terminate());
  await once(holder, 'message');
  return holder;
};

test('openSqliteDatabase: waits out another connection that holds a new file\'s write lock, as when processes create one file at once', async (t) => {
  const path = join(await tempDir(t), 'race.db');
  await holdWriteLock(t, path, 200);
  // SQLite refuses the switch to WAL at once here, without its busy handler.
  const db = openSqliteDatabase(path);
  t.teardown(() => db.close());
  t.is(pragma(db, 'journal_mode'), 'wal');
});

test('openSqliteDatabase: gives up with SQLITE_BUSY once the busy timeout has passed', async (t) => {
  const path = join(await tempDir(t), 'held.db');
  const holder = await holdWriteLock(t, path, 60_000);
  const started = Date.now();
  const error = t.throws(() => openSqliteDatabase(path, { busyTimeoutMs: 100 }), { instanceOf: SqliteStoreError });
  t.is(error?.code, 'SQLITE_BUSY');
  t.true(Date.now() - started >= 100, 'it waited for the timeout');
  holder.postMessage('release');
});
