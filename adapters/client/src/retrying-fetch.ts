import { retryAfterMs } from './errors.js';

/** The longest a `Retry-After` is honoured for; a longer one is waited this long. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Answers worth repeating: rate limited (429), unavailable (503), and an idempotency key still
 * being processed (409, recognised by its `Retry-After`).
 */
const isRetryable = (response: Response): boolean =>
  response.status === 429 || response.status === 503 || (response.status === 409 && response.headers.has('retry-after'));

/** Exponential backoff with a little jitter, when the answer says nothing of when to retry. */
export const backoffMs = (attempt: number): number => Math.min(250 * 2 ** attempt, 4_000) + Math.floor(Math.random() * 100);

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Whether a rejected fetch is a network failure (refused, reset, DNS): fetch rejects those with a TypeError. */
export const isNetworkError = (error: unknown): boolean => error instanceof TypeError;

/**
 * What each attempt sends: the request's parts, with its body read once. Not `clone()`s: in Node's
 * fetch a clone (or a Request made from one) holds its abort controller only weakly, so after a
 * garbage collection an abort would no longer reach a request in flight. The request's own signal
 * given to fetch directly does.
 */
const partsOf = async (request: Request): Promise<RequestInit> => ({
  method: request.method,
  headers: request.headers,
  body: request.body === null ? undefined : await request.arrayBuffer(),
  signal: request.signal,
  redirect: request.redirect,
});

/**
 * A fetch that repeats a request up to `retries` times on a network error, 429, 503 or 409 in
 * progress, waiting as `Retry-After` says (else backing off). Every attempt sends the same
 * headers (the `Idempotency-Key` above all) and body. An aborted request is never repeated.
 */
export const createRetryingFetch =
  (send: (url: string, init: RequestInit) => Promise<Response>, retries: number) =>
  async (request: Request): Promise<Response> => {
    const init = await partsOf(request);
    for (let attempt = 0; ; attempt += 1) {
      const last = attempt >= retries;
      let response: Response;
      try {
        response = await send(request.url, init);
      } catch (error) {
        if (last || request.signal.aborted || !isNetworkError(error)) throw error;
        await sleep(backoffMs(attempt), request.signal);
        continue;
      }
      if (last || !isRetryable(response)) return response;
      const asked = retryAfterMs(response.headers);
      // The answer is dropped: its body would otherwise hold the connection.
      await response.body?.cancel().catch(() => undefined);
      await sleep(asked === undefined ? backoffMs(attempt) : Math.min(asked, MAX_RETRY_AFTER_MS), request.signal);
    }
  };
