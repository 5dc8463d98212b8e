import type Database from 'better-sqlite3';
import { guarded } from './errors.js';

interface Waiter {
  readonly settle: () => void;
  readonly fail: (error: unknown) => void;
}

/** The batches open in this process, on any connection (see {@link flushOpenBatches}). */
const openBatches = new Set<GroupCommit>();

/**
 * Commits every batch open in this process except `keep`. A connection that is about to wait for
 * SQLite's write lock calls this first: better-sqlite3 waits synchronously, so it would block the
 * very event loop that has to commit another connection's batch, and wait out its busy timeout
 * (two stores on one file in one process: a CLI beside a host in tests, two hosts in one process).
 */
export const flushOpenBatches = (keep?: GroupCommit): void => {
  for (const batch of [...openBatches]) if (batch !== keep) batch.flush();
};

/**
 * Group commit: the writes made during one turn of the event loop share one transaction, which
 * commits when the turn ends (`setImmediate`). A commit of one write alone costs its WAL frames
 * for every page it dirtied (about 16 with the indexes); when fifty requests write in the same
 * turn, the shared pages (index roots, the counter rows) are appended once instead of fifty times.
 *
 * What a caller sees does not change: every operation runs at once, in call order, on this
 * connection, and its promise resolves only after the transaction holding it has committed, so
 * nothing acts on a write before it is durable. Reads made while a batch is open may see that
 * batch's writes, so they too resolve only after the commit, and fail with it. Atomicity stays
 * per statement: a statement that fails is undone alone (SQLite's statement journal) and rejects
 * alone; only when SQLite aborts the whole transaction (I/O error, disk full) or the commit fails
 * does every operation of the batch reject, which the port reads as an infrastructure failure.
 *
 * Other connections see a batch when it commits. The write lock is taken with `BEGIN IMMEDIATE`
 * (waiting out the busy timeout, as an autocommit write would) and held only until the turn ends.
 */
export class GroupCommit {
  private waiters: Waiter[] | undefined;
  private readonly begin: Database.Statement;
  private readonly commitStatement: Database.Statement;
  private readonly rollback: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commitStatement = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
  }

  /** Runs a write now, inside the open batch (opening one); resolves once the batch committed. */
  write<T>(operation: string, work: () => T): Promise<T> {
    if (this.waiters === undefined) {
      flushOpenBatches(this);
      guarded('begin', () => this.begin.run());
      this.waiters = [];
      openBatches.add(this);
      setImmediate(() => this.commit());
    }
    return this.join(operation, work);
  }

  /**
   * Runs a read now. With no batch open it answers the value itself (the caller awaits it, which
   * saves a promise per read); while a batch is open, the answer waits for (and fails with) the
   * commit.
   */
  read<T>(operation: string, work: () => T): T | Promise<T> {
    if (this.waiters === undefined) return guarded(operation, work);
    return this.join(operation, work);
  }

  /** Commits the open batch now, if any (before DDL, and before the handle closes). */
  flush(): void {
    this.commit();
  }

  private join<T>(operation: string, work: () => T): Promise<T> {
    let result: T;
    try {
      result = guarded(operation, work);
    } catch (error) {
      // SQLite undid the statement alone, unless it gave up the whole transaction.
      if (!this.db.inTransaction) this.settleAll(error);
      return Promise.reject(error);
    }
    const waiters = this.waiters;
    if (waiters === undefined) return Promise.resolve(result);
    return new Promise<T>((resolve, reject) => waiters.push({ settle: () => resolve(result), fail: reject }));
  }

  private commit(): void {
    if (this.waiters === undefined) return;
    try {
      guarded('commit', () => this.commitStatement.run());
      this.settleAll(undefined);
    } catch (error) {
      if (this.db.inTransaction) {
        try {
          this.rollback.run();
        } catch {
          // The commit's error is the one to report; the handle rolls back when it closes.
        }
      }
      this.settleAll(error);
    }
  }

  /** Ends the batch: every waiter resolves, or every waiter rejects with `error`. */
  private settleAll(error: unknown): void {
    const waiters = this.waiters ?? [];
    this.waiters = undefined;
    openBatches.delete(this);
    for (const waiter of waiters) {
      if (error === undefined) waiter.settle();
      else waiter.fail(error);
    }
  }
}
