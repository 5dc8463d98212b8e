import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { createSqliteDocumentStore, openSqliteDatabase, startBackgroundCheckpointer } from '../src/index.js';

const PAGE = 4096;

/** Frames in the WAL that the database file does not hold yet, as SQLite reports them. */
const uncheckpointed = (path: string): number => {
  const probe = openSqliteDatabase(path);
  try {
    // A PASSIVE checkpoint of zero work would still copy frames; ask with the log's own counters.
    const [row] = probe.pragma('wal_checkpoint(NOOP)') as { log: number; checkpointed: number }[];
    return (row?.log ?? 0) - (row?.checkpointed ?? 0);
  } finally {
    probe.close();
  }
};

test('sqlite checkpointer: a worker thread copies the WAL into the file while the connection never checkpoints', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'ephemail-ckpt-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'store.db');
  const errors: Error[] = [];
  const db = openSqliteDatabase(path, { autoCheckpointPages: 1_000_000 });
  const store = createSqliteDocumentStore(db, { checkpointer: startBackgroundCheckpointer(path, { intervalMs: 5, onError: (e) => errors.push(e) }) });
  await store.init([{ name: 'c', indexes: [['n']] }]);
  const sizeBefore = statSync(path).size;
  for (let round = 0; round < 20; round += 1) {
    await Promise.all(Array.from({ length: 100 }, (_, i) => store.insert('c', { id: `d${round}_${i}`, n: i, pad: 'x'.repeat(500) })));
  }
  // The worker runs every 5 ms; wait until it has caught up with the last batch (the bound only catches a hang).
  const deadline = Date.now() + 60_000;
  while (uncheckpointed(path) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  t.is(uncheckpointed(path), 0);
  t.true(statSync(path).size > sizeBefore + 500 * PAGE / 4, 'the database file grew with the checkpointed pages');
  await store.close();
  t.deepEqual(errors, []);
  const reopened = createSqliteDocumentStore(openSqliteDatabase(path));
  t.is(await reopened.count('c'), 2_000);
  await reopened.close();
});

test('sqlite checkpointer: stop ends the worker thread and resolves even when called twice', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'ephemail-ckpt-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'store.db');
  const db = openSqliteDatabase(path);
  const checkpointer = startBackgroundCheckpointer(path, { intervalMs: 10 });
  await checkpointer.stop();
  await checkpointer.stop();
  db.close();
  t.pass();
});

test('sqlite checkpointer: a bad interval is refused', (t) => {
  t.throws(() => startBackgroundCheckpointer('x.db', { intervalMs: 0 }), { instanceOf: RangeError });
});
