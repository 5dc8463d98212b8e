import type { Metrics } from './metrics.js';

const pct = (n: number): string => `${(n * 100).toFixed(1)}%`;

/** One readable line of metrics. */
export const row = (name: string, m: Metrics): string =>
  `${name.padEnd(12)} ${String(m.messages).padStart(4)}  acc ${pct(m.accuracy).padStart(6)}  fpr ${pct(m.false_positive_rate).padStart(5)}  recall@.5 ${pct(m.recall_at_0_5).padStart(6)}  ece ${m.ece.toFixed(3)}${m.both_at_0_5 === null ? '' : `  both@.5 ${pct(m.both_at_0_5)} of ${m.two_secrets}`}`;
