import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { guarded } from './errors.js';

/** Options of {@link openSqliteDatabase}. */
export interface OpenSqliteDatabaseOptions {
  /** How long a statement waits for another connection's write lock before failing. Default 5000. */
  readonly busyTimeoutMs?: number;
  /**
   * WAL size in pages at which a commit checkpoints on this connection (`wal_autocheckpoint`).
   * Default 1000, SQLite's own. With a background checkpointer, set it far higher (the host uses
   * 10,000) so that requests checkpoint only when the worker has fallen behind.
   */
  readonly autoCheckpointPages?: number;
}

/** In-memory and anonymous temporary databases have no file, so no directory to create. */
const hasFile = (path: string): boolean => path !== ':memory:' && path !== '';

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
  if (hasFile(path)) mkdirSync(dirname(resolve(path)), { recursive: true });
  const db = guarded('open', () => new Database(path, { timeout: busyTimeoutMs }));
  try {
    guarded('configure', () => {
      // First, so that the pragmas below wait for a process that is creating the same file.
      db.pragma(`busy_timeout = ${busyTimeoutMs}`);
      // Write-ahead logging lets readers run while one writer commits, and lets other processes
      // open the same file. With WAL, synchronous=NORMAL never corrupts the database and loses
      // nothing when the process crashes (the WAL is in the OS cache); only a power cut or OS
      // crash can roll back the last few commits. FULL would fsync every commit for that case.
      db.pragma('journal_mode = WAL');
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
