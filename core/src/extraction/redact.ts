import type { Candidate, Extraction, LinkKind, SecretType } from './types.js';

/** The mask that replaces every hidden part of a secret. */
export const MASK = '\u2022\u2022\u2022';

const redactCode = (code: string): string => {
  const chars = [...code];
  // Short codes would be given away by their two ends; show only the mask.
  return chars.length >= 4 ? `${chars[0]}${MASK}${chars[chars.length - 1]}` : MASK;
};

const redactLink = (link: string): string => {
  try {
    const url = new URL(link);
    const shown = `${url.protocol}//${url.host}/${MASK}`;
    // A bare origin is not a secret, but the payload must still never contain the raw value.
    return shown.includes(link) ? MASK : shown;
  } catch {
    return MASK;
  }
};

/**
 * The one place secrets are redacted: codes keep their first and last character (`4•••2`),
 * links keep scheme and host (`https://app.example.com/•••`). Everything that leaves the
 * engine without `reveal` goes through here.
 */
export const redact = (candidate: Pick<Candidate, 'type' | 'value'>): string =>
  candidate.type === 'otp' ? redactCode(candidate.value) : redactLink(candidate.value);

/** A candidate as callers without `secrets:read` see it: no raw value, no evidence. */
export interface RedactedCandidate {
  readonly type: SecretType;
  readonly redacted_value: string;
  readonly link_kind?: LinkKind;
  readonly confidence: number;
}

/** An extraction as stored in events and returned by default: shape kept, secret hidden. */
export interface RedactedExtraction {
  readonly has_secret: boolean;
  readonly type: SecretType | null;
  readonly redacted_value: string | null;
  readonly link_kind: LinkKind | null;
  readonly confidence: number | null;
  readonly candidates: readonly RedactedCandidate[];
}

// Two decimals: a longer confidence could repeat digits of the code it describes.
const round2 = (n: number): number => Math.round(n * 100) / 100;

/** Redacts one candidate for a payload. */
export const toRedactedCandidate = (c: Candidate): RedactedCandidate => ({
  type: c.type,
  redacted_value: redact(c),
  ...(c.link_kind !== undefined ? { link_kind: c.link_kind } : {}),
  confidence: round2(c.confidence),
});

/** The payload form of an extraction: `has_secret` and `redacted_value`, never the raw value. */
export const toRedactedExtraction = (extraction: Extraction): RedactedExtraction => {
  const top = extraction.top;
  return {
    has_secret: top !== undefined,
    type: top?.type ?? null,
    redacted_value: top ? redact(top) : null,
    link_kind: top?.link_kind ?? null,
    confidence: top ? round2(top.confidence) : null,
    candidates: extraction.candidates.map(toRedactedCandidate),
  };
};
