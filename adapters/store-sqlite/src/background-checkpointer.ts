import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Options of {@link startBackgroundCheckpointer}. */
export interface BackgroundCheckpointerOptions {
  /** How often the worker copies the write-ahead log into the database file. Default 100 ms. */
  readonly intervalMs?: number;
  /** How long the worker's connection waits for a lock. Default 5000 ms. */
  readonly busyTimeoutMs?: number;
  /** Called with each checkpoint that failed; the worker goes on and tries again next time. */
  readonly onError?: (error: Error) => void;
}

/** A running checkpointer; `stop` ends its thread after a last checkpoint. */
export interface BackgroundCheckpointer {
  stop(): Promise<void>;
}

/**
 * The worker: its own connection to the file, a PASSIVE checkpoint on every tick (it never waits
 * for readers or writers), and a last one when told to stop. Plain CommonJS evaluated in the
 * thread, loading the same better-sqlite3 the store uses, so it runs alike from source and build.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { timeout: workerData.busyTimeoutMs });
const checkpoint = () => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); }
  catch (error) { parentPort.postMessage({ error: String(error && error.message || error) }); }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

/**
 * Moves SQLite's WAL checkpoints off the event loop. With the default `wal_autocheckpoint`, the
 * commit that pushes the log past 1,000 pages copies them into the database file and fsyncs it,
 * on the thread that serves requests: one create in ten paid 20-80 ms. Here a worker thread
 * checkpoints every `intervalMs` instead, on its own connection, and the main connection keeps
 * only a far larger automatic threshold as a backstop (see `openSqliteDatabase`'s
 * `autoCheckpointPages`), so the log stays bounded even if the worker falls behind.
 * Only for a database file in WAL mode; the host owns the returned handle and stops it at shutdown.
 */
export const startBackgroundCheckpointer = (
  path: string,
  options: BackgroundCheckpointerOptions = {},
): BackgroundCheckpointer => {
  const intervalMs = options.intervalMs ?? 100;
  if (!Number.isInteger(intervalMs) || intervalMs < 1) throw new RangeError('sqlite checkpointer: intervalMs must be a positive integer');
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, path, intervalMs, busyTimeoutMs: options.busyTimeoutMs ?? 5000 },
  });
  worker.unref();
  worker.on('message', (message: { error?: string }) => {
    if (message.error !== undefined) options.onError?.(new Error(`sqlite checkpoint failed: ${message.error}`));
  });
  worker.on('error', (error) => options.onError?.(error));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    stop: async () => {
      // Held by the thread until its last checkpoint is done (it never holds the process up otherwise).
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
};
