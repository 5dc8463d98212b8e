import { explain, type Contribution } from './model.js';
import { MODEL } from './model-weights.js';
import type { Candidate } from './types.js';

/**
 * Which features decided a candidate `extract` reported: the committed model's bias and each of
 * the candidate's signals times its weight, largest first; they add up to the score that ranked
 * it. Its confidence is the model's calibration of that score without the preference signals
 * (calibration.ts, model.ts). For the CLI's `--explain` and the API's candidates.
 */
export const explainCandidate = (candidate: Pick<Candidate, 'type' | 'evidence'>): Contribution[] => explain(candidate, MODEL);
