import type { CoreDeps } from '../deps.js';
import type { IdentityRecord } from '../domain/identity.js';
import { contextContributions } from '../extraction/context-signals.js';
import { explainCandidate } from '../extraction/explain-candidate.js';
import type { Contribution } from '../extraction/model.js';
import type { Candidate, SecretType } from '../extraction/types.js';
import { C } from '../store/collections.js';
import type { ExtractionExplanation, ExtractionRecord, Reasons } from './extraction-record.js';
import type { MessageRecord } from './message-record.js';
import { extractStored } from './message-secrets.js';

// Two decimals, as confidences: a longer number could repeat digits of the code it describes.
const round2 = (n: number): number => Math.round(n * 100) / 100;
// Signal names are the engine's own identifiers; a name of another shape is left out, so nothing
// read from the mail can reach a payload through one.
const SIGNAL_NAME = /^[a-z_]+$/;

const NO_REASONS: Reasons = { all: [], context: [] };

/** A candidate's contributions: every term, and those of its context only (context-signals.ts). */
const reasonsOf = (found: Candidate | undefined): Reasons => {
  if (found === undefined) return NO_REASONS;
  const all: Contribution[] = explainCandidate(found)
    .filter((c) => SIGNAL_NAME.test(c.signal))
    .map((c) => ({ signal: c.signal, contribution: round2(c.contribution) }));
  return { all, context: contextContributions(found, all) };
};

/** The engine's answer for a stored message, run as at delivery: the identity's rules, the same bounds. */
const rerun = async (deps: CoreDeps, identity: IdentityRecord, messageId: string): Promise<readonly Candidate[]> => {
  const message = (await deps.store.get(C.messages, messageId)) as MessageRecord | undefined;
  if (message === undefined) return [];
  return (await extractStored(deps, message, identity.extraction_rules)).candidates;
};

/**
 * The signal contributions behind an extraction, worked out on request: the stored record keeps
 * no features (keeping them would cost every delivery), so the engine runs again on the stored
 * message with the identity's rules, and each stored secret takes the contributions of the
 * candidate of the same type and value. A secret today's engine no longer proposes (it changed
 * since the mail came) gets an empty list rather than another candidate's reasons.
 */
export const explainExtraction = async (
  deps: CoreDeps,
  identity: IdentityRecord,
  record: ExtractionRecord,
): Promise<ExtractionExplanation> => {
  const found = await rerun(deps, identity, record.message_id);
  const of = (type: SecretType, value: string) => reasonsOf(found.find((c) => c.type === type && c.value === value));
  return { answer: of(record.type, record.value), candidates: record.candidates.map((c) => of(c.type, c.value)) };
};
