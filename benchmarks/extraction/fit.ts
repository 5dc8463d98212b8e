/**
 * Fits the engine's model (core/src/extraction/model.ts) to labelled candidates: conditional
 * logistic regression in which a message's candidates compete with each other and with "no
 * secret", with a Gaussian prior that pulls every weight towards the hand scale and the bias
 * towards its start. Deterministic: full-batch gradient steps from a fixed start, no randomness.
 */
import { weightKey, type Model, type ScoredCandidate } from '@ephemail/core';

/** One message as the fit sees it: its candidates' signals and which one is right (-1: none). */
export interface TrainingRow {
  readonly candidates: readonly Pick<ScoredCandidate, 'type' | 'evidence'>[];
  readonly target: number;
}

/** The fit's settings; the defaults are what the committed model and every fold use. */
export interface FitOptions {
  /** Prior mean of every weight, and the weight of signals the data never shows. */
  readonly scale: number;
  /** Prior mean of the bias. */
  readonly bias: number;
  /** Prior standard deviation of a weight (and of the bias), in weight units. */
  readonly sigma: number;
  readonly steps: number;
  /**
   * False: one weight for every signal (the hand scale) and the bias, i.e. the Platt-style
   * calibration the engine had before it had a model; true: a weight per signal.
   */
  readonly perSignal: boolean;
}

export const FIT_DEFAULTS: FitOptions = { scale: 1.8, bias: 0.35, sigma: 0.25, steps: 400, perSignal: true };

interface Sparse {
  readonly keys: Int32Array;
  readonly values: Float64Array;
}

/** Fits a model to the rows. */
export const fitModel = (rows: readonly TrainingRow[], options: Partial<FitOptions> = {}): Model => {
  const o = { ...FIT_DEFAULTS, ...options };
  const index = new Map<string, number>();
  const data = rows.map((r) => ({
    target: r.target,
    cands: r.candidates.map((c): Sparse => {
      const keys: number[] = [];
      const values: number[] = [];
      for (const [k, v] of Object.entries(c.evidence.signals)) {
        const key = o.perSignal ? weightKey(c.type, k) : 'scale';
        if (!index.has(key)) index.set(key, index.size);
        keys.push(index.get(key) ?? 0);
        values.push(v);
      }
      return { keys: Int32Array.from(keys), values: Float64Array.from(values) };
    }),
  }));
  const n = index.size;
  // theta[0..n) are the weights, theta[n] the bias.
  const theta = new Float64Array(n + 1).fill(o.scale);
  theta[n] = o.bias;
  const prior = new Float64Array(n + 1).fill(o.scale);
  prior[n] = o.bias;
  const precision = 1 / (o.sigma * o.sigma);
  // Adam, with a fixed step size: the loss is convex, and a fixed schedule keeps the fit deterministic.
  const m = new Float64Array(n + 1);
  const v = new Float64Array(n + 1);
  const grad = new Float64Array(n + 1);
  const rate = 0.05;
  for (let step = 1; step <= o.steps; step += 1) {
    for (let i = 0; i <= n; i += 1) grad[i] = precision * ((theta[i] ?? 0) - (prior[i] ?? 0));
    for (const row of data) {
      const scores = row.cands.map((c) => {
        let s = theta[n] ?? 0;
        for (let j = 0; j < c.keys.length; j += 1) s += (theta[c.keys[j] ?? 0] ?? 0) * (c.values[j] ?? 0);
        return Math.min(50, s);
      });
      const exps = scores.map((s) => Math.exp(s));
      const total = 1 + exps.reduce((a, b) => a + b, 0);
      row.cands.forEach((c, ci) => {
        const g = (exps[ci] ?? 0) / total - (ci === row.target ? 1 : 0);
        grad[n] = (grad[n] ?? 0) + g;
        for (let j = 0; j < c.keys.length; j += 1) {
          const k = c.keys[j] ?? 0;
          grad[k] = (grad[k] ?? 0) + g * (c.values[j] ?? 0);
        }
      });
    }
    for (let i = 0; i <= n; i += 1) {
      const g = (grad[i] ?? 0) / data.length;
      m[i] = 0.9 * (m[i] ?? 0) + 0.1 * g;
      v[i] = 0.999 * (v[i] ?? 0) + 0.001 * g * g;
      const mh = (m[i] ?? 0) / (1 - 0.9 ** step);
      const vh = (v[i] ?? 0) / (1 - 0.999 ** step);
      theta[i] = (theta[i] ?? 0) - (rate * mh) / (Math.sqrt(vh) + 1e-8);
    }
  }
  const round = (x: number): number => Math.round(x * 1000) / 1000;
  if (!o.perSignal) return { scale: round(theta[0] ?? o.scale), bias: round(theta[n] ?? 0), weights: {} };
  const weights = Object.fromEntries([...index.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, i]) => [k, round(theta[i] ?? 0)]));
  return { scale: o.scale, bias: round(theta[n] ?? 0), weights };
};
