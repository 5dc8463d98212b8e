import { performance } from 'node:perf_hooks';

/** Messages and megabytes per second of one pass over the corpus. */
export interface Throughput {
  readonly messages_per_s: number;
  readonly mb_per_s: number;
  /** Slowest single message over all rounds, in milliseconds. */
  readonly max_ms: number;
  readonly p99_ms: number;
}

/**
 * Runs `work` over every input `rounds` times after one warm-up round and measures it. Each
 * message is timed on its own too, so the slowest one is known.
 */
export const measure = async <T>(inputs: readonly T[], bytes: (t: T) => number, work: (t: T) => Promise<unknown>, rounds = 3): Promise<Throughput> => {
  for (const input of inputs) await work(input);
  const times: number[] = [];
  const started = performance.now();
  for (let r = 0; r < rounds; r += 1) {
    for (const input of inputs) {
      const t0 = performance.now();
      await work(input);
      times.push(performance.now() - t0);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const totalBytes = inputs.reduce((a, t) => a + bytes(t), 0) * rounds;
  const sorted = [...times].sort((a, b) => a - b);
  return {
    messages_per_s: Math.round((inputs.length * rounds) / seconds),
    mb_per_s: Math.round((totalBytes / 1e6 / seconds) * 100) / 100,
    max_ms: Math.round((sorted[sorted.length - 1] ?? 0) * 100) / 100,
    p99_ms: Math.round((sorted[Math.floor(sorted.length * 0.99)] ?? 0) * 100) / 100,
  };
};
