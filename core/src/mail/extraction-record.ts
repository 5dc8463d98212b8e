import type { Candidate, Extraction, LinkKind, SecretType } from '../extraction/types.js';
import { redact, toRedactedCandidate, type RedactedCandidate } from '../extraction/redact.js';
import type { Contribution } from '../extraction/model.js';
import { overlay } from '../store/overlay.js';

/** Below this confidence the engine's best guess is not reported as an extraction. */
export const REPORT_THRESHOLD = 0.5;

/**
 * An extraction as stored: raw values are kept so a `secrets:read` caller can reveal them. It never
 * leaves core as it is: reads answer {@link PublicExtraction} or {@link RevealedExtraction}.
 */
export interface ExtractionRecord {
  readonly id: string;
  readonly identity_id: string;
  readonly org_id: string;
  readonly project_id: string;
  readonly message_id: string;
  readonly source_event_id: string;
  readonly extracted_at: string;
  readonly type: SecretType;
  readonly value: string;
  readonly link_kind: LinkKind | null;
  readonly confidence: number;
  readonly candidates: readonly { readonly type: SecretType; readonly value: string; readonly link_kind: LinkKind | null; readonly confidence: number }[];
}

/**
 * A candidate as the API shows it: redacted, with its signal contributions when `explain=true`
 * asked for them (without a reveal, those of its context only: see context-signals.ts).
 */
export type PublicCandidate = RedactedCandidate & { readonly explain?: readonly Contribution[] };

/**
 * The extraction as every read answers it by default: shape kept, secrets redacted, no internals
 * of the record (its tenant, its store version).
 */
export interface PublicExtraction {
  readonly id: string;
  readonly identity_id: string;
  readonly message_id: string;
  readonly source_event_id: string;
  readonly extracted_at: string;
  readonly type: SecretType;
  readonly has_secret: true;
  readonly redacted_value: string;
  readonly link_kind: LinkKind | null;
  readonly confidence: number;
  /** With `explain=true`, each candidate carries its own signal contributions. */
  readonly candidates: readonly PublicCandidate[];
  /**
   * On reads of `extractions/latest`: whether the secret shown is a runner-up candidate (a read
   * by type) rather than the engine's winner. Absent where records are listed (exports).
   */
  readonly runner_up?: boolean;
  /**
   * With `explain=true`: the signal contributions of the secret shown, largest first (each
   * candidate has its own). Without a reveal, only the signals of its context, which say nothing
   * the redacted value does not; revealed, every term of its score.
   */
  readonly explain?: readonly Contribution[];
}

/** With a reveal (`secrets:read`): the same plus the raw values, and the full explanations. */
export interface RevealedExtraction extends PublicExtraction {
  readonly value: string;
  readonly candidates: readonly (PublicCandidate & { readonly value: string })[];
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** The record to store for an engine result, or `undefined` when nothing is worth reporting. */
export const toExtractionRecord = (
  extraction: Extraction,
  ids: { readonly id: string; readonly messageId: string; readonly sourceEventId: string; readonly at: string },
  identity: { readonly id: string; readonly org_id: string; readonly project_id: string },
): ExtractionRecord | undefined => {
  const top = extraction.top;
  if (top === undefined || top.confidence < REPORT_THRESHOLD) return undefined;
  const slim = (c: Candidate) => ({ type: c.type, value: c.value, link_kind: c.link_kind ?? null, confidence: c.confidence });
  return {
    id: ids.id,
    identity_id: identity.id,
    org_id: identity.org_id,
    project_id: identity.project_id,
    message_id: ids.messageId,
    source_event_id: ids.sourceEventId,
    extracted_at: ids.at,
    ...slim(top),
    candidates: extraction.candidates.map(slim),
  };
};

const asCandidate = (c: ExtractionRecord['candidates'][number]): Candidate => ({
  type: c.type,
  value: c.value,
  ...(c.link_kind === null ? {} : { link_kind: c.link_kind }),
  confidence: c.confidence,
  evidence: { sources: [], snippet: '', signals: {} },
});

/**
 * Why one secret scored as it did: every term of its score (`all`, for a revealed read), and the
 * terms of its context only (`context`, what a redacted read shows: see context-signals.ts).
 */
export interface Reasons {
  readonly all: readonly Contribution[];
  readonly context: readonly Contribution[];
}

/** Why each secret of an extraction scored as it did: the answered one and each candidate, in the record's order. */
export interface ExtractionExplanation {
  readonly answer: Reasons;
  readonly candidates: readonly Reasons[];
}

type Answered = ExtractionRecord & { readonly runner_up?: boolean; readonly explanation?: ExtractionExplanation };

/** Which of a secret's contributions a view shows: all of them, or those of its context only. */
type Shown = keyof Reasons;

const candidatesOf = (record: Answered, shown: Shown): PublicExtraction['candidates'] => {
  const redacted = record.candidates.map((c) => toRedactedCandidate(asCandidate(c)));
  const why = record.explanation?.candidates;
  return why === undefined ? redacted : redacted.map((c, i) => overlay(c, { explain: why[i]?.[shown] ?? [] }));
};

const viewOf = (record: Answered, shown: Shown): PublicExtraction => ({
  id: record.id,
  identity_id: record.identity_id,
  message_id: record.message_id,
  source_event_id: record.source_event_id,
  extracted_at: record.extracted_at,
  type: record.type,
  has_secret: true,
  redacted_value: redact(record),
  link_kind: record.link_kind,
  confidence: round2(record.confidence),
  candidates: candidatesOf(record, shown),
  ...(record.runner_up === undefined ? {} : { runner_up: record.runner_up }),
  ...(record.explanation === undefined ? {} : { explain: record.explanation.answer[shown] }),
});

/**
 * The default, redacted view (the one place records become payloads): no raw value, no tenant or
 * store version, and explanations of context signals only.
 */
export const toPublicExtraction = (record: Answered): PublicExtraction => viewOf(record, 'context');

/** The revealed view, for a read that `decideReveal` allowed: raw values and full explanations. */
export const toRevealedExtraction = (record: Answered): RevealedExtraction => {
  const base = viewOf(record, 'all');
  return overlay(base, {
    value: record.value,
    candidates: record.candidates.map((c, i) => overlay(base.candidates[i]!, { value: c.value })),
  });
};

/** What the `extraction.completed` event carries: never a raw value. */
export const extractionEventData = (record: ExtractionRecord) => ({
  identity_id: record.identity_id,
  extraction_id: record.id,
  message_id: record.message_id,
  extraction: { type: record.type, has_secret: true, redacted_value: redact(record), link_kind: record.link_kind, confidence: round2(record.confidence) },
});
