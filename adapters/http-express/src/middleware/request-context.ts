import { sharedRandomPool } from '@ephemail/core';
import type { Request, Response } from 'express';
import type { HttpMetrics } from '../metrics.js';

/** The logging surface the adapter needs; pino's logger satisfies it. */
export interface HttpLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export const silentLogger: HttpLogger = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * Gives each request an id (`X-Request-Id`, also in every error envelope), and on finish records
 * metrics by route pattern and one log line. Logs name the method, route, status and time only:
 * never headers, bodies or query strings, which may hold credentials. Called first for every
 * request by the app's one layer (see app.ts), not a middleware of its own.
 */
export const requestContext =
  (metrics: HttpMetrics, logger: HttpLogger) =>
  (req: Request, res: Response): void => {
    const started = process.hrtime.bigint();
    // 18 bytes of the shared pool (one OpenSSL call per 4 KiB, not per request): 24 URL-safe
    // characters, 144 bits, as the random part of ids.
    const requestId = `req_${sharedRandomPool.bytes(18).toString('base64url')}`;
    res.locals.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = typeof req.route?.path === 'string' ? req.route.path : res.locals.routeLabel ?? 'unmatched';
      metrics.observe(req.method, route, res.statusCode, seconds);
      logger.info(
        { requestId, method: req.method, route, status: res.statusCode, ms: Math.round(seconds * 1e4) / 10 },
        'request',
      );
    });
  };
