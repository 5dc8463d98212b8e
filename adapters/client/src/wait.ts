import { EphemailError, EphemailTimeoutError } from './errors.js';
import { isNetworkError, sleep } from './retrying-fetch.js';
import type { Extraction, WaitOptions } from './types.js';

/** The longest one long-poll may hold a request (the API's `wait` maximum). */
const MAX_POLL_SECONDS = 60;
/** The pause before reconnecting after a failure that carried no `Retry-After`. */
const RECONNECT_MS = 500;
export const DEFAULT_WAIT_MS = 60_000;

/** One long-poll: the latest extraction (of `type`, if given) newer than `after`, or `undefined` when none came in `wait` seconds. */
export type LongPoll = (
  identityId: string,
  query: { wait: number; after: string | undefined; reveal: boolean; type?: Extraction['type'] },
  signal: AbortSignal | undefined,
) => Promise<Extraction | undefined>;

/** Failures worth reconnecting after: the network, or the API unavailable or rate limiting. */
const isTransient = (error: unknown): boolean =>
  isNetworkError(error) || (error instanceof EphemailError && (error.status === 503 || error.status === 429));

/** An abort signal that fires at the deadline or when the caller's does; `done` clears the timer. */
const deadlineSignal = (timeoutMs: number, caller: AbortSignal | undefined) => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('deadline')), timeoutMs);
  const onAbort = () => controller.abort(caller?.reason);
  if (caller?.aborted) onAbort();
  caller?.addEventListener('abort', onAbort, { once: true });
  const done = () => {
    clearTimeout(timer);
    caller?.removeEventListener('abort', onAbort);
  };
  return { signal: controller.signal, done };
};

/**
 * The secret of `type` in an extraction the API answered for a read by that type: its own
 * (a runner-up the API picked has its fields at the top too, with `runner_up: true`).
 */
export const secretOf = (found: Extraction, type: Extraction['type']): { value: string | undefined; redacted: string } | undefined =>
  found.type === type ? { value: found.value, redacted: found.redacted_value } : undefined;

/**
 * Long-polls the identity's latest extraction of `type` (`?type=`: a mail whose winner is of the
 * other type answers with its sure runner-up) until one arrives, asking again when a poll ends
 * empty, and reconnecting after network errors, 429 and 503 (after their `Retry-After`), all
 * within `timeoutMs` in total. An identity squashed or expired, before or during the wait, ends
 * it at once with `EphemailIdentityGoneError`.
 */
export const waitForExtraction = async (
  poll: LongPoll,
  identityId: string,
  type: Extraction['type'],
  options: WaitOptions = {},
): Promise<Extraction> => {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
  const started = Date.now();
  const deadline = started + timeoutMs;
  const { signal, done } = deadlineSignal(timeoutMs, options.signal);
  let after = options.after;
  let lastFailure: unknown;
  try {
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new EphemailTimeoutError(identityId, Date.now() - started, { cause: lastFailure });
      try {
        const found = await poll(identityId, { wait: Math.min(MAX_POLL_SECONDS, Math.ceil(remaining / 1000)), after, reveal: options.reveal ?? true, type }, signal);
        if (found !== undefined && secretOf(found, type) !== undefined) return found;
        // Only an API that ignored `type` answers another type: step past it.
        if (found !== undefined) after = found.id;
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (signal.aborted) throw new EphemailTimeoutError(identityId, Date.now() - started, { cause: lastFailure });
        if (!isTransient(error)) throw error;
        lastFailure = error;
        const pause = error instanceof EphemailError && error.retryAfterMs !== undefined ? error.retryAfterMs : RECONNECT_MS;
        await sleep(Math.min(pause, Math.max(0, deadline - Date.now())), signal).catch(() => undefined);
      }
    }
  } finally {
    done();
  }
};
