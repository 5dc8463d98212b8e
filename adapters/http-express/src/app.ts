import type { Ephemail } from '@ephemail/core';
import type { ErrorRequestHandler, Request, Response } from 'express';
import express from 'express';
import type { Registry } from 'prom-client';
import { NO_STORE, sendError } from './envelope.js';
import { dependencyUnavailable } from './errors.js';
import type { HttpMetrics } from './metrics.js';
import { createHttpMetrics } from './metrics.js';
import type { HttpLogger } from './middleware/request-context.js';
import { requestContext, silentLogger } from './middleware/request-context.js';
import { buildOpenApi } from './openapi.js';
import { handlerFor } from './pipeline.js';
import { authRoutes } from './routes/auth.js';
import { identityRoutes } from './routes/identities.js';
import { mailRoutes } from './routes/mail.js';
import type { Route } from './routes/route.js';
import { webhookRoutes } from './routes/webhooks.js';

export interface HttpAppOptions {
  readonly logger?: HttpLogger;
  /** Registry for `/metrics`; the host passes its own to share it with other adapters. */
  readonly registry?: Registry;
  /** Express `trust proxy` setting (hops or addresses); default: trust no proxy. */
  readonly trustProxy?: boolean | number | string;
  /** Extra readiness checks (a broker, say) beside the store's. */
  readonly readinessChecks?: readonly (() => Promise<void>)[];
  readonly version?: string;
}

/** Every /v1 route of the service, in registration order. */
export const apiRoutes = (app: Ephemail): Route[] => [...authRoutes(app), ...identityRoutes(app), ...mailRoutes(app), ...webhookRoutes(app)];

const bodyErrors: ErrorRequestHandler = (error, req, res, next) => {
  const type = (error as { type?: string }).type;
  if (type === 'entity.parse.failed') return sendError(req, res, { status: 400, code: 'invalid_json', message: 'The body is not valid JSON.' });
  if (type === 'entity.too.large') return sendError(req, res, { status: 413, code: 'payload_too_large', message: 'The body is larger than 1 MiB.' });
  if (type !== undefined) return sendError(req, res, { status: 400, code: 'invalid_request', message: 'The body could not be read.' });
  next(error);
};

/** The /v1 API as an Express application over the given service. */
export const createHttpApp = (service: Ephemail, options: HttpAppOptions = {}) => {
  const logger = options.logger ?? silentLogger;
  const metrics: HttpMetrics = createHttpMetrics(options.registry);
  const routes = apiRoutes(service);
  const openapi = buildOpenApi(routes, { title: 'ephemail', version: options.version ?? '0.1.0' });
  const app = express();
  app.locals.ephemail = service;
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy ?? false);
  app.set('etag', false);
  app.use(requestContext(metrics, logger));
  app.get('/livez', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', async (req, res) => {
    try {
      await Promise.all([service.ready(), ...(options.readinessChecks ?? []).map((check) => check())]);
      res.json({ status: 'ready' });
    } catch {
      sendError(req, res, dependencyUnavailable);
    }
  });
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.send(await metrics.registry.metrics());
  });
  app.use('/v1', (_req, res, next) => {
    res.set(NO_STORE);
    next();
  });
  app.get('/v1/openapi.json', (_req, res) => void res.json(openapi));
  app.use('/v1', requireJsonBody, express.json({ limit: '1mb', type: JSON_TYPES }), bodyErrors);
  mountRoutes(app, routes);
  app.use((req: Request, res: Response) => sendError(req, res, { status: 404, code: 'route_not_found', message: `No route ${req.method} ${req.path}.` }));
  app.use(((error, req, res, _next) => {
    logger.error({ requestId: res.locals.requestId, err: error instanceof Error ? error.message : String(error) }, 'request failed');
    if (res.headersSent) return void res.end();
    sendError(req, res, dependencyUnavailable);
  }) as ErrorRequestHandler);
  return { app, routes, metrics, openapi };
};

const JSON_TYPES = ['application/json', 'application/*+json'];

/** A body that is not JSON is refused rather than silently ignored. */
const requireJsonBody = (req: Request, res: Response, next: express.NextFunction): void => {
  const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
  if (!hasBody || req.is(JSON_TYPES)) return next();
  sendError(req, res, { status: 415, code: 'unsupported_media_type', message: 'Send the body as application/json.' });
};

/**
 * Registers each path's methods followed at once by its 405 handler (with `Allow`), so a static
 * path such as `/v1/identities/bulk` answers 405 for a wrong method before a later
 * parameterised path (`/v1/identities/:identity_id`) could claim it.
 */
const mountRoutes = (app: express.Express, routes: readonly Route[]): void => {
  const paths = [...new Set(routes.map((route) => route.path))];
  for (const path of paths) {
    const own = routes.filter((route) => route.path === path);
    for (const route of own) app[route.method](path, handlerFor(route));
    const allow = own.flatMap((route) => (route.method === 'get' ? ['GET', 'HEAD'] : [route.method.toUpperCase()]));
    app.all(path, (req, res) => {
      res.setHeader('Allow', allow.join(', '));
      res.locals.routeLabel = path;
      sendError(req, res, { status: 405, code: 'method_not_allowed', message: `${req.method} is not allowed on ${req.path}.` });
    });
  }
};
