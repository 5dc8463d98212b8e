// The shapes of the /v1 answers the console reads (docs/api.md), only the fields it uses.

export interface Page<T> {
  readonly items: readonly T[];
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
}

export interface Identity {
  readonly id: string;
  readonly email: string;
  readonly label: string;
  readonly status: string;
  readonly created_at: string;
  readonly expires_at: string;
  readonly parent_id: string | null;
}

export interface MessageSummary {
  readonly id: string;
  readonly from: { readonly address: string; readonly name: string };
  readonly subject: string;
  readonly received_at: string;
  readonly attachments: number;
  readonly extraction_id: string | null;
}

export interface Verdict {
  readonly result: string;
  readonly domain?: string | null;
  readonly policy?: string | null;
}

export interface Message extends Omit<MessageSummary, 'attachments'> {
  readonly to: readonly { readonly address: string; readonly name: string }[];
  readonly headers: Readonly<Record<string, readonly string[]>>;
  readonly text: string;
  readonly html: string;
  /** True when the HTML held a secret that could not be masked in place: `html` is then empty. */
  readonly html_withheld?: boolean;
  readonly truncated: boolean;
  readonly attachments: readonly Attachment[];
  readonly authentication: { readonly checked: boolean; readonly spf: Verdict | null; readonly dkim: Verdict | null; readonly dmarc: Verdict | null };
}

export interface Attachment {
  readonly filename: string | null;
  readonly contentType: string;
  readonly size: number;
}

/** One term of a candidate's score (`explain=true`): a signal and what it added, in log-odds. */
export interface Contribution {
  readonly signal: string;
  readonly contribution: number;
}

export interface Candidate {
  readonly type: string;
  readonly redacted_value: string;
  readonly confidence: number;
  readonly link_kind?: string | null;
  /** Only in an answer to `reveal=true`. */
  readonly value?: string;
  /** Only in an answer to `explain=true`: largest first. */
  readonly explain?: readonly Contribution[];
}

export interface Extraction extends Candidate {
  readonly id: string;
  readonly message_id: string;
  readonly extracted_at: string;
  readonly has_secret: boolean;
  readonly candidates: readonly Candidate[];
}

export interface IdentityEvent {
  readonly id: string;
  readonly type: string;
  readonly occurred_at: string;
  readonly data: Readonly<Record<string, unknown>>;
}
