import type { Ephemail, Principal } from '@ephemail/core';
import { fingerprint, MAX_IDEMPOTENCY_KEY_LENGTH } from '@ephemail/core';
import type { Request, Response } from 'express';
import type { HttpError } from '../errors.js';

/** The key under which a stored answer keeps bytes (base64) instead of JSON. */
export const BYTES = '__ephemail_bytes_base64';

export type IdempotencyOutcome =
  | { readonly kind: 'proceed'; readonly finish: (status: number, body: unknown) => Promise<void> }
  | { readonly kind: 'answered' };

const missingKey: HttpError = {
  status: 400,
  code: 'missing_idempotency_key',
  message: 'Mutations require an Idempotency-Key header.',
};

/** Reads and checks the header; answers the error to send, or the key. */
export const readIdempotencyKey = (req: Request): { key: string } | { error: HttpError } => {
  const key = req.get('Idempotency-Key');
  if (key === undefined || key.length === 0) return { error: missingKey };
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    return {
      error: {
        status: 400,
        code: 'invalid_request',
        message: `Idempotency-Key is longer than ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`,
        details: { issues: [{ path: 'headers.Idempotency-Key', message: 'too long' }] },
      },
    };
  }
  return { key };
};

/**
 * Claims the key for this tenant and concrete route. A replay answers the stored status and body
 * with `Idempotent-Replayed: true`, to the credential that made the request only; reuse with
 * another body, or by another credential, answers 422; a claim in flight 409.
 * On `proceed`, `finish` stores the answer (below 500) or gives the key back (500 and up, so the
 * client's retry runs again).
 */
export const claimIdempotency = async (
  app: Ephemail,
  principal: Principal,
  req: Request,
  res: Response,
  key: string,
  sendError: (error: HttpError) => void,
): Promise<IdempotencyOutcome> => {
  const scope = {
    orgId: principal.orgId,
    projectId: principal.projectId,
    route: `${req.method} ${req.path}`,
    credential: `${principal.credential.kind}:${principal.credential.id}`,
  };
  // No body and an empty object are the same request.
  const claim = await app.idempotency.claim(scope, key, fingerprint(req.body ?? {}));
  switch (claim.kind) {
    case 'replay': {
      res.setHeader('Idempotent-Replayed', 'true');
      const stored = claim.response.body as Record<string, unknown> | null;
      if (stored !== null && typeof stored === 'object' && typeof stored[BYTES] === 'string') {
        res.status(claim.response.status).type(String(stored.contentType)).send(Buffer.from(stored[BYTES], 'base64'));
      } else res.status(claim.response.status).json(claim.response.body);
      return { kind: 'answered' };
    }
    case 'reused':
      sendError({ status: 422, code: 'idempotency_key_reused', message: 'The Idempotency-Key was used with a different request body.' });
      return { kind: 'answered' };
    case 'other_credential':
      // The same code as a body mismatch: either way this key cannot be used by this request.
      sendError({ status: 422, code: 'idempotency_key_reused', message: 'The Idempotency-Key was used by another credential.' });
      return { kind: 'answered' };
    case 'in_progress':
      sendError({
        status: 409,
        code: 'idempotency_in_progress',
        message: 'A request with this Idempotency-Key is still in progress.',
        retryable: true,
        headers: { 'Retry-After': '1' },
      });
      return { kind: 'answered' };
    case 'proceed':
      return {
        kind: 'proceed',
        finish: async (status, body) => {
          if (status >= 500) await app.idempotency.release(claim);
          else await app.idempotency.complete(claim, { status, body });
        },
      };
  }
};
