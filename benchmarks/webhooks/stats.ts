/** Latency summaries: nearest-rank percentiles over every sample (no sampling, no histogram buckets). */
export interface LatencySummary {
  readonly samples: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
}

const rank = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;

export const summarize = (values: readonly number[]): LatencySummary => {
  const sorted = [...values].sort((a, b) => a - b);
  const total = sorted.reduce((sum, value) => sum + value, 0);
  const round = (value: number) => Number(value.toFixed(1));
  return {
    samples: sorted.length,
    p50: round(rank(sorted, 50)),
    p90: round(rank(sorted, 90)),
    p99: round(rank(sorted, 99)),
    max: round(sorted.at(-1) ?? 0),
    mean: round(sorted.length === 0 ? 0 : total / sorted.length),
  };
};

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Calls `fire(i)` for i = 0, 1, ... at a fixed offered rate for `durationMs`, without waiting for
 * earlier calls (an open loop: a slow system does not lower the offered rate).
 */
export const offer = async (perSecond: number, durationMs: number, fire: (i: number) => void): Promise<number> => {
  const interval = 1000 / perSecond;
  const total = Math.round((durationMs / 1000) * perSecond);
  const start = performance.now();
  let fired = 0;
  while (fired < total) {
    const due = Math.min(total, Math.floor((performance.now() - start) / interval) + 1);
    while (fired < due) fire(fired++);
    await sleep(Math.max(0, start + fired * interval - performance.now()));
  }
  return fired;
};
