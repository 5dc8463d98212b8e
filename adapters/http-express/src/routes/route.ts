import type { DomainError, Ephemail, Principal, Scope } from '@ephemail/core';
import type { Either } from 'fp-ts/lib/Either.js';
import type { z } from 'zod';
import type { ResponseSchemaName } from '../openapi-responses.js';

/** What a handler is given: the caller and the request's validated parts. */
export interface RouteContext<B, Q> {
  readonly principal: Principal;
  readonly params: Readonly<Record<string, string>>;
  readonly body: B;
  readonly query: Q;
  /** The client's address: the socket's, or per `trust proxy` the forwarded one. */
  readonly clientIp: string;
  /** A request header, as sent. */
  readonly header: (name: string) => string | undefined;
  /** Fires when the client goes away before the answer is sent: a long-poll stops waiting. */
  readonly signal?: AbortSignal;
  /** On `consumer` routes: the signed-in consumer and the session's id. */
  readonly consumer?: { readonly record: ConsumerAccount; readonly sessionId: string };
}

/** The consumer record as handlers see it. */
export type ConsumerAccount = Parameters<Ephemail['consumer']['identities']['create']>[1];

/**
 * One endpoint of the API. The table of these is the single source for registering routes,
 * checking scopes, validating input, generating OpenAPI and driving the isolation test.
 */
export interface Route<B = unknown, Q = unknown> {
  readonly method: 'get' | 'post' | 'patch' | 'delete';
  /** Express path, e.g. `/v1/identities/:identity_id`. */
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  /** Scopes the credential must all hold. Empty: any valid credential. */
  readonly scopes: readonly Scope[];
  readonly body?: z.ZodType<B>;
  readonly query?: z.ZodType<Q>;
  /** Status of a successful answer. */
  readonly status: number;
  /** A status that depends on the answer (202 while pending), when not always `status`. */
  readonly statusOf?: (body: unknown) => number;
  /**
   * `anonymous`: no credential, no tenant headers, no scopes and no Idempotency-Key (the free
   * tier: its handler authenticates by its own token or grant). `consumer`: a consumer session
   * (cookie or bearer). Default: an agent credential.
   */
  readonly auth?: 'agent' | 'anonymous' | 'consumer';
  /**
   * `optional`: an agent request may send neither tenant header and is answered for the
   * credential's own tenant (`/v1/me`, so a client holding only a key can find its projects).
   */
  readonly tenantHeaders?: 'optional';
  /** Response headers that depend on the answer (the consumer session cookie). */
  readonly headersOf?: (body: unknown) => Readonly<Record<string, string>>;
  /** The component schema of a successful answer in the OpenAPI document, when it has one (`Event`). */
  readonly response?: 'Event' | 'EventPage' | ResponseSchemaName;
  /** When set, a successful answer is sent as bytes of this type (the handler returns a Buffer). */
  readonly contentType?: string;
  readonly handle: (context: RouteContext<B, Q>) => Promise<Either<DomainError, unknown>>;
}

/** Declares a route with its body and query types inferred from the schemas. */
export const route = <B = undefined, Q = undefined>(spec: Route<B, Q>): Route => spec as unknown as Route;

/** Mutations need an Idempotency-Key. */
export const isMutation = (route: Pick<Route, 'method'>): boolean => route.method !== 'get';
