/**
 * Maps model scores (log-odds, see model.ts) to probabilities. Candidates of one message compete
 * with each other and with "no secret at all" (weight 1), so a strong runner-up lowers the top
 * candidate's confidence:
 *
 *   confidence_i = exp(s_i) / (1 + Σ_j exp(s_j))
 *
 * The scale and offset that used to be fitted here (a Platt-style A·s + B) are now the model's
 * weights and bias, fitted together with them (benchmarks/extraction/train.ts).
 */
export const confidences = (scores: readonly number[]): number[] => {
  const weights = scores.map((s) => Math.exp(Math.min(50, s)));
  const total = 1 + weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => w / total);
};
