import type { Calibration } from './calibration.js';
import type { Candidate, SecretType } from './types.js';

/**
 * The learned part of scoring. Every candidate's signals are hand-scaled log-odds (see codes.ts
 * and links.ts); the model weighs each one and adds a bias:
 *
 *   score = bias + Σ_k weight(type.k) · signal_k
 *
 * and each score becomes a candidate's own probability through the model's calibration (see
 * `confidences`). Weights are fitted at build time by `benchmarks/extraction/train.ts` (conditional logistic regression
 * with a Gaussian prior around `scale`) and committed in model-weights.ts; the benchmark refits
 * them for every fold of its leave-one-product-out evaluation. A signal the fit never saw (a rule
 * code, a signal added since) is weighed by `scale`, the model's overall trust in hand values.
 */
export interface Model {
  /** Weight of a signal without a fitted weight of its own. */
  readonly scale: number;
  /** Log-odds added to every candidate: how rare a secret is against "no secret". */
  readonly bias: number;
  /** Fitted weight of each signal, keyed `otp.<signal>` or `magic_link.<signal>`. */
  readonly weights: Readonly<Record<string, number>>;
  /** Maps a score to a candidate's probability; fitted out of fold. Absent: σ(score). */
  readonly calibration?: Calibration;
}

/** The key of a signal's weight. */
export const weightKey = (type: SecretType, signal: string): string => `${type}.${signal}`;

type ByType = Record<SecretType, Map<string, number>>;

// A model's weights by type and signal name, built once per model: building each `type.signal`
// key for every signal of every candidate cost a fifth of the engine's time.
const byType = new WeakMap<Model, ByType>();

const weightsOf = (model: Model): ByType => {
  let split = byType.get(model);
  if (split === undefined) {
    split = { otp: new Map(), magic_link: new Map() };
    for (const [key, w] of Object.entries(model.weights)) {
      const dot = key.indexOf('.');
      const type = key.slice(0, dot);
      if (type === 'otp' || type === 'magic_link') split[type].set(key.slice(dot + 1), w);
    }
    byType.set(model, split);
  }
  return split;
};

/** A candidate's score under a model: the bias plus every signal times its weight. */
export const scoreWith = (model: Model, type: SecretType, signals: Readonly<Record<string, number>>): number => {
  const weights = weightsOf(model)[type];
  let score = model.bias;
  for (const k in signals) score += (weights.get(k) ?? model.scale) * (signals[k] ?? 0);
  return score;
};

/**
 * Signals that only say which of two secrets a mail leads with: a code in parentheses beside a
 * button, a code the link also carries, a link that carries the code the text shows, a way in
 * offered as the alternative ("Or use this link"). They order
 * candidates, but a second way in is no less a secret: its confidence is read from its score
 * without them (`evidenceScore`).
 */
export const PREFERENCE_SIGNALS: ReadonlySet<string> = new Set(['parenthetical', 'link_carries_code', 'carries_shown_code', 'alternative']);

/** A candidate's score without its preference signals: what its confidence is calibrated from. */
export const evidenceScore = (model: Model, type: SecretType, signals: Readonly<Record<string, number>>): number => {
  let score = scoreWith(model, type, signals);
  const weights = weightsOf(model)[type];
  for (const k in signals) if (PREFERENCE_SIGNALS.has(k)) score -= (weights.get(k) ?? model.scale) * (signals[k] ?? 0);
  return score;
};

/** One term of a candidate's score: a signal (or `bias`) and what it added, in log-odds. */
export interface Contribution {
  readonly signal: string;
  readonly contribution: number;
}

/**
 * Why a candidate scored as it did under a model: the bias and each signal times its weight,
 * largest first by size; they add up to the score behind its confidence. Worked out on request
 * (the CLI's and API's `explain`), not for every message.
 */
export const explain = (candidate: Pick<Candidate, 'type' | 'evidence'>, model: Model): Contribution[] => {
  const weights = weightsOf(model)[candidate.type];
  const terms: Contribution[] = [{ signal: 'bias', contribution: model.bias }];
  for (const [k, v] of Object.entries(candidate.evidence.signals)) terms.push({ signal: k, contribution: Math.round((weights.get(k) ?? model.scale) * v * 1000) / 1000 });
  return terms.sort((a, b) => Math.abs(b.contribution) - Math.abs(a.contribution));
};
