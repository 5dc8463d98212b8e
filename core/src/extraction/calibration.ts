/**
 * Maps model scores (log-odds, see model.ts) to probabilities. Each candidate's confidence is the
 * probability that it, on its own, is a secret the reader is asked to use: not a share of the
 * message's candidates, so a code and the confirm link beside it can both be sure.
 *
 *   confidence = σ(a · score + b)
 *
 * with one (a, b) for a message's best candidate and one for the others: being ranked first says
 * something beyond the score (a runner-up of the same score is wrong more often), and the two
 * groups spread their scores differently. A runner-up is never reported surer than the candidate
 * ranked above it. Both pairs (a Platt scaling each) are fitted out of fold, on scores the model
 * gave to products it was fitted without (benchmarks/extraction/calibrate.ts), so they say how sure
 * to be on wording the model never saw. ADR 0049.
 */
export interface Platt {
  readonly a: number;
  readonly b: number;
}

export interface Calibration {
  /** For the message's best candidate. */
  readonly best: Platt;
  /** For every other candidate. */
  readonly other: Platt;
}

/** The calibration of a model fitted without one: the score read as log-odds as it is. */
export const IDENTITY_CALIBRATION: Calibration = { best: { a: 1, b: 0 }, other: { a: 1, b: 0 } };

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-Math.max(-50, Math.min(50, x))));

/** The calibrated probability of one score; `best` when it is the message's best candidate. */
export const confidenceOf = (score: number, best: boolean, calibration: Calibration = IDENTITY_CALIBRATION): number => {
  const { a, b } = best ? calibration.best : calibration.other;
  return sigmoid(a * score + b);
};

/** Each score's calibrated probability, for scores best first; none above the one before it. */
export const confidences = (scores: readonly number[], calibration: Calibration = IDENTITY_CALIBRATION): number[] => {
  const out: number[] = [];
  for (let i = 0; i < scores.length; i += 1) {
    const own = confidenceOf(scores[i] ?? 0, i === 0, calibration);
    out.push(i === 0 ? own : Math.min(own, out[i - 1] ?? 1));
  }
  return out;
};
