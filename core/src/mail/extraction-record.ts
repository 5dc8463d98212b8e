import type { Candidate, Extraction, LinkKind, SecretType } from '../extraction/types.js';
import { redact, toRedactedCandidate, type RedactedCandidate } from '../extraction/redact.js';
import type { Contribution } from '../extraction/model.js';
import { overlay } from '../store/overlay.js';

/** Below this confidence the engine's best guess is not reported as an extraction. */
export const REPORT_THRESHOLD = 0.5;

/** An extraction as stored: raw values are kept so a `secrets:read` caller can reveal them. */
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

/** A candidate as the API shows it: redacted, with its signal contributions when `explain=true` asked for them. */
export type PublicCandidate = RedactedCandidate & { readonly explain?: readonly Contribution[] };

/** The extraction as the API shows it by default: shape kept, secrets redacted. */
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
  /** With `explain=true`: the signal contributions of the secret shown, largest first (each candidate has its own). */
  readonly explain?: readonly Contribution[];
}

/** With `reveal`: the same plus the raw values. */
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

/** Why each secret of an extraction scored as it did: the answered one and each candidate, in the record's order. */
export interface ExtractionExplanation {
  readonly answer: readonly Contribution[];
  readonly candidates: readonly (readonly Contribution[])[];
}

type Answered = ExtractionRecord & { readonly runner_up?: boolean; readonly explanation?: ExtractionExplanation };

const candidatesOf = (record: Answered): PublicExtraction['candidates'] => {
  const redacted = record.candidates.map((c) => toRedactedCandidate(asCandidate(c)));
  const why = record.explanation?.candidates;
  return why === undefined ? redacted : redacted.map((c, i) => overlay(c, { explain: why[i] ?? [] }));
};

/** The default, redacted view (the one place records become payloads). */
export const toPublicExtraction = (record: Answered): PublicExtraction => ({
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
  candidates: candidatesOf(record),
  ...(record.runner_up === undefined ? {} : { runner_up: record.runner_up }),
  ...(record.explanation === undefined ? {} : { explain: record.explanation.answer }),
});

/** The revealed view, for a caller holding `secrets:read`. */
export const toRevealedExtraction = (record: Answered): RevealedExtraction => {
  const base = toPublicExtraction(record);
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
