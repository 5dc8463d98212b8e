// autocannon ships no type declarations; this covers only the part of its API the benchmark uses.
declare module 'autocannon' {
  interface Histogram {
    readonly average: number;
    readonly mean: number;
    readonly stddev: number;
    readonly min: number;
    readonly max: number;
    readonly total: number;
    readonly p50: number;
    readonly p90: number;
    readonly p99: number;
  }

  interface Options {
    url: string;
    method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    maxOverallRequests?: number;
    /** Stops after this many requests in all (instead of a duration). */
    amount?: number;
    /** Replaces each `[<id>]` in the raw request (headers included) with a fresh unique id. */
    idReplacement?: boolean;
    timeout?: number;
    warmup?: { connections?: number; duration?: number; maxOverallRequests?: number };
  }

  interface Result {
    readonly duration: number;
    readonly latency: Histogram;
    readonly requests: Histogram;
    readonly errors: number;
    readonly timeouts: number;
    readonly non2xx: number;
    readonly '2xx': number;
    readonly statusCodeStats: Record<string, { count: number }>;
    readonly warmup?: Result;
  }

  interface Instance extends PromiseLike<Result> {
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
  export type { Histogram, Instance, Options, Result };
}
