/** How failed deliveries are retried. */
export interface RetryPolicy {
  /** Attempts in all, the first included. Default 5. */
  readonly attempts: number;
  /** Backoff base in milliseconds. Default 1000. */
  readonly baseMs: number;
  /** Largest backoff in milliseconds. Default 1,800,000 (30 min). */
  readonly capMs: number;
}

/** The specification's defaults. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 5, baseMs: 1000, capMs: 1_800_000 };

/** Refuses a policy that would never deliver or never stop, at start-up. */
export const assertRetryPolicy = (policy: RetryPolicy): void => {
  const { attempts, baseMs, capMs } = policy;
  if (!Number.isInteger(attempts) || attempts < 1 || attempts > 50) throw new Error(`webhook retry attempts must be an integer 1..50 (got ${attempts})`);
  if (!Number.isFinite(baseMs) || baseMs < 0) throw new Error(`webhook retry baseMs must be >= 0 (got ${baseMs})`);
  if (!Number.isFinite(capMs) || capMs < baseMs) throw new Error(`webhook retry capMs must be >= baseMs (got ${capMs})`);
};

/**
 * Exponential backoff with full jitter: after the `failed`-th attempt failed (1-based), wait a
 * uniformly random time in [0, min(cap, base · 2^(failed-1))). Full jitter spreads the retries of
 * many deliveries that failed together (a receiver that was down) instead of herding them.
 * `random` answers a number in [0, 1). Answers `undefined` when no attempt is left.
 */
export const retryDelayMs = (policy: RetryPolicy, failed: number, random: () => number): number | undefined => {
  if (failed >= policy.attempts) return undefined;
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** (failed - 1));
  return Math.floor(Math.min(Math.max(random(), 0), 1 - Number.EPSILON) * ceiling);
};
