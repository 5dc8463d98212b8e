/**
 * Maps raw scores (sums of log-odds signals) to probabilities. Candidates of one message compete
 * with each other and with "no secret at all" (weight 1), so a strong runner-up lowers the top
 * candidate's confidence:
 *
 *   confidence_i = exp(A·s_i + B) / (1 + Σ_j exp(A·s_j + B))
 *
 * A and B were fitted by maximum likelihood on the development split of the labelled corpus
 * only (templates of the held-out split were never seen); see docs/extraction.md.
 */
export const CALIBRATION = { A: 1.8, B: 0.35 } as const;

/** Calibrated confidences of a message's candidates, in the order of the given scores. */
export const confidences = (scores: readonly number[], params: { A: number; B: number } = CALIBRATION): number[] => {
  const weights = scores.map((s) => Math.exp(Math.min(50, params.A * s + params.B)));
  const total = 1 + weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => w / total);
};
