import { planLimitsOf } from './plan-in-force.js';
import type { CoreDeps } from '../deps.js';
import { C } from '../store/collections.js';
import { addToCounter } from '../store/counter.js';

/** The calendar month (UTC) an API call counts in: `2026-03`. */
export const monthOf = (at: Date): string => at.toISOString().slice(0, 7);

export const apiCallsCounter = (orgId: string, month: string): string => `api_calls:${orgId}:${month}`;

export interface Admission {
  readonly admitted: boolean;
  readonly limit: number;
  readonly used: number;
}

/** How often a process adds the calls it counted to the store, and how long it trusts a count read. */
export const API_CALLS_FLUSH_MS = 1_000;

/**
 * Counts API calls per organization and month without a store write per request: each process
 * adds up its calls in memory and adds them to the month's counter (one atomic increment per
 * organization) every second. A count read is the stored one plus what this process has not
 * written yet, so it lags the truth by at most one flush interval of the other processes. The
 * monthly limit is checked against that count, so N hosts may together let through about
 * N × (calls per second) × 1 s more than the limit before all of them refuse.
 */
export const createApiCallCounter = (deps: CoreDeps) => {
  const pending = new Map<string, number>();
  const stored = new Map<string, { count: number; at: number }>();
  let flushing: Promise<void> | undefined;
  const flush = async (): Promise<void> => {
    if (flushing !== undefined) return flushing;
    const batch = [...pending.entries()];
    pending.clear();
    flushing = (async () => {
      for (const [id, n] of batch) {
        try {
          const count = await addToCounter(deps, id, n);
          if (typeof count === 'number') stored.set(id, { count, at: performance.now() });
        } catch {
          // The store failed: the calls are counted again at the next flush.
          pending.set(id, (pending.get(id) ?? 0) + n);
        }
      }
    })().finally(() => {
      flushing = undefined;
    });
    return flushing;
  };
  const limits = new Map<string, { value: number; at: number }>();
  const decide = (id: string, limit: number, used: number): Admission => {
    if (used >= limit) return { admitted: false, limit, used };
    pending.set(id, (pending.get(id) ?? 0) + 1);
    return { admitted: true, limit, used: used + 1 };
  };
  const timer = setInterval(() => void flush(), API_CALLS_FLUSH_MS);
  timer.unref();
  const countOf = async (orgId: string, month = monthOf(deps.clock.now())): Promise<number> => {
    const id = apiCallsCounter(orgId, month);
    let known = stored.get(id);
    if (known === undefined || performance.now() - known.at > API_CALLS_FLUSH_MS) {
      const doc = await deps.store.get(C.counters, id);
      known = { count: typeof doc?.count === 'number' ? doc.count : 0, at: performance.now() };
      stored.set(id, known);
    }
    return known.count + (pending.get(id) ?? 0);
  };
  return {
    /**
     * Counts one call of the organization; answers whether it is within the plan's monthly calls.
     * While this process's reading of the count and the limit is fresh (a second), it answers at
     * once, without a promise: it runs on every API request.
     */
    admit: (orgId: string): Admission | Promise<Admission> => {
      const id = apiCallsCounter(orgId, monthOf(deps.clock.now()));
      const known = stored.get(id);
      const limit = limits.get(orgId);
      const now = performance.now();
      if (known !== undefined && limit !== undefined && now - known.at <= API_CALLS_FLUSH_MS && now - limit.at <= API_CALLS_FLUSH_MS) {
        return decide(id, limit.value, known.count + (pending.get(id) ?? 0));
      }
      return (async () => {
        const [{ apiCallsPerMonth }, used] = await Promise.all([planLimitsOf(deps, orgId), countOf(orgId)]);
        limits.set(orgId, { value: apiCallsPerMonth, at: performance.now() });
        return decide(id, apiCallsPerMonth, used);
      })();
    },
    count: countOf,
    flush,
    close: async () => {
      clearInterval(timer);
      await flush();
    },
  };
};

export type ApiCallCounter = ReturnType<typeof createApiCallCounter>;
