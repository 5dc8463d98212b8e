// Calls to the host's own /v1 API. Same origin only: the page never talks to anyone else.

export interface ApiAnswer<T> {
  readonly status: number;
  readonly ok: boolean;
  readonly body: T;
  /** The error envelope's code, when the answer is an error. */
  readonly code: string | undefined;
  readonly message: string | undefined;
  /** Seconds from `Retry-After`, when the host sent one. */
  readonly retryAfter: number | undefined;
}

interface ErrorEnvelope {
  readonly error?: { readonly code?: string; readonly message?: string };
}

/**
 * Sends one request. Mutations carry `X-Requested-With`, which the host requires of every
 * cookie-authenticated mutation (its CSRF rule); it is harmless elsewhere.
 */
export const call = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiAnswer<T>> => {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method === 'POST') {
    headers['content-type'] = 'application/json';
    headers['x-requested-with'] = 'fetch';
  }
  const res = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
  });
  const parsed: unknown = res.status === 204 ? {} : await res.json().catch(() => ({}));
  const envelope = (parsed ?? {}) as ErrorEnvelope;
  const retry = Number(res.headers.get('retry-after'));
  return {
    status: res.status,
    ok: res.ok,
    body: parsed as T,
    code: res.ok ? undefined : envelope.error?.code,
    message: res.ok ? undefined : envelope.error?.message,
    retryAfter: Number.isFinite(retry) && retry > 0 ? retry : undefined,
  };
};

export interface ConsumerIdentity {
  readonly id: string;
  readonly email: string;
  readonly label: string;
  readonly status: string;
  readonly created_at: string;
  readonly expires_at: string;
}

export interface Page<T> {
  readonly items: readonly T[];
  readonly total: number;
}

export interface Notification {
  readonly id: string;
  /** The event that caused it (`extraction.completed`); older hosts put the kind of secret here. */
  readonly type: string;
  /** The kind of secret (`otp`, `magic_link`), on hosts that send it. */
  readonly secret_type?: string;
  readonly title: string;
  readonly body: string;
  readonly read: boolean;
  readonly created_at: string;
  readonly identity_id: string;
}

export interface FreeIdentity {
  readonly id: string;
  readonly email: string;
  readonly token: string;
  readonly expires_at: string;
}

export type FreeExtraction =
  | { readonly status: 'pending'; readonly retryAfterSeconds: number }
  | { readonly status: 'ready'; readonly type: string; readonly redacted_value: string; readonly confidence: number };

/** GET /v1/consumer/session: always 200, so a signed-out visitor costs no failed request. */
export interface SessionState {
  readonly signed_in: boolean;
  readonly email?: string;
  readonly plan?: string;
}

/** The latest extraction of an identity, raw (GET /v1/consumer/identities/{id}/secret). */
export interface RevealedSecret {
  readonly id: string;
  readonly message_id: string;
  readonly type: 'otp' | 'magic_link';
  readonly value: string;
  readonly redacted_value: string;
  readonly extracted_at: string;
}

export interface MailAddress {
  readonly address: string;
  readonly name: string;
}

export interface MessageSummary {
  readonly id: string;
  readonly identity_id: string;
  readonly from: MailAddress;
  readonly to: readonly MailAddress[];
  readonly subject: string;
  readonly received_at: string;
}

export interface MessageView extends MessageSummary {
  readonly text: string;
  readonly html: string;
  /** True when the HTML held a secret that could not be masked in place: `html` is then empty. */
  readonly html_withheld?: boolean;
  readonly truncated: boolean;
}

export type SecretKind = 'otp' | 'magic_link';

/** The kind of secret a notification is about: `secret_type`, else what older hosts put in `type`. */
export const secretKindOf = (n: Pick<Notification, 'type' | 'secret_type'>): SecretKind | undefined => {
  const kind = n.secret_type ?? n.type;
  if (kind === 'otp' || kind === 'code_received') return 'otp';
  if (kind === 'magic_link' || kind === 'link_received') return 'magic_link';
  return undefined;
};
