import { Worker } from 'node:worker_threads';
import test from 'ava';
import { turnQueue } from '../src/turn-queue.js';

const MESSAGES = 2000;
/** The message that opens the batch: past the first few, whose pace is the threads' start-up. */
const OPENS_AT = 50;

const busy = (ms: number): void => {
  const start = performance.now();
  while (performance.now() - start < ms);
};

type Posted = number | { readonly posted: number };

/**
 * A thread posts `MESSAGES` numbers, one every 0.1 ms, once told to start; the listener spends
 * 0.15 ms on each, so they arrive faster than they are handled. Message `OPENS_AT` opens a
 * "batch" that closes in the check phase, as the store's group commit does. Answers how many
 * messages the thread had posted when that batch closed (`MESSAGES` if it closed after the last).
 */
const postedWhenFirstBatchClosed = (listen: (handle: (message: number) => void) => (message: number) => void) =>
  new Promise<{ handled: number[]; posted: number }>((resolve, reject) => {
    const shared = new Int32Array(new SharedArrayBuffer(8));
    const worker = new Worker(
      `const { parentPort, workerData: shared } = require('node:worker_threads');
       Atomics.wait(shared, 0, 0);
       let posted = ${MESSAGES};
       for (let i = 0; i < ${MESSAGES}; i++) {
         const start = performance.now();
         while (performance.now() - start < 0.1);
         if (posted === ${MESSAGES} && Atomics.load(shared, 1) === 1) posted = i;
         parentPort.postMessage(i);
       }
       parentPort.postMessage({ posted });`,
      { eval: true, workerData: shared },
    );
    const handled: number[] = [];
    let posted: number | undefined;
    const finish = (): void => {
      if (posted === undefined || handled.length < MESSAGES) return;
      void worker.terminate();
      resolve({ handled, posted });
    };
    const listener = listen((message) => {
      busy(0.15);
      handled.push(message);
      if (handled.length === OPENS_AT) setImmediate(() => Atomics.store(shared, 1, 1));
      finish();
    });
    worker.on('message', (message: Posted) => {
      if (typeof message === 'number') return listener(message);
      posted = message.posted;
      finish();
    });
    worker.on('error', reject);
    worker.on('online', () => {
      Atomics.store(shared, 0, 1);
      Atomics.notify(shared, 0);
    });
  });

test('turnQueue: work that waits for the check phase runs while messages keep arriving', async (t) => {
  const { handled, posted } = await postedWhenFirstBatchClosed((handle) => turnQueue(handle));
  t.deepEqual(handled, Array.from({ length: MESSAGES }, (_, i) => i), 'every message, in order');
  // Handled in the port's own callback, the batch stayed open for about a thousand more messages:
  // the port goes on delivering what arrives meanwhile, up to a thousand in one run.
  t.true(posted < MESSAGES / 2, `the first batch closed when ${posted} of ${MESSAGES} messages had been posted`);
});

test('turnQueue: messages are handled in the next check phase, in arrival order', async (t) => {
  const handled: string[] = [];
  const listen = turnQueue((message: string) => handled.push(message));
  listen('a');
  listen('b');
  t.deepEqual(handled, [], 'not in the callback itself');
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(handled, ['a', 'b']);
  listen('c');
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(handled, ['a', 'b', 'c']);
});
