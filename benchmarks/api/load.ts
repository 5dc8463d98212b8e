/** One autocannon measurement, reduced to the numbers the report keeps. */
import type { Options, Result } from 'autocannon';
import autocannon from 'autocannon';

export const CONNECTIONS = 50;

export interface Timing {
  /** Seconds of each measured slice; the warm-up comes before each slice and is not counted. */
  readonly durationS: number;
  readonly warmupS: number;
  /** Slices per server: host and bare alternate, so a change in the machine's load hits both. */
  readonly rounds: number;
}

export interface LoadSpec {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** Makes every `[<id>]` in the request unique per request (the Idempotency-Key). */
  readonly uniqueIds?: boolean;
  /** Caps requests per phase, so a fast run cannot exhaust the plan's quota. */
  readonly cap?: { readonly warmup: number; readonly measured: number };
}

export interface Measurement {
  readonly requestsPerSec: number;
  readonly latencyMs: { readonly p50: number; readonly p90: number; readonly p99: number; readonly max: number };
  readonly completed: number;
  readonly ok2xx: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly statusCodes: Record<string, number>;
  readonly durationS: number;
  /** 2xx answers of the warm-up, which also created identities on POST. */
  readonly warmup2xx: number;
  readonly warmupNon2xx: number;
  /** True when the request cap, not the duration, ended the measured phase. */
  readonly capped: boolean;
}

const round = (value: number, digits = 2) => Number(value.toFixed(digits));

const statusCounts = (result: Result): Record<string, number> =>
  Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, Number(count)]));

/** Runs a warm-up then the measured phase at {@link CONNECTIONS} connections. */
export const measure = async (spec: LoadSpec, timing: Timing): Promise<Measurement> => {
  const options: Options = {
    url: spec.url,
    method: spec.method,
    headers: spec.headers,
    body: spec.body,
    connections: CONNECTIONS,
    duration: timing.durationS,
    idReplacement: spec.uniqueIds ?? false,
    timeout: 10,
    maxOverallRequests: spec.cap?.measured,
    warmup: { connections: CONNECTIONS, duration: timing.warmupS, maxOverallRequests: spec.cap?.warmup },
  };
  const result = await autocannon(options);
  const codes = statusCounts(result);
  const completed = Object.values(codes).reduce((sum, count) => sum + count, 0);
  return {
    requestsPerSec: round(result.requests.average),
    latencyMs: { p50: round(result.latency.p50), p90: round(result.latency.p90), p99: round(result.latency.p99), max: round(result.latency.max) },
    completed,
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: codes,
    durationS: round(result.duration),
    warmup2xx: result.warmup?.['2xx'] ?? 0,
    warmupNon2xx: result.warmup?.non2xx ?? 0,
    capped: spec.cap !== undefined && completed >= spec.cap.measured,
  };
};

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * One server's rounds as one measurement: req/s over the summed time, the median of the rounds'
 * percentiles (each round has its own histogram), the largest max, and every count summed.
 */
export const combine = (rounds: readonly Measurement[]): Measurement => {
  const sum = (pick: (m: Measurement) => number) => rounds.reduce((total, m) => total + pick(m), 0);
  const statusCodes: Record<string, number> = {};
  for (const m of rounds) for (const [code, count] of Object.entries(m.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  const durationS = sum((m) => m.durationS);
  return {
    requestsPerSec: round(sum((m) => m.completed) / durationS),
    latencyMs: {
      p50: median(rounds.map((m) => m.latencyMs.p50)),
      p90: median(rounds.map((m) => m.latencyMs.p90)),
      p99: median(rounds.map((m) => m.latencyMs.p99)),
      max: Math.max(...rounds.map((m) => m.latencyMs.max)),
    },
    completed: sum((m) => m.completed),
    ok2xx: sum((m) => m.ok2xx),
    non2xx: sum((m) => m.non2xx),
    errors: sum((m) => m.errors),
    timeouts: sum((m) => m.timeouts),
    statusCodes,
    durationS: round(durationS),
    warmup2xx: sum((m) => m.warmup2xx),
    warmupNon2xx: sum((m) => m.warmupNon2xx),
    capped: rounds.some((m) => m.capped),
  };
};

/** The median of per-round host/bare ratios: each pair ran back to back, under the same load. */
export const medianRatio = (pairs: readonly { readonly host: Measurement; readonly bare: Measurement }[]): number =>
  round(median(pairs.map((pair) => (pair.bare.requestsPerSec > 0 ? pair.host.requestsPerSec / pair.bare.requestsPerSec : 0))), 3);
