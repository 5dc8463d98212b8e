import type Database from 'better-sqlite3';
import { guarded, isBusy, SqliteStoreError } from './errors.js';

interface Waiter {
  readonly settle: () => void;
  readonly fail: (error: unknown) => void;
}

interface Queued {
  readonly run: () => void;
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
 * and held only until the turn ends; while another process holds it, writes wait in a queue
 * (see `write`) rather than in SQLite's busy handler.
 */
export class GroupCommit {
  private waiters: Waiter[] | undefined;
  /** Writes waiting for another process's write lock, in call order. */
  private readonly queued: Queued[] = [];
  /** While writes are queued: when they give up, the last refusal, and the pending retry. */
  private retry: { readonly deadline: number; error: unknown; timer?: NodeJS.Timeout } | undefined;
  private readonly begin: Database.Statement;
  private readonly commitStatement: Database.Statement;
  private readonly rollback: Database.Statement;
  private readonly noWait: Database.Statement;
  private readonly wait: Database.Statement;
  private readonly busyTimeoutMs: number;

  constructor(private readonly db: Database.Database) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commitStatement = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
    this.busyTimeoutMs = Number(db.pragma('busy_timeout', { simple: true }));
    this.noWait = db.prepare('PRAGMA busy_timeout = 0');
    this.wait = db.prepare(`PRAGMA busy_timeout = ${this.busyTimeoutMs}`);
  }

  /**
   * Runs a write now, inside the open batch (opening one); resolves once the batch committed.
   * When another process holds the write lock, the write waits in a queue instead, and the event
   * loop stays free: better-sqlite3 would wait synchronously, in SQLite's busy handler, whose
   * sleeps grow to 100 ms. The queue retries every millisecond, up to the busy timeout, and then
   * rejects with `SQLITE_BUSY` as a blocked statement would.
   */
  write<T>(operation: string, work: () => T): Promise<T> {
    if (this.waiters !== undefined) return this.join(operation, work);
    if (this.queued.length === 0 && this.tryBegin()) return this.join(operation, work);
    return new Promise<T>((resolve, reject) => {
      this.queued.push({ run: () => this.join(operation, work).then(resolve, reject), fail: reject });
      this.scheduleRetry();
    });
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

  /**
   * Commits the open batch now, if any (before DDL, and before the handle closes). Queued writes
   * are run first, waiting for the lock as long as the busy timeout allows.
   */
  flush(): void {
    if (this.queued.length > 0 && this.waiters === undefined) {
      try {
        this.open(() => this.begin.run());
        this.drain();
      } catch (error) {
        this.failQueued(error);
      }
    }
    this.commit();
  }

  /** Takes the write lock if it is free at once; `false` when another connection holds it. */
  private tryBegin(): boolean {
    try {
      this.open(() => {
        this.noWait.get();
        try {
          this.begin.run();
        } finally {
          this.wait.get();
        }
      });
      return true;
    } catch (error) {
      if (!isBusy(error)) throw error;
      this.retry ??= { deadline: Date.now() + this.busyTimeoutMs, error };
      this.retry.error = error;
      return false;
    }
  }

  private open(begin: () => void): void {
    flushOpenBatches(this);
    guarded('begin', begin);
    this.waiters = [];
    openBatches.add(this);
    setImmediate(() => this.commit());
  }

  private scheduleRetry(): void {
    this.retry ??= { deadline: Date.now() + this.busyTimeoutMs, error: undefined };
    this.retry.timer ??= setTimeout(() => this.retryQueued(), 1);
  }

  private retryQueued(): void {
    const retry = this.retry;
    if (retry === undefined) return;
    retry.timer = undefined;
    try {
      if (this.waiters === undefined && !this.tryBegin()) {
        if (Date.now() < retry.deadline) return this.scheduleRetry();
        return this.failQueued(retry.error);
      }
    } catch (error) {
      return this.failQueued(error);
    }
    this.drain();
  }

  /** Runs queued writes into the open batch; if SQLite gives the batch up, the rest wait again. */
  private drain(): void {
    while (this.queued.length > 0 && this.waiters !== undefined) this.queued.shift()!.run();
    if (this.queued.length > 0) this.scheduleRetry();
    else this.retry = undefined;
  }

  private failQueued(error: unknown): void {
    clearTimeout(this.retry?.timer);
    this.retry = undefined;
    const failure = error instanceof SqliteStoreError ? error : new SqliteStoreError('begin', error);
    for (const item of this.queued.splice(0)) item.fail(failure);
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
