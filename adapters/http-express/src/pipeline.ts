import type { Ephemail, Principal } from '@ephemail/core';
import { forbidden, missingScopes, SESSION_COOKIE } from '@ephemail/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import * as E from 'fp-ts/lib/Either.js';
import type { Answer } from './envelope.js';
import { errorAnswer, send, sendError } from './envelope.js';
import type { HttpError } from './errors.js';
import { toHttpError } from './errors.js';
import { BYTES, claimIdempotency, readIdempotencyKey } from './middleware/idempotency.js';
import type { Route, RouteContext } from './routes/route.js';
import { isMutation } from './routes/route.js';
import { invalidMessage, parseWith } from './validation.js';
import { z } from 'zod';

const NO_QUERY = z.strictObject({});

const ephemailOf = (req: Request): Ephemail => req.app.locals.ephemail as Ephemail;

/** The plan's API calls of the month are used up: 429 until the month (UTC) ends. */
const apiCallsExceeded = (limit: number): HttpError => {
  const now = new Date();
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return {
    status: 429,
    code: 'quota_exceeded',
    message: `The plan allows ${limit} API calls a month; they are used up until the month ends (UTC).`,
    retryable: true,
    headers: { 'Retry-After': String(Math.ceil((next - now.getTime()) / 1000)) },
    details: { resource: 'api_calls', limit },
  };
};

const authenticate = async (req: Request, route: Route): Promise<E.Either<HttpError, Principal>> =>
  E.mapLeft(toHttpError)(
    await ephemailOf(req).auth.authenticate({
      authorization: req.get('Authorization'),
      orgId: req.get('X-Org-Id'),
      projectId: req.get('X-Project-Id'),
      tenant: route.tenantHeaders ?? 'required',
    }),
  );

/** An answer as the idempotency record keeps it: bytes (a PDF) as base64 with their type, so a replay sends the same bytes. */
const storable = (route: Route, body: unknown): unknown =>
  route.contentType !== undefined && Buffer.isBuffer(body) ? { [BYTES]: body.toString('base64'), contentType: route.contentType } : body;

/** Validates query and body in one pass so every issue is reported together. */
const validate = (route: Route, req: Request): E.Either<HttpError, { body: unknown; query: unknown }> => {
  const body = route.body ? parseWith(route.body, req.body ?? {}, 'body') : E.right(undefined);
  // Routes without query parameters still refuse unknown ones, so typos surface.
  const query = parseWith(route.query ?? NO_QUERY, { ...req.query }, 'query');
  if (E.isRight(body) && E.isRight(query)) return E.right({ body: body.right, query: query.right });
  const issues = [body, query].flatMap((part) => (E.isLeft(part) && part.left._tag === 'InvalidRequest' ? part.left.issues : []));
  return E.left(toHttpError({ _tag: 'InvalidRequest', message: invalidMessage(issues), issues }));
};

/**
 * A signal that fires when the connection closes before the answer was sent (the client hung up
 * or the server closed it), so a long-poll frees its waiter and timer then, not at its deadline.
 */
const closedSignal = (res: Response): AbortSignal => {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('the client closed the request'));
  });
  return controller.signal;
};

/**
 * What a handler may know of the client beyond its credential. The address and the close signal
 * are worked out when a handler reads them (few do): resolving the address through the proxy
 * settings and listening for the close cost more than most routes' own work. Getters of a class
 * rather than properties defined per request, which would turn every input into a slow object.
 */
