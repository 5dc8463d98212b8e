/**
 * Fits the engine's model (core/src/extraction/model.ts) to labelled candidates: conditional
 * logistic regression in which a message's candidates compete with each other and with "no
 * secret" (the ranking), plus a logistic loss on each candidate alone (its own probability), with a Gaussian prior that pulls every weight towards the hand scale and the bias
 * towards its start. Deterministic: full-batch gradient steps from a fixed start, no randomness.
 */
import { PREFERENCE_SIGNALS, weightKey, type Model, type ScoredCandidate } from '@ephemail/core';

/**
 * One message as the fit sees it: its candidates' signals, which one is the secret to use first
 * (-1: none), and every candidate that is a secret of the message (that one and a second way in).
 */
export interface TrainingRow {
  readonly candidates: readonly Pick<ScoredCandidate, 'type' | 'evidence'>[];
  readonly target: number;
  readonly positives: readonly number[];
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
  /**
   * Weight of the second half of the loss: each candidate on its own, right when it is any secret
   * of its message (a second way in included), so its score reads as its own log-odds (ADR 0049).
   * 0 leaves the ranking half alone: candidates compete with each other and with "no secret".
   */
  readonly independent: number;
}

export const FIT_DEFAULTS: FitOptions = { scale: 1.8, bias: 0.35, sigma: 0.25, steps: 400, perSignal: true, independent: 1 };

interface Sparse {
  readonly keys: Int32Array;
  readonly values: Float64Array;
  /** 1 for a preference signal (model.ts), which the per-candidate half of the loss leaves out. */
  readonly preference: Uint8Array;
}

/** Fits a model to the rows. */
export const fitModel = (rows: readonly TrainingRow[], options: Partial<FitOptions> = {}): Model => {
  const o = { ...FIT_DEFAULTS, ...options };
  const index = new Map<string, number>();
  const data = rows.map((r) => ({
    target: r.target,
    positives: new Set(r.positives),
    cands: r.candidates.map((c): Sparse => {
      const keys: number[] = [];
      const values: number[] = [];
      const preference: number[] = [];
      for (const [k, v] of Object.entries(c.evidence.signals)) {
        const key = o.perSignal ? weightKey(c.type, k) : 'scale';
        if (!index.has(key)) index.set(key, index.size);
        keys.push(index.get(key) ?? 0);
        values.push(v);
        preference.push(PREFERENCE_SIGNALS.has(k) ? 1 : 0);
      }
      return { keys: Int32Array.from(keys), values: Float64Array.from(values), preference: Uint8Array.from(preference) };
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
      // The whole score ranks; the score without preference signals is each candidate's own.
      const evidence = row.cands.map((c) => {
        let s = theta[n] ?? 0;
        for (let j = 0; j < c.keys.length; j += 1) if (c.preference[j] === 0) s += (theta[c.keys[j] ?? 0] ?? 0) * (c.values[j] ?? 0);
        return s;
      });
      const scores = row.cands.map((c, ci) => {
        let s = evidence[ci] ?? 0;
        for (let j = 0; j < c.keys.length; j += 1) if (c.preference[j] === 1) s += (theta[c.keys[j] ?? 0] ?? 0) * (c.values[j] ?? 0);
        return Math.min(50, s);
      });
      const exps = scores.map((s) => Math.exp(s));
      const total = 1 + exps.reduce((a, b) => a + b, 0);
      row.cands.forEach((c, ci) => {
        const rank = (exps[ci] ?? 0) / total - (ci === row.target ? 1 : 0);
        const own = o.independent * (1 / (1 + Math.exp(-Math.min(50, evidence[ci] ?? 0))) - (row.positives.has(ci) ? 1 : 0));
        grad[n] = (grad[n] ?? 0) + rank + own;
        for (let j = 0; j < c.keys.length; j += 1) {
          const k = c.keys[j] ?? 0;
          grad[k] = (grad[k] ?? 0) + (c.preference[j] === 1 ? rank : rank + own) * (c.values[j] ?? 0);
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
