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
  readonly type: string;
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
