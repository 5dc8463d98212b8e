import type { Ephemail } from '@ephemail/core';
import { MAX_BODY_DEPTH, nestsWithin } from '@ephemail/core';
import type { ErrorRequestHandler, NextFunction, Request, Response } from 'express';
import express from 'express';
import type { HTTPMethod } from 'find-my-way';
import FindMyWay from 'find-my-way';
import { METHODS } from 'node:http';
import type { Registry } from 'prom-client';
import { NO_STORE, sendError, sendJson, setHeaders } from './envelope.js';
import { dependencyUnavailable } from './errors.js';
import type { HttpMetrics } from './metrics.js';
import { createHttpMetrics } from './metrics.js';
import { metricsHandler, type MetricsAccess } from './metrics-access.js';
import type { HttpLogger } from './middleware/request-context.js';
import { requestContext, silentLogger } from './middleware/request-context.js';
import { buildOpenApi } from './openapi.js';
import { consumerInboxOperation } from './openapi-consumer.js';
import { handlerFor } from './pipeline.js';
import { authRoutes } from './routes/auth.js';
import { identityRoutes } from './routes/identities.js';
import { mailRoutes } from './routes/mail.js';
import type { Route } from './routes/route.js';
import { webhookRoutes } from './routes/webhooks.js';
import { domainRoutes } from './routes/domains.js';
import { reliabilityRoutes } from './routes/reliability.js';
import { marketplaceRoutes } from './routes/marketplace.js';
import { billingRoutes } from './routes/billing.js';
import { freeRoutes } from './routes/free.js';
import { consumerRoutes } from './routes/consumer.js';
import { consumerInbox } from './consumer-inbox.js';
import { exportRoutes } from './routes/exports.js';
import { EXPORT_DOWNLOAD_PATH, exportDownload, exportDownloadOperation } from './export-download.js';

export interface HttpAppOptions {
  readonly logger?: HttpLogger;
  /** Registry for `/metrics`; the host passes its own to share it with other adapters. */
  readonly registry?: Registry;
  /** Who may read `/metrics` (metrics-access.ts). Default `open`. */
  readonly metricsAccess?: MetricsAccess;
  /** Express `trust proxy` setting (hops or addresses); default: trust no proxy. */
  readonly trustProxy?: boolean | number | string;
  /** Extra readiness checks (a broker, say) beside the store's. */
  readonly readinessChecks?: readonly (() => Promise<void>)[];
  readonly version?: string;
}

/** Every /v1 route of the service, in registration order. */
export const apiRoutes = (app: Ephemail): Route[] => [...authRoutes(app), ...identityRoutes(app), ...mailRoutes(app), ...webhookRoutes(app), ...domainRoutes(app), ...reliabilityRoutes(app), ...marketplaceRoutes(app), ...billingRoutes(app), ...freeRoutes(app), ...consumerRoutes(app), ...exportRoutes(app)];

const bodyErrors: ErrorRequestHandler = (error, req, res, next) => {
  const type = (error as { type?: string }).type;
  if (type === 'entity.parse.failed') return sendError(req, res, { status: 400, code: 'invalid_json', message: 'The body is not valid JSON.' });
  if (type === 'entity.too.large') return sendError(req, res, { status: 413, code: 'payload_too_large', message: 'The body is larger than 1 MiB.' });
  if (type !== undefined) return sendError(req, res, { status: 400, code: 'invalid_request', message: 'The body could not be read.' });
  next(error);
};

/** A GET endpoint outside the route table: health, metrics, the OpenAPI document. */
interface PlainRoute {
  readonly path: string;
  readonly handler: (req: Request, res: Response) => void | Promise<void>;
}

/** The /v1 API as an Express application over the given service. */
export const createHttpApp = (service: Ephemail, options: HttpAppOptions = {}) => {
  const logger = options.logger ?? silentLogger;
  const metrics: HttpMetrics = createHttpMetrics(options.registry);
  const routes = apiRoutes(service);
  const openapi = buildOpenApi(routes, { title: 'ephemail', version: options.version ?? '0.1.0' }, { '/v1/exports/{export_id}/download': exportDownloadOperation, '/v1/consumer/inbox': consumerInboxOperation });
  const app = express();
  app.locals.ephemail = service;
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy ?? false);
  app.set('etag', false);
  const operational: PlainRoute[] = [
    { path: '/livez', handler: (_req, res) => sendJson(res, 200, { status: 'ok' }) },
    {
      path: '/readyz',
      handler: async (req, res) => {
        try {
          await Promise.all([service.ready(), ...(options.readinessChecks ?? []).map((check) => check())]);
          sendJson(res, 200, { status: 'ready' });
        } catch {
          sendError(req, res, dependencyUnavailable);
        }
      },
    },
    { path: '/metrics', handler: metricsHandler(metrics.registry, options.metricsAccess ?? 'open') },
    { path: '/v1/openapi.json', handler: (_req, res) => sendJson(res, 200, openapi) },
    // A stream, not an answer: outside the route table, with the consumer session checked inside.
    { path: '/v1/consumer/inbox', handler: consumerInbox(service) },
    // A file, not an answer, and for whoever holds the signed link: outside the route table too.
    { path: EXPORT_DOWNLOAD_PATH, handler: exportDownload(service) },
  ];
  const begin = requestContext(metrics, logger);
  const dispatch = routeDispatcher(routes, operational);
  // One layer for what every request goes through: Express matches each layer against the path
  // and builds its parameters on every request, so the context and the dispatch share one.
  app.use((req: Request, res: Response, next: NextFunction) => {
    begin(req, res);
    dispatch(req, res, next);
  });
  app.use((req: Request, res: Response) => sendError(req, res, { status: 404, code: 'route_not_found', message: `No route ${req.method} ${req.path}.` }));
  app.use(((error, req, res, _next) => {
    logger.error({ requestId: res.locals.requestId, err: error instanceof Error ? error.message : String(error) }, 'request failed');
    if (res.headersSent) return void res.end();
    sendError(req, res, dependencyUnavailable);
  }) as ErrorRequestHandler);
  return { app, routes, metrics, openapi };
};

