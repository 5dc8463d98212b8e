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

export const setHeaders = (res: Response, headers: Readonly<Record<string, string>>): void => {
  for (const name in headers) res.setHeader(name, headers[name]!);
};

/**
 * Sends `body` as JSON. Written straight to Node's response rather than through `res.json`, which
 * re-parses the content type for its charset and checks request freshness on every answer.
 */
export const sendJson = (res: Response, status: number, body: unknown): void => {
  const text = JSON.stringify(body) ?? '';
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
};

export const send = (res: Response, answer: Answer): void => {
  if (answer.headers !== undefined) setHeaders(res, answer.headers);
  if (answer.status === 204) {
    res.statusCode = 204;
    res.end();
  } else sendJson(res, answer.status, answer.body);
};

export const sendError = (req: Request, res: Response, error: HttpError): void => send(res, errorAnswer(req, res, error));
