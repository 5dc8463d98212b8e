import type { SecretType } from '../extraction/types.js';
import type { ExtractionExplanation } from './extraction-record.js';
import type { ExtractionRecord } from './extraction-record.js';
import { REPORT_THRESHOLD } from './extraction-record.js';
import { overlay } from '../store/overlay.js';

/**
 * An extraction as a read finds it, before it is shown (`toPublicExtraction`, or
 * `toRevealedExtraction` for a reveal): the stored record with its top-level secret (`type`,
 * `value`, `link_kind`, `confidence`) being the one answered. `runner_up` is true when that
 * secret is a runner-up candidate rather than the engine's winner (a read by type of a message
 * whose winner is of the other type); `candidates` stay as the engine ranked them.
 */
export type ExtractionAnswer = ExtractionRecord & { readonly runner_up: boolean; readonly explanation?: ExtractionExplanation };

/** The record answered as it stands: its winner. */
export const asWinner = (record: ExtractionRecord): ExtractionAnswer => overlay(record, { runner_up: false });

/**
 * The candidate of `type` a read by type answers: the winner when it is of that type, else the
 * best-ranked runner-up of that type whose confidence reaches the bar every reported extraction
 * meets (a confidence is the calibrated probability that the candidate is a secret the reader
 * is asked to use, so a runner-up below the bar is more likely not one). Called when the winner
 * is of the other type, so whatever it finds is a runner-up.
 */
const candidateOfType = (record: ExtractionRecord, type: SecretType): ExtractionRecord['candidates'][number] | undefined =>
  record.candidates.find((c) => c.type === type && c.confidence >= REPORT_THRESHOLD);

/** The extraction answered for a read by `type`, or `undefined` when it holds no secret of that type. */
export const answerOfType = (record: ExtractionRecord, type: SecretType): ExtractionAnswer | undefined => {
  if (record.type === type) return asWinner(record);
  const chosen = candidateOfType(record, type);
  if (chosen === undefined) return undefined;
  return overlay(record, { type: chosen.type, value: chosen.value, link_kind: chosen.link_kind, confidence: chosen.confidence, runner_up: true });
};

/** The types a read by type finds in this extraction: what the identity's pointers record. */
export const typesServed = (record: ExtractionRecord): SecretType[] =>
  (['otp', 'magic_link'] as const).filter((type) => answerOfType(record, type) !== undefined);
