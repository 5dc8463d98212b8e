/**
 * A failure of the SQLite backend itself: I/O, a locked database after the busy timeout, a closed
 * connection. The storage port treats any thrown error as an infrastructure failure, so every
 * driver error leaves the store as one of these, never as a `false` or `undefined` answer.
 */
export class SqliteStoreError extends Error {
  /** The SQLite result code (`SQLITE_BUSY`, `SQLITE_IOERR`, ...) when the driver reported one. */
  readonly code: string | undefined;

  constructor(operation: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`sqlite store: ${operation} failed: ${reason}`, { cause });
    this.name = 'SqliteStoreError';
    const code = (cause as { code?: unknown } | null)?.code;
    this.code = typeof code === 'string' ? code : undefined;
  }
}

/** Runs one driver call, turning whatever it throws into a {@link SqliteStoreError}. */
export const guarded = <T>(operation: string, run: () => T): T => {
  try {
    return run();
  } catch (error) {
    throw error instanceof SqliteStoreError ? error : new SqliteStoreError(operation, error);
  }
};

/**
 * Whether SQLite refused for another connection's lock: `SQLITE_BUSY`, or an extended code of it
 * (`SQLITE_BUSY_RECOVERY` while another process recovers the log).
 */
export const isBusy = (error: unknown): boolean => String((error as { code?: unknown } | null)?.code).startsWith('SQLITE_BUSY');
