/** Retry delays after a failed session: exponential from `baseMs`, capped at `maxMs`. */
export interface BackoffOptions {
  readonly baseMs: number;
  readonly maxMs: number;
}

/**
 * The delay before retry number `attempt` (0 for the first retry). The ceiling doubles per
 * attempt up to `maxMs`; the delay is drawn between half the ceiling and the ceiling ("equal
 * jitter"), so pollers that failed together (a server restart) spread out, and no retry comes
 * sooner than half the ceiling.
 */
export const backoffDelay = (attempt: number, backoff: BackoffOptions, random: () => number = Math.random): number => {
  // Capping the exponent keeps 2 ** n finite however long a server stays down.
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(Math.max(attempt, 0), 40));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
};
