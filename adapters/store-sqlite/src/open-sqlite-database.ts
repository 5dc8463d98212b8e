import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { guarded, isBusy } from './errors.js';

/** Options of {@link openSqliteDatabase}. */
export interface OpenSqliteDatabaseOptions {
  /**
   * How long a statement waits for another connection's write lock before failing, and how long
   * opening retries the switch to WAL while another process creating the file holds it. Default 5000.
   */
  readonly busyTimeoutMs?: number;
  /**
   * WAL size in pages at which a commit checkpoints on this connection (`wal_autocheckpoint`).
   * Default 1000, SQLite's own. With a background checkpointer, set it far higher (the host uses
   * 10,000) so that requests checkpoint only when the worker has fallen behind.
   */
  readonly autoCheckpointPages?: number;
  /**
   * Page size in bytes of a database this call creates (a power of two from 512 to 65536).
   * Default 8192. An existing file keeps the page size it was created with.
   */
  readonly pageSize?: number;
}

/** In-memory and anonymous temporary databases have no file, so no directory to create. */
const hasFile = (path: string): boolean => path !== ':memory:' && path !== '';

/** Blocks the thread for `ms`; opening is synchronous, so there is no event loop to yield to. */
const sleep = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

/**
 * Switches the file to WAL, waiting up to `busyTimeoutMs` for other connections. SQLite answers
 * `SQLITE_BUSY` at once, without its busy handler, when another connection holds the write lock
 * of a file still in rollback mode: this statement already reads the file, and waiting while
 * holding that read could deadlock. That happens when several processes create the same file at
 * once, each switching it to WAL, so the switch is retried here with backoff until the timeout.
 */
const switchToWal = (db: Database.Database, busyTimeoutMs: number): void => {
  const deadline = Date.now() + busyTimeoutMs;
  for (let pause = 1; ; pause = Math.min(pause * 2, 25)) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      const left = deadline - Date.now();
      if (!isBusy(error) || left <= 0) throw error;
      sleep(Math.min(pause, left));
    }
  }
};

/**
 * Opens (creating it and its directory when missing) a SQLite database set up the way the store
 * expects. `':memory:'` gives a private in-memory database. The caller owns the returned handle;
 * the store's `close()` closes it.
 */
export const openSqliteDatabase = (path: string, options: OpenSqliteDatabaseOptions = {}): Database.Database => {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0) {
    throw new RangeError('sqlite store: busyTimeoutMs must be a non-negative integer');
  }
  const autoCheckpointPages = options.autoCheckpointPages ?? 1000;
  if (!Number.isInteger(autoCheckpointPages) || autoCheckpointPages < 1) {
    throw new RangeError('sqlite store: autoCheckpointPages must be a positive integer');
  }
  const pageSize = options.pageSize ?? 8192;
  if (!Number.isInteger(pageSize) || pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) {
    throw new RangeError('sqlite store: pageSize must be a power of two from 512 to 65536');
  }
  if (hasFile(path)) mkdirSync(dirname(resolve(path)), { recursive: true });
  const db = guarded('open', () => new Database(path, { timeout: busyTimeoutMs }));
  try {
    guarded('configure', () => {
      // First, so that the pragmas below wait for a process that is creating the same file.
      db.pragma(`busy_timeout = ${busyTimeoutMs}`);
      // Before WAL: a new file takes its page size from its first write. Measured with 50
      // concurrent creates through auth and idempotency: 8 KiB pages wrote 3.45 WAL frames per
      // create against 4.94 at 4 KiB, for 242 µs of CPU against 277 µs (ADR 0016).
      db.pragma(`page_size = ${pageSize}`);
      // Write-ahead logging lets readers run while one writer commits, and lets other processes
      // open the same file. With WAL, synchronous=NORMAL never corrupts the database and loses
      // nothing when the process crashes (the WAL is in the OS cache); only a power cut or OS
      // crash can roll back the last few commits. FULL would fsync every commit for that case.
      switchToWal(db, busyTimeoutMs);
      db.pragma('synchronous = NORMAL');
      db.pragma(`wal_autocheckpoint = ${autoCheckpointPages}`);
      // The store declares no foreign keys, but a host may keep its own tables in the same file.
      db.pragma('foreign_keys = ON');
    });
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
};