class ClientView {
  readonly #req: Request;
  #clientIp: string | undefined;
  #signal: AbortSignal | undefined;
  /** A request header, as sent (an own property, so a handler may take it out of its input). */
  readonly header: (name: string) => string | undefined;
  constructor(req: Request) {
    this.#req = req;
    this.header = (name) => req.get(name);
  }
  get clientIp(): string {
    return (this.#clientIp ??= this.#req.ip ?? this.#req.socket.remoteAddress ?? '');
  }
  get signal(): AbortSignal {
    return (this.#signal ??= closedSignal(this.#req.res!));
  }
}

/** A handler's input: its own fields, with the client's on the side (see {@link ClientView}). */
const withClient = <T extends object>(req: Request, input: T): T & Pick<RouteContext<unknown, unknown>, 'clientIp' | 'header' | 'signal'> =>
  Object.assign(new ClientView(req), input);

/** No one: the principal an anonymous route's handler is given, which it must not use. */
const NOBODY: Principal = { orgId: '', projectId: '', scopes: [], credential: { kind: 'api_key', id: '', keyId: '' } };

/**
 * The chain of an anonymous route (the free tier): validation → use case → answer. No credential,
 * tenant headers, scopes, API-call count or Idempotency-Key: the use case checks its own token
 * or grant and its own limits.
 */
const anonymousHandler =
  (route: Route): RequestHandler =>
  async (req: Request, res: Response, next: NextFunction) => {
    try {
      const input = validate(route, req);
      if (E.isLeft(input)) return sendError(req, res, input.left);
      const outcome = await route.handle(withClient(req, { principal: NOBODY, params: req.params as Record<string, string>, ...input.right }));
      send(res, E.isRight(outcome) ? success(route, outcome.right) : errorAnswer(req, res, toHttpError(outcome.left)));
    } catch (error) {
      next(error);
    }
  };

const success = (route: Route, body: unknown): Answer => ({
  status: route.statusOf?.(body) ?? route.status,
  body,
  ...(route.headersOf === undefined ? {} : { headers: route.headersOf(body) }),
});

/** The consumer session a request presents, from its headers: `Authorization: Bearer cst_…`, else the cookie. */
export const sessionFromHeaders = (header: (name: string) => string | undefined): { token: string | undefined; fromCookie: boolean } => {
  const bearer = /^Bearer (cst_\S+)$/.exec(header('Authorization') ?? '')?.[1];
  if (bearer !== undefined) return { token: bearer, fromCookie: false };
  const cookie = (header('Cookie') ?? '').split(';').map((part) => part.trim()).find((part) => part.startsWith(`${SESSION_COOKIE}=`));
  return { token: cookie?.slice(SESSION_COOKIE.length + 1), fromCookie: cookie !== undefined };
};

/** The consumer session a request presents. */
export const sessionOf = (req: Request): { token: string | undefined; fromCookie: boolean } => sessionFromHeaders((name) => req.get(name));

/**
 * The chain of a consumer route: session (bearer or cookie) → CSRF check → validation →
 * optional idempotency → use case. A mutation authenticated by the cookie must carry
 * `X-Requested-With` (any value): a form of another site cannot set a header, and a script of
 * another site cannot send one without a CORS preflight, which this API never grants.
 */
const consumerHandler =
  (route: Route): RequestHandler =>
  async (req: Request, res: Response, next: NextFunction) => {
    try {
      const fail = (error: HttpError) => sendError(req, res, error);
      const presented = sessionOf(req);
      const session = await ephemailOf(req).consumer.authenticate(presented.token);
      if (E.isLeft(session)) return fail(toHttpError(session.left));
      if (presented.fromCookie && isMutation(route) && req.get('X-Requested-With') === undefined) {
        return fail({ status: 403, code: 'forbidden', message: 'A request authenticated by the session cookie must send X-Requested-With.' });
      }
      const input = validate(route, req);
      if (E.isLeft(input)) return fail(input.left);
      const key = isMutation(route) ? req.get('Idempotency-Key') : undefined;
      const claim = key ? await claimIdempotency(ephemailOf(req), session.right.principal, req, res, key, fail) : undefined;
      if (claim?.kind === 'answered') return;
      const consumer = { record: session.right.consumer, sessionId: session.right.sessionId };
      const outcome = await route.handle(withClient(req, { principal: session.right.principal, params: req.params as Record<string, string>, ...input.right, consumer }));
      const answer = E.isRight(outcome) ? success(route, outcome.right) : errorAnswer(req, res, toHttpError(outcome.left));
      if (claim?.kind === 'proceed') await claim.finish(answer.status, answer.body);
      send(res, answer);
    } catch (error) {
      next(error);
    }
  };

/**
 * The handler chain of one route: authenticate → scope check → Idempotency-Key presence →
 * validation → idempotency claim → use case → answer. A mutation's answer is stored before it
 * is sent, so a replay racing the first response already finds it.
 */
export const handlerFor = (route: Route): RequestHandler =>
  route.auth === 'anonymous' ? anonymousHandler(route) : route.auth === 'consumer' ? consumerHandler(route) : agentHandler(route);

const agentHandler =
  (route: Route): RequestHandler =>
  async (req: Request, res: Response, next: NextFunction) => {
    try {
      const fail = (error: HttpError) => sendError(req, res, error);
      const principal = await authenticate(req, route);
      if (E.isLeft(principal)) return fail(principal.left);
      const missing = missingScopes(principal.right.scopes, route.scopes);
      if (missing.length > 0) return fail(toHttpError(forbidden(missing)));
      const admission = ephemailOf(req).billing.apiCalls.admit(principal.right.orgId);
      const calls = admission instanceof Promise ? await admission : admission;
      if (!calls.admitted) return fail(apiCallsExceeded(calls.limit));
      const key = isMutation(route) ? readIdempotencyKey(req) : undefined;
      if (key !== undefined && 'error' in key) return fail(key.error);
      const input = validate(route, req);
      if (E.isLeft(input)) return fail(input.left);
      const claim = key && (await claimIdempotency(ephemailOf(req), principal.right, req, res, key.key, fail));
      if (claim?.kind === 'answered') return;
      let answer: Answer;
      try {
        const outcome = await route.handle(withClient(req, { principal: principal.right, params: req.params as Record<string, string>, ...input.right }));
        answer = E.isRight(outcome) ? { status: route.statusOf?.(outcome.right) ?? route.status, body: outcome.right } : errorAnswer(req, res, toHttpError(outcome.left));
      } catch (error) {
        if (claim?.kind === 'proceed') await claim.finish(500, null);
        throw error;
      }
      if (claim?.kind === 'proceed') await claim.finish(answer.status, storable(route, answer.body));
      if (route.contentType !== undefined && Buffer.isBuffer(answer.body)) {
        res.status(answer.status).type(route.contentType).send(answer.body);
        return;
      }
      send(res, answer);
    } catch (error) {
      next(error);
    }
  };
