/** Small number helpers shared by the scale benchmark's parts. */

export const round = (value: number, digits = 2): number => Number(value.toFixed(digits));

export interface Latency {
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  /** Answers the percentiles were taken over. */
  readonly samples: number;
}

/** Nearest-rank percentile of an ascending list; 0 for an empty one. */
const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

export const latencyOf = (samples: readonly number[]): Latency => {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? 0),
    samples: sorted.length,
  };
};

/** `a / b` to three places, or null when there is nothing to divide by. */
export const ratio = (a: number | undefined, b: number | undefined): number | null =>
  a === undefined || b === undefined || b === 0 ? null : round(a / b, 3);