const JSON_TYPES = ['application/json', 'application/*+json'];
const parseJson = express.json({ limit: '1mb', type: JSON_TYPES });

const hasBody = (req: Request): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/**
 * Reads the JSON body, when the request has one, then runs `then`. A body that is not JSON is
 * refused rather than silently ignored.
 */
const withBody = (req: Request, res: Response, next: NextFunction, then: () => void): void => {
  if (!hasBody(req)) return then();
  if (!req.is(JSON_TYPES)) {
    sendError(req, res, { status: 415, code: 'unsupported_media_type', message: 'Send the body as application/json.' });
    return;
  }
  parseJson(req, res, (error?: unknown) => {
    if (error !== undefined) return bodyErrors(error, req, res, next);
    // Every later walk over the body (validation, the idempotency fingerprint) may then recurse.
    if (!nestsWithin(req.body, MAX_BODY_DEPTH)) return sendError(req, res, tooDeep(req.body));
    then();
  });
};

/** The refusal of a body nested too deep, naming the top-level field that is (`body.metadata`). */
const tooDeep = (body: unknown) => {
  const field =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? Object.entries(body).find(([, value]) => !nestsWithin(value, MAX_BODY_DEPTH - 1))?.[0]
      : undefined;
  return {
    status: 400,
    code: 'invalid_request',
    message: `The body nests deeper than ${MAX_BODY_DEPTH} levels.`,
    details: { issues: [{ path: field === undefined ? 'body' : `body.${field}`, message: `nested deeper than ${MAX_BODY_DEPTH} levels` }] },
  };
};

type Handler = (req: Request, res: Response, next: NextFunction) => unknown;

interface Target {
  readonly path: string;
  readonly handler: Handler;
  /** Runs without reading a body: 405 answers and the endpoints outside the route table. */
  readonly plain: boolean;
}

/**
 * The 405 message. Resources that end by squashing (identities) have no DELETE; a caller who
 * tries one is told the route that does it.
 */
const refusal = (req: Request, squashable: boolean): string => {
  const path = req.path.replace(/\/+$/, '');
  const instead = squashable && req.method === 'DELETE' ? ` To squash it, use POST ${path}/squash.` : '';
  return `${req.method} is not allowed on ${path}.${instead}`;
};

/** Methods a path answers 405 for: every method Node's parser knows that the path does not serve. */
const otherMethods = (own: readonly string[]): HTTPMethod[] => (METHODS as HTTPMethod[]).filter((method) => !own.includes(method));

/**
 * One middleware dispatches every route through a radix-tree router (find-my-way) instead of one
 * Express layer per route and method, which Express walks matching a regular expression per layer
 * on every request (docs/adr/0013-route-dispatch.md). Matching keeps Express's defaults:
 * case-insensitive paths, an optional trailing slash, decoded parameters. A path's other methods
 * answer 405 with `Allow`; a malformed percent-encoding answers 400; an unknown path falls
 * through to the 404 handler. Every /v1 answer, errors included, carries the no-store headers.
 */
const routeDispatcher = (routes: readonly Route[], operational: readonly PlainRoute[]) => {
  const router = FindMyWay({ caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 2048, onBadUrl: () => undefined });
  const register = (path: string, handlers: readonly { method: HTTPMethod; handler: Handler; plain: boolean }[]) => {
    const methods = handlers.flatMap(({ method }) => (method === 'GET' ? ['GET', 'HEAD'] : [method]));
    // HEAD runs the GET handler; Node sends its headers without the body.
    for (const { method, handler, plain } of handlers) {
      router.on(method === 'GET' ? ['GET', 'HEAD'] : method, path, () => undefined, { path, handler, plain } satisfies Target);
    }
    const allow = methods.join(', ');
    const squashable = routes.some((route) => route.method === 'post' && route.path === `${path}/squash`);
    const refuse: Handler = (req, res) => {
      res.setHeader('Allow', allow);
      sendError(req, res, { status: 405, code: 'method_not_allowed', message: refusal(req, squashable) });
    };
    router.on(otherMethods(methods), path, () => undefined, { path, handler: refuse, plain: true } satisfies Target);
  };
  for (const { path, handler } of operational) register(path, [{ method: 'GET', handler, plain: true }]);
  for (const path of new Set(routes.map((route) => route.path))) {
    const own = routes.filter((route) => route.path === path);
    register(path, own.map((route) => ({ method: route.method.toUpperCase() as HTTPMethod, handler: handlerFor(route), plain: false })));
  }
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.url.slice(0, 3).toLowerCase() === '/v1') setHeaders(res, NO_STORE);
    const found = router.find(req.method as HTTPMethod, req.url);
    if (found === null) return next();
    const target = found.store as Target | null;
    if (target === null) {
      sendError(req, res, { status: 400, code: 'invalid_request', message: 'The path is not correctly percent-encoded.' });
      return;
    }
    res.locals.routeLabel = target.path;
    req.params = found.params as Record<string, string>;
    if (target.plain) return void target.handler(req, res, next);
    withBody(req, res, next, () => void target.handler(req, res, next));
  };
};
