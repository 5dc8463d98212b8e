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

/**
 * One stage of an interleaved measurement: a name and the work it does per input, or a whole
 * round run somewhere else (another thread) that answers each input's time in milliseconds, in
 * input order.
 */
export type Stage<T> =
  | { readonly name: string; readonly work: (t: T) => Promise<unknown> }
  | { readonly name: string; readonly round: () => Promise<number[]> };

/** One run of a stage over all inputs: each input's time in milliseconds. */
const runRound = async <T>(stage: Stage<T> | undefined, inputs: readonly T[]): Promise<number[]> => {
  if (stage === undefined) return [];
  if ('round' in stage) return stage.round();
  const times: number[] = [];
  for (const input of inputs) {
    const t0 = performance.now();
    await stage.work(input);
    times.push(performance.now() - t0);
  }
  return times;
};

/** Each stage's figures over all rounds, and its seconds in each round (for per-round ratios). */
export interface Interleaved {
  readonly stages: Record<string, Throughput>;
  readonly roundSeconds: Record<string, number[]>;
}

const summary = (times: readonly number[], seconds: number, messages: number, bytes: number): Throughput => {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    messages_per_s: Math.round(messages / seconds),
    mb_per_s: Math.round((bytes / 1e6 / seconds) * 100) / 100,
    max_ms: Math.round((sorted[sorted.length - 1] ?? 0) * 100) / 100,
    p99_ms: Math.round((sorted[Math.floor(sorted.length * 0.99)] ?? 0) * 100) / 100,
  };
};

/** Every order of `n` stages, so that over a full set each stage runs after each other one equally often. */
const orders = (n: number): number[][] => {
  if (n <= 1) return [[...Array(n).keys()]];
  return orders(n - 1).flatMap((o) => Array.from({ length: n }, (_, at) => [...o.slice(0, at), n - 1, ...o.slice(at)]));
};

// With --expose-gc, the heap is collected between stages, so no stage pays for the garbage the
// previous one left behind.
const collect = (): void => (globalThis as { gc?: () => void }).gc?.();

/**
 * Measures several stages over the same inputs in interleaved rounds: after one warm-up round of
 * every stage, each round runs every stage over all inputs, in every order of the stages in turn.
 * Measured one after another, a stage run first, after a stage that left much garbage, or while
 * the machine happened to be busy was favoured or penalised (on a shared machine the parse-only
 * baseline once came out slower than the adapter that wraps it); cycling through all orders
 * spreads these effects over all stages, so their ratios can be compared.
 */
export const measureInterleaved = async <T>(inputs: readonly T[], bytes: (t: T) => number, stages: readonly Stage<T>[], rounds = 2 * orders(stages.length).length): Promise<Interleaved> => {
  for (const stage of stages) await runRound(stage, inputs);
  const times = stages.map((): number[] => []);
  const perRound = stages.map((): number[] => []);
  const all = orders(stages.length);
  for (let r = 0; r < rounds; r += 1) {
    for (const i of all[r % all.length] ?? []) {
      collect();
      const round = await runRound(stages[i], inputs);
      times[i]?.push(...round);
      perRound[i]?.push(round.reduce((a, b) => a + b, 0) / 1000);
    }
  }
  const totalBytes = inputs.reduce((a, t) => a + bytes(t), 0) * rounds;
  const seconds = (i: number): number => (perRound[i] ?? []).reduce((a, b) => a + b, 0);
  return {
    stages: Object.fromEntries(stages.map((s, i) => [s.name, summary(times[i] ?? [], seconds(i), inputs.length * rounds, totalBytes)])),
    roundSeconds: Object.fromEntries(stages.map((s, i) => [s.name, perRound[i] ?? []])),
  };
};
