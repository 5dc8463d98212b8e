import type { Request, Response } from 'express';
import type { HttpError } from './errors.js';

/** Headers for every answer that may carry a secret: never cached anywhere. */
export const NO_STORE = { 'Cache-Control': 'no-store, max-age=0', Pragma: 'no-cache' } as const;

/** An answer ready to send (and to store for idempotent replay). */
export interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The request id of this exchange (set by the request-context middleware). */
export const requestIdOf = (res: Response): string => String(res.locals.requestId ?? '');

/**
 * The envelope every error uses:
 * `{error:{code,message,details:{requestId,...}},requestId,timestamp,path,retryable}`.
 */
export const errorAnswer = (req: Request, res: Response, error: HttpError): Answer => {
  const requestId = requestIdOf(res);
  return {
    status: error.status,
    headers: error.headers,
    body: {
      error: { code: error.code, message: error.message, details: { requestId, ...error.details } },
      requestId,
      timestamp: new Date().toISOString(),
      path: req.path,
      retryable: error.retryable ?? false,
    },
  };
};

export const send = (res: Response, answer: Answer): void => {
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  if (answer.status === 204) res.status(204).end();
  else res.status(answer.status).json(answer.body);
};

export const sendError = (req: Request, res: Response, error: HttpError): void => send(res, errorAnswer(req, res, error));
