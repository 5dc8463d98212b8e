/**
 * The calibration of the engine's model (core/src/extraction/calibration.ts): a Platt scaling
 * σ(a · score + b) of each reported candidate's score, fitted out of fold. The model is fitted
 * without a group of products, scores the group's candidates, and the scaling is fitted on those
 * held-out scores: it learns how sure to be on wording the model never saw, not on the wording it
 * was fitted to (in-sample scores made every new product's right answers look too unsure).
 */
import { evidenceScore, scoreWith, type Calibration, type Model, type Platt } from '@ephemail/core';
import { fitModel, type FitOptions, type TrainingRow } from './fit.js';

/** One reported candidate's score, whether it was its message's best, and whether it is a secret of it. */
export interface ScoredPair {
  readonly score: number;
  readonly best: boolean;
  readonly right: boolean;
}

// As many candidates of a message as extraction reports: the calibration is of what callers see.
const REPORTED = 5;
// A weak ridge keeps a separable fold (every held-out score right) from running off to infinity.
const RIDGE = 1e-3;

/** The reported candidates of each row scored under `model`, best first, each marked right or not. */
export const heldOutPairs = (model: Model, rows: readonly TrainingRow[]): ScoredPair[] =>
  rows.flatMap((r) =>
    r.candidates
      .map((c, i) => ({ rank: scoreWith(model, c.type, c.evidence.signals), score: evidenceScore(model, c.type, c.evidence.signals), right: r.positives.includes(i) }))
      .sort((x, y) => y.rank - x.rank)
      .slice(0, REPORTED)
      .map((p, i) => ({ score: p.score, right: p.right, best: i === 0 })),
  );

const logLoss = (pairs: readonly ScoredPair[], a: number, b: number): number => {
  let loss = 0;
  for (const { score, right } of pairs) {
    const z = a * score + b;
    // log(1 + e^-z) for a right pair, log(1 + e^z) for a wrong one, written to stay finite.
    const m = right ? -z : z;
    loss += m > 0 ? m + Math.log1p(Math.exp(-m)) : Math.log1p(Math.exp(m));
  }
  return loss / Math.max(1, pairs.length) + (RIDGE / 2) * ((a - 1) ** 2 + b * b);
};

/** One Platt scaling by Newton's method with step halving on the mean log loss (deterministic). */
export const fitPlatt = (pairs: readonly ScoredPair[]): Platt => {
  let a = 1;
  let b = 0;
  const n = Math.max(1, pairs.length);
  let loss = logLoss(pairs, a, b);
  for (let step = 0; step < 100; step += 1) {
    let [ga, gb, haa, hab, hbb] = [RIDGE * (a - 1), RIDGE * b, RIDGE, 0, RIDGE];
    for (const { score, right } of pairs) {
      const p = 1 / (1 + Math.exp(-(a * score + b)));
      const w = (p * (1 - p)) / n;
      ga += ((p - (right ? 1 : 0)) / n) * score;
      gb += (p - (right ? 1 : 0)) / n;
      haa += w * score * score;
      hab += w * score;
      hbb += w;
    }
    const det = haa * hbb - hab * hab;
    if (det <= 0) break;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    let rate = 1;
    while (rate > 1e-6 && logLoss(pairs, a - rate * da, b - rate * db) > loss) rate /= 2;
    if (rate <= 1e-6) break;
    a -= rate * da;
    b -= rate * db;
    const next = logLoss(pairs, a, b);
    if (loss - next < 1e-12) break;
    loss = next;
  }
  const round = (x: number): number => Math.round(x * 1000) / 1000;
  return { a: round(a), b: round(b) };
};

/** The calibration: one scaling for best candidates, one for the others. */
export const fitCalibration = (pairs: readonly ScoredPair[]): Calibration => ({
  best: fitPlatt(pairs.filter((p) => p.best)),
  other: fitPlatt(pairs.filter((p) => !p.best)),
});

/**
 * A model fitted on every group's rows, with a calibration fitted on out-of-fold scores. Groups
 * are products; `folds` merges them into that many folds (group i in fold i mod folds) to save
 * fits, else each group is a fold of its own.
 */
export const fitCalibrated = (groups: readonly (readonly TrainingRow[])[], options: Partial<FitOptions> = {}, folds = groups.length): Model => {
  const pairs: ScoredPair[] = [];
  for (let f = 0; f < folds; f += 1) {
    const held = groups.filter((_, i) => i % folds === f).flat();
    const rest = groups.filter((_, i) => i % folds !== f).flat();
    if (held.length === 0 || rest.length === 0) continue;
    pairs.push(...heldOutPairs(fitModel(rest, options), held));
  }
  return { ...fitModel(groups.flat(), options), calibration: fitCalibration(pairs) };
};
