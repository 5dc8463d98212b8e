/** What an {@link EphemailError} is built from: the envelope's fields and the HTTP answer's. */
export interface EphemailErrorInit {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly requestId: string | undefined;
  readonly details: unknown;
  readonly retryable?: boolean;
  readonly retryAfterMs?: number | undefined;
}

/**
 * The API answered with an error envelope (docs/api.md, "Errors"). Branch on `code`; quote
 * `requestId` when reporting a problem.
 */
export class EphemailError extends Error {
  override readonly name: string = 'EphemailError';
  /** The HTTP status, e.g. 404. */
  readonly status: number;
  /** The envelope's stable `error.code`, e.g. `identity_not_found`; `http_<status>` when the answer had no envelope. */
  readonly code: string;
  /** The `req_` id of the request (the envelope's `requestId`, else the `X-Request-Id` header). */
  readonly requestId: string | undefined;
  /** The envelope's `error.details` (validation `issues`, `missing_scopes`, …). */
  readonly details: unknown;
  /** The envelope's `retryable`: repeating the same request later may succeed. */
  readonly retryable: boolean;
  /** What `Retry-After` asked for, in milliseconds, when the answer carried it. */
  readonly retryAfterMs: number | undefined;

  constructor(init: EphemailErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details;
    this.retryable = init.retryable ?? false;
    this.retryAfterMs = init.retryAfterMs;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The codes of an identity that will never receive mail again. */
const GONE = { identity_already_squashed: 'squashed', identity_expired: 'expired' } as const;

/**
 * The identity is squashed or expired (409 `identity_already_squashed` or `identity_expired`):
 * it receives no more mail, so `waitForCode`/`waitForLink` end with this at once instead of
 * waiting out their time. Create a new identity; what the old one received can still be read
 * without waiting (`latestExtraction`, `listMessages`).
 */
export class EphemailIdentityGoneError extends EphemailError {
  override readonly name = 'EphemailIdentityGoneError';
  /** The identity, as the API named it (`undefined` if the answer did not). */
  readonly identityId: string | undefined;
  /** Why it receives no more mail. */
  readonly state: 'squashed' | 'expired';

  constructor(init: EphemailErrorInit & { readonly code: keyof typeof GONE }) {
    super(init);
    const details = isRecord(init.details) ? init.details : {};
    this.identityId = typeof details.identity_id === 'string' ? details.identity_id : undefined;
    this.state = GONE[init.code];
  }
}

const isGone = (init: EphemailErrorInit): init is EphemailErrorInit & { code: keyof typeof GONE } => init.status === 409 && init.code in GONE;

/** `waitForCode`/`waitForLink` ran out of time before an extraction of the wanted type arrived. */
export class EphemailTimeoutError extends Error {
  override readonly name = 'EphemailTimeoutError';
  /** The identity that was waited on. */
  readonly identityId: string;
  /** How long the wait lasted, in milliseconds. */
  readonly waitedMs: number;

  constructor(identityId: string, waitedMs: number, options?: { cause?: unknown }) {
    super(`No extraction of the wanted type arrived for ${identityId} within ${waitedMs} ms.`, options);
    this.identityId = identityId;
    this.waitedMs = waitedMs;
  }
}

/** Milliseconds a `Retry-After` header asks for (seconds or an HTTP date), or `undefined`. */
export const retryAfterMs = (headers: Headers, now: number = Date.now()): number | undefined => {
  const value = headers.get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
};

/** The error an answer outside 2xx stands for, read from its envelope when it has one. */
export const errorFromResponse = (response: Response, body: unknown): EphemailError => {
  const envelope = isRecord(body) && isRecord(body.error) ? body : undefined;
  const error = envelope?.error as Record<string, unknown> | undefined;
  const requestId = typeof envelope?.requestId === 'string' ? envelope.requestId : (response.headers.get('x-request-id') ?? undefined);
  const init: EphemailErrorInit = {
    status: response.status,
    code: typeof error?.code === 'string' ? error.code : `http_${response.status}`,
    message: typeof error?.message === 'string' ? error.message : `HTTP ${response.status} ${response.statusText}`.trim(),
    requestId,
    details: error?.details,
    retryable: envelope?.retryable === true,
    retryAfterMs: retryAfterMs(response.headers),
  };
  return isGone(init) ? new EphemailIdentityGoneError(init) : new EphemailError(init);
};
