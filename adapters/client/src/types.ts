import type { Client } from 'openapi-fetch';
import type { components, paths } from './generated/openapi.js';

/** An identity (disposable inbox) as the API shows it. */
export type Identity = components['schemas']['Identity'];
/** A code or magic link the service found in a message; `value` only when revealed. */
export type Extraction = components['schemas']['Extraction'];
/** One message in full: headers, text, HTML, attachment metadata, authentication results. */
export type Message = components['schemas']['Message'];
/** A message as lists show it (`attachments` is a count there). */
export type MessageSummary = components['schemas']['MessageSummary'];
/** The error envelope every failed request answers. */
export type ErrorEnvelope = components['schemas']['Error'];

type JsonBody<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** What `POST /v1/identities` takes. */
export type CreateIdentityBody = JsonBody<paths['/v1/identities']['post']>;
/** What `POST /v1/identities/{identity_id}/extend` takes. */
export type ExtendIdentityBody = JsonBody<paths['/v1/identities/{identity_id}/extend']['post']>;
/** An identity's lifecycle status. */
export type IdentityStatus = Identity['status'];

/** A page of a list: the API's `items` as `data`, with the counts it answered. */
export interface Page<T> {
  /** This page's items (the API's `items`). */
  readonly data: T[];
  /** How many items match, across every page. */
  readonly total: number;
  /** The page size used. */
  readonly limit: number;
  /** How many items were skipped. */
  readonly offset: number;
}

/** Settings of {@link createEphemailClient}. */
export interface EphemailClientOptions {
  /** The API's base address without `/v1`, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** An API key (`aid_…`) or access token (`eat_…`), sent as `Authorization: Bearer`. */
  apiKey: string;
  /** Sent as `X-Org-Id`. */
  orgId: string;
  /** Sent as `X-Project-Id`. */
  projectId: string;
  /** The fetch to call; default the global one. */
  fetch?: typeof fetch;
  /** How many times a request is repeated after a 429, 503 or network error (default 3), waiting as `Retry-After` says. */
  retries?: number;
}

/** Options every call takes. */
export interface CallOptions {
  /** Aborts the call (and its retries); the call rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Options of `waitForCode` and `waitForLink`. */
export interface WaitOptions extends CallOptions {
  /** The whole wait, in milliseconds, reconnections included; default 60 000. */
  timeoutMs?: number;
  /** An extraction id already seen: only a newer extraction answers. */
  after?: string;
  /** Ask for the raw value (needs the key's `secrets:read`); default true. */
  reveal?: boolean;
}

/** What `waitForCode` resolves to. */
export interface WaitedCode {
  /** The raw code; `undefined` when not revealed. */
  code: string | undefined;
  /** The masked code, e.g. `4•••3`. */
  redacted: string;
  extraction: Extraction;
}

/** What `waitForLink` resolves to. */
export interface WaitedLink {
  /** The raw link; `undefined` when not revealed. */
  link: string | undefined;
  /** The masked link, e.g. `https://app.example.com/•••`. */
  redacted: string;
  extraction: Extraction;
}

/** The typed client of the ephemail /v1 API. Every method rejects with `EphemailError` when the API answers an error. */
export interface EphemailClient {
  /** The raw openapi-fetch client, with the credential, tenant headers, idempotency keys and retries applied. */
  readonly api: Client<paths>;
  /** Creates an identity; `label` defaults to `ephemail client`. An `Idempotency-Key` is made unless given. */
  createIdentity(
    body?: Partial<CreateIdentityBody>,
    options?: CallOptions & { idempotencyKey?: string },
  ): Promise<Identity>;
  /** One identity, whatever its status. */
  getIdentity(id: string, options?: CallOptions): Promise<Identity>;
  /** The project's identities, newest first. */
  listIdentities(query?: { status?: IdentityStatus; label?: string; limit?: number; offset?: number }, options?: CallOptions): Promise<Page<Identity>>;
  /** Adds `additional_hours` to a live identity's expiry. */
  extendIdentity(id: string, body: ExtendIdentityBody, options?: CallOptions): Promise<Identity>;
  /** Squashes an identity (irreversible); it refuses mail from then on. */
  squashIdentity(id: string, options?: CallOptions): Promise<Identity>;
  /** The identity's messages, newest first; `reveal` (needs `secrets:read`) shows subjects unmasked. */
  listMessages(identityId: string, query?: { limit?: number; offset?: number; reveal?: boolean }, options?: CallOptions): Promise<Page<MessageSummary>>;
  /** One message; secrets are masked unless `reveal` (needs `secrets:read`). */
  getMessage(identityId: string, messageId: string, options?: CallOptions & { reveal?: boolean }): Promise<Message>;
  /**
   * The latest extraction now (with `type`, the latest holding a secret of that type), or
   * `undefined` when there is none yet (404 `extraction_not_found`). Answers what a squashed or
   * expired identity received, too.
   */
  latestExtraction(identityId: string, options?: CallOptions & { reveal?: boolean; type?: Extraction['type'] }): Promise<Extraction | undefined>;
  /**
   * Waits for a one-time code (the latest, or newer than `after`), a sure runner-up code of a mail
   * whose link ranked first included; rejects with `EphemailTimeoutError` after `timeoutMs`, and
   * at once with `EphemailIdentityGoneError` when the identity is (or becomes) squashed or expired.
   */
  waitForCode(identityId: string, options?: WaitOptions): Promise<WaitedCode>;
  /** As {@link waitForCode}, for a magic link (a sure runner-up link of a mail whose code ranked first included). */
  waitForLink(identityId: string, options?: WaitOptions): Promise<WaitedLink>;
}
