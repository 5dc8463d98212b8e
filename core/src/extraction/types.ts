/** A mailbox as it appears in From/To: the address and the decoded display name ('' when absent). */
export interface MailAddress {
  readonly address: string;
  readonly name: string;
}

/** Metadata of one attachment; the content itself is never kept in a ParsedMessage. */
export interface AttachmentMeta {
  readonly filename: string | null;
  readonly contentType: string;
  /** Decoded size in bytes. */
  readonly size: number;
}

/** A hyperlink of the HTML part: the href as written (entities decoded) and its visible text. */
export interface MessageLink {
  readonly href: string;
  /** Visible text of the anchor ('' for an image-only anchor; the image's alt text when it has one). */
  readonly text: string;
  /** True when the anchor shows only an image (a logo, an icon). */
  readonly imageOnly?: boolean;
  /** True when the anchor is styled as a button (background, border radius, button class). */
  readonly button?: boolean;
}

/**
 * A received message after MIME parsing: what the pipeline stores and what extraction reads.
 * Every string is already decoded (transfer encoding, charset, RFC 2047).
 */
export interface ParsedMessage {
  /** SMTP envelope sender (MAIL FROM), when known; '' otherwise. */
  readonly envelopeFrom: string;
  readonly from: MailAddress;
  readonly to: readonly MailAddress[];
  readonly subject: string;
  /** ISO 8601 date of the Date header, or null when absent or unparseable. */
  readonly date: string | null;
  readonly messageId: string | null;
  /** Every header, lowercased name → values in message order. */
  readonly headers: Readonly<Record<string, readonly string[]>>;
  /** The text/plain body ('' when the message has none). */
  readonly text: string;
  /** The text/html body ('' when the message has none). */
  readonly html: string;
  /**
   * Visible text of the HTML part (no markup, no style or script, cells and blocks separated).
   * Derived from `html` when omitted; parsers precompute it so it is stored once.
   */
  readonly htmlText?: string;
  /** Anchors of the HTML part; derived from `html` when omitted. */
  readonly links?: readonly MessageLink[];
  readonly attachments: readonly AttachmentMeta[];
}

/** What a secret is for, when it is a link. */
export type LinkKind = 'sign_in' | 'verify_email' | 'password_reset' | 'invite' | 'other';

/** The two kinds of secret the engine extracts. */
export type SecretType = 'otp' | 'magic_link';

/** Why a candidate was proposed: where it was found and the signals that scored it. */
export interface Evidence {
  /** Parts of the message the value was seen in: `subject`, `text`, `html`. */
  readonly sources: readonly string[];
  /** Up to 120 characters around the first occurrence (contains the raw value). */
  readonly snippet: string;
  /**
   * Named scoring signals as found, in hand-scaled log-odds (`base` is the type's prior). The
   * model weighs each (model.ts); `explainCandidate` gives what each added to the score.
   */
  readonly signals: Readonly<Record<string, number>>;
  /** For a link behind a click-tracking redirector: the destination it forwards to. */
  readonly unwrapped?: string;
  /** For a link: its visible anchor text when it came from HTML. */
  readonly anchorText?: string;
  /** For a code printed with separators ("123 456"): the text as printed. */
  readonly printed?: string;
  /** True when a per-identity rule produced or kept this candidate. */
  readonly rule?: boolean;
}

/** One possible secret with its calibrated probability of being the one the user needs. */
export interface Candidate {
  readonly type: SecretType;
  /** The raw secret: the code as typed, or the link as clicked. */
  readonly value: string;
  readonly link_kind?: LinkKind;
  /**
   * Calibrated probability that this candidate is a secret the reader is asked to use, on its
   * own: not a share of the message's candidates, so a code and a link can both be high.
   */
  readonly confidence: number;
  readonly evidence: Evidence;
}

/** The result of running extraction on one message. */
export interface Extraction {
  /** The best candidate, when there is any: what the API reports as the extraction. */
  readonly top: Candidate | undefined;
  /** Up to five candidates, best first (`top` is the first). */
  readonly candidates: readonly Candidate[];
  /** True when rules were given and the message did not match their sender/subject patterns. */
  readonly ruleMismatch: boolean;
}
