import type { DomainError, Ephemail } from '@ephemail/core';
import type { Either } from 'fp-ts/lib/Either.js';
import { hashSecret } from '@ephemail/core';
import express, { type Request, type Response } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { sendError, sendJson } from './envelope.js';
import { toHttpError } from './errors.js';
import { sharedRandomPool } from '@ephemail/core';

export interface InternalAppOptions {
  /** SHA-256 (hex) of the service credential backends present as `Authorization: Bearer …`. */
  readonly serviceTokenHash: string;
}

const RedeemCheckout = z.strictObject({ checkout_redirect_token: z.string().min(1).max(200), request_id: z.string().min(1).max(200) });
const RedeemPortal = z.strictObject({ portal_redirect_token: z.string().min(1).max(200), request_id: z.string().min(1).max(200) });

const bearerMatches = (req: Request, expectedHash: string): boolean => {
  const presented = /^Bearer (.+)$/.exec(req.get('Authorization') ?? '')?.[1] ?? '';
  const a = Buffer.from(hashSecret(presented), 'hex');
  const b = Buffer.from(expectedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The routes only the service's own backends call, for the internal listener (which the host
 * serves over mutual TLS): redemption of checkout and portal redirect tokens. Each request also
 * needs the service credential. Answers use the API's error envelope.
 */
export const createInternalApp = (app: Ephemail, options: InternalAppOptions) => {
  const internal = express();
  internal.disable('x-powered-by');
  internal.use((req, res, next) => {
    res.locals.requestId = `req_${sharedRandomPool.bytes(18).toString('base64url')}`;
    res.setHeader('X-Request-Id', res.locals.requestId as string);
    res.setHeader('Cache-Control', 'no-store, max-age=0');
    res.setHeader('Pragma', 'no-cache');
    if (!bearerMatches(req, options.serviceTokenHash)) return sendError(req, res, { status: 401, code: 'unauthorized', message: 'Missing or invalid service credential.' });
    next();
  });
  internal.use(express.json({ limit: '16kb' }));
  const redeem =
    <S extends z.ZodType>(schema: S, run: (body: z.infer<S>) => Promise<Either<DomainError, unknown>>) =>
    async (req: Request, res: Response) => {
      const parsed = schema.safeParse(req.body ?? {});
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => ({ path: ['body', ...i.path.map(String)].join('.'), message: i.message }));
        return sendError(req, res, { status: 400, code: 'invalid_request', message: 'The request body is invalid.', details: { issues } });
      }
      const outcome = await run(parsed.data);
      if (outcome._tag === 'Left') return sendError(req, res, toHttpError(outcome.left));
      sendJson(res, 200, outcome.right);
    };
  internal.post('/v1/billing/redeem-checkout', redeem(RedeemCheckout, (body) => app.billing.redeemCheckout(body.checkout_redirect_token)));
  internal.post('/v1/billing/redeem-portal', redeem(RedeemPortal, (body) => app.billing.redeemPortal(body.portal_redirect_token)));
  internal.use((req, res) => sendError(req, res, { status: 404, code: 'route_not_found', message: 'No such internal route.' }));
  return internal;
};

/**
 * A payment provider's callback endpoint (`POST /v1/billing/callbacks/<provider>`): the raw body
 * is what the provider signed, so it is read as bytes, never re-serialised. 200 when handled (or
 * seen before, or of a type the service does not use); 400 when it does not verify; 409
 * `callback_in_progress` (retryable) while another delivery of the same callback is applying it.
 */
export const createCallbackHandler = (app: Ephemail) => {
  const router = express.Router();
  // Without a payment provider there is no one to take callbacks from.
  if (!app.billing.configured) return router;
  router.post(`/v1/billing/callbacks/${app.billing.providerName}`, express.raw({ type: () => true, limit: '1mb' }), async (req, res, next) => {
    try {
      res.locals.requestId ??= `req_${sharedRandomPool.bytes(18).toString('base64url')}`;
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const result = await app.billing.callback(body, req.headers);
      if (result.outcome === 'invalid') return sendError(req, res, { status: 400, code: 'invalid_signature', message: `The callback does not verify: ${result.reason}.` });
      if (result.outcome === 'deferred') {
        return sendError(req, res, { status: 503, code: 'dependency_unavailable', message: 'The subscription is not known yet; send the callback again.', retryable: true, headers: { 'Retry-After': '10' } });
      }
      if (result.outcome === 'in_progress') {
        return sendError(req, res, { status: 409, code: 'callback_in_progress', message: 'This callback is being applied by another delivery; send it again later.', retryable: true, headers: { 'Retry-After': '60' } });
      }
      sendJson(res, 200, { received: true, outcome: result.outcome });
    } catch (error) {
      next(error);
    }
  });
  return router;
};
