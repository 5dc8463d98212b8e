import { hashSecret, secretMatches } from '@ephemail/core';
import type { Request, Response } from 'express';
import type { Registry } from 'prom-client';
import { sendError } from './envelope.js';

/**
 * Who may read `/metrics`: anyone (`open`, development on loopback), a scraper presenting
 * `Authorization: Bearer <token>` (`{ bearerToken }`), or no one (`off`: it answers like an
 * unknown route, so a production host without a token shows nothing and says nothing).
 */
export type MetricsAccess = 'open' | 'off' | { readonly bearerToken: string };

/** The `/metrics` handler under `access`; the token is compared by its hash, in constant time. */
export const metricsHandler = (registry: Registry, access: MetricsAccess) => {
  const tokenHash = typeof access === 'object' ? hashSecret(access.bearerToken) : undefined;
  return async (req: Request, res: Response): Promise<void> => {
    if (access === 'off') return sendError(req, res, { status: 404, code: 'route_not_found', message: `No route ${req.method} ${req.path}.` });
    if (tokenHash !== undefined) {
      const presented = /^Bearer (.+)$/.exec(req.get('Authorization') ?? '')?.[1] ?? '';
      if (!secretMatches(presented, tokenHash)) {
        return sendError(req, res, {
          status: 401,
          code: 'unauthorized',
          message: '/metrics needs Authorization: Bearer <METRICS_TOKEN>.',
          headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
        });
      }
    }
    res.setHeader('Content-Type', registry.contentType);
    // Counts of this host's traffic: never for a shared cache.
    res.setHeader('Cache-Control', 'no-store');
    res.end(await registry.metrics());
  };
};
