import { Worker } from 'node:worker_threads';

/** Stock postal-mime on a thread of its own, run one round at a time (see {@link startStockParser}). */
export interface StockParser {
  /** Parses every message once, one after another; answers each parse's time in milliseconds. */
  round(): Promise<number[]>;
  close(): Promise<number>;
}

// Plain JavaScript evaluated in the thread: it imports postal-mime's own ES module and nothing of
// this project, so no decoder swap (adapters/mail-parse/src/body-decoders.ts) reaches it.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
import(workerData.postalMime).then(({ default: PostalMime }) => {
  const raws = workerData.raws;
  parentPort.on('message', async () => {
    const times = [];
    for (const raw of raws) {
      const t0 = performance.now();
      await PostalMime.parse(raw);
      times.push(performance.now() - t0);
    }
    parentPort.postMessage(times);
  });
  parentPort.postMessage('ready');
});
`;

/**
 * Starts the baseline of the extraction benchmark: the bare parser, as published. The adapter's
 * decoder swaps are process-wide, and taking them out and back in for each round changed the
 * prototypes every parse relies on, which slowed the stages after it by a fifth; a thread of its
 * own has the library untouched. Rounds are still run in turn with the other stages, so they
 * meet the same machine load.
 */
export const startStockParser = async (raws: readonly Uint8Array[]): Promise<StockParser> => {
  // The library's ES module, as an import here gets it.
  const postalMime = import.meta.resolve('postal-mime');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { postalMime, raws: raws.map((r) => Uint8Array.from(r)) } });
  const next = (): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const fail = (error: Error): void => {
        worker.off('message', answer);
        reject(error);
      };
      const answer = (message: unknown): void => {
        worker.off('error', fail);
        resolve(message);
      };
      worker.once('message', answer);
      worker.once('error', fail);
    });
  await next();
  return {
    round: async () => {
      const answer = next();
      worker.postMessage('round');
      return (await answer) as number[];
    },
    close: () => worker.terminate(),
  };
};
