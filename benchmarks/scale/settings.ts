/** What one run of the scale benchmark does, read once from the environment. */

export interface Settings {
  /** Seconds of each measured identity-creation phase. */
  readonly durationS: number;
  /** Seconds of the warm-up before it (not counted). */
  readonly warmupS: number;
  /** Messages of each measured ingest run, split evenly over the hosts. */
  readonly messages: number;
  /** Messages sent before each measured ingest run (not counted). */
  readonly warmupMessages: number;
  /** When set, the store micro-benchmark also runs on this MongoDB deployment. */
  readonly mongodbUrl: string | undefined;
}

const positive = (name: string, raw: string | undefined, fallback: number, integer: boolean): number => {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  const ok = Number.isFinite(value) && value > 0 && (!integer || Number.isInteger(value));
  if (!ok) throw new Error(`${name} must be a positive ${integer ? 'whole number' : 'number'}, got "${raw}"`);
  return value;
};

/**
 * BENCH_SCALE_DURATION wins; BENCH_DURATION (shared with the api benchmark) is honoured so one
 * variable can shorten a whole `npm run bench`.
 */
export const settingsFromEnv = (env: NodeJS.ProcessEnv = process.env): Settings => {
  const durationName = env.BENCH_SCALE_DURATION ? 'BENCH_SCALE_DURATION' : 'BENCH_DURATION';
  const durationS = positive(durationName, env[durationName], 8, false);
  const messages = positive('BENCH_SCALE_MESSAGES', env.BENCH_SCALE_MESSAGES, 5_000, true);
  if (messages < 2) throw new Error('BENCH_SCALE_MESSAGES must be at least 2 (it is split over two hosts)');
  return {
    durationS,
    // Long enough for the JIT and SQLite's page cache, short next to the measured phase.
    warmupS: Math.min(3, Math.max(1, Math.round(durationS / 4))),
    messages,
    warmupMessages: Math.min(400, Math.max(40, Math.round(messages / 20))),
    mongodbUrl: env.MONGODB_URL === '' ? undefined : env.MONGODB_URL,
  };
};

/** `total` split over `parts` as evenly as whole numbers allow (the first parts get the rest). */
export const split = (total: number, parts: number): number[] =>
  Array.from({ length: parts }, (_, i) => Math.floor(total / parts) + (i < total % parts ? 1 : 0));
