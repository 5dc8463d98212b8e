import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSqliteDocumentStore, openSqliteDatabase } from '@ephemail/store-sqlite';
import test from 'ava';
import { newId } from './contract-case.js';
import { atomicCounterId, CLAIMS, COUNTERS, GO, type WorkerMessage } from './fixtures/sqlite-counter-protocol.js';

const WORKER = fileURLToPath(new URL('./fixtures/sqlite-counter-worker.ts', import.meta.url));
const PROCESSES = 4;
const INCREMENTS = 250;
const CLAIM_IDS = 100;

/** The next message from a worker; rejects if it exits first, so a crash cannot hang the test. */
const nextMessage = <T>(child: ChildProcess): Promise<T> =>
  new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`worker ${child.pid} exited with ${code}`));
    child.once('exit', onExit);
    child.once('message', (message) => {
      child.off('exit', onExit);
      resolve(message as T);
    });
  });

const startWorkers = (path: string, counterId: string): ChildProcess[] =>
  Array.from({ length: PROCESSES }, () =>
    fork(WORKER, [path, counterId, String(INCREMENTS), String(CLAIM_IDS)], {
      execArgv: ['--import=tsx', '--conditions=@ephemail/source'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );

test(`sqlite: ${PROCESSES} processes sharing one file lose no compare-and-set or atomic increment`, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'ephemail-sqlite-mp-'));
  const path = join(dir, 'shared.db');
  const counterId = newId();
  const workers = startWorkers(path, counterId);
  t.teardown(async () => {
    for (const worker of workers) if (worker.exitCode === null) worker.kill();
    await rm(dir, { recursive: true, force: true });
  });
  await Promise.all(workers.map((worker) => nextMessage(worker)));
  const reports = workers.map((worker) => nextMessage<WorkerMessage>(worker));
  const exits = workers.map((worker) => once(worker, 'exit'));
  for (const worker of workers) worker.send(GO);
  const messages = await Promise.all(reports);
  const results = messages.flatMap((message) => (message.type === 'done' ? [message] : []));
  t.is(results.length, PROCESSES, JSON.stringify(messages));
  t.deepEqual((await Promise.all(exits)).map(([code]) => code), workers.map(() => 0));

  const store = createSqliteDocumentStore(openSqliteDatabase(path));
  t.teardown(() => store.close());
  const total = PROCESSES * INCREMENTS;
  t.deepEqual(await store.get(COUNTERS, counterId), { id: counterId, count: total, version: total + 1 });
  const atomicId = atomicCounterId(counterId);
  t.deepEqual(await store.get(COUNTERS, atomicId), { id: atomicId, count: total, version: total + 1 });
  t.is(results.reduce((sum, report) => sum + report.claimed, 0), CLAIM_IDS);
  t.is(await store.count(CLAIMS), CLAIM_IDS);
  t.log(`${results.reduce((sum, report) => sum + report.attempts, 0)} attempts for ${total} increments`);
});
