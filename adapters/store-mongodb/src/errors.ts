/**
 * A failure of the MongoDB backend itself: no reachable primary, a timeout, a closed store, a
 * server error. The storage port treats any thrown error as an infrastructure failure, so every
 * driver error leaves the store as one of these, never as a `false` or `undefined` answer.
 */
export class MongoStoreError extends Error {
  /** The server's error code (`50` for an exceeded time limit, ...) or the driver's, when known. */
  readonly code: number | string | undefined;

  constructor(operation: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`mongodb store: ${operation} failed: ${reason}`, { cause });
    this.name = 'MongoStoreError';
    const code = (cause as { code?: unknown } | null)?.code;
    this.code = typeof code === 'number' || typeof code === 'string' ? code : undefined;
  }
}

/** Runs one driver call, turning whatever it throws into a {@link MongoStoreError}. */
export const guarded = async <T>(operation: string, run: () => Promise<T>): Promise<T> => {
  try {
    return await run();
  } catch (error) {
    throw error instanceof MongoStoreError ? error : new MongoStoreError(operation, error);
  }
};
