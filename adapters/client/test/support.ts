import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEphemailClient, type EphemailClientOptions } from '../src/index.js';

/** A request as the local server received it. */
export interface Seen {
  readonly method: string;
  readonly url: URL;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly at: number;
}

/** Answers the n-th request (0-based); may answer nothing and destroy the socket instead. */
export type Handler = (seen: Seen, n: number, res: ServerResponse) => void | Promise<void>;

export const KEY = 'aid_TESTTESTTESTTEST_0123456789012345678901234567890123456789';

/** A tiny HTTP server on 127.0.0.1 standing in for the API, recording every request. */
export const startServer = async (handler: Handler) => {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', url: new URL(req.url ?? '/', 'http://127.0.0.1'), headers: req.headers, body, at: Date.now() };
      seen.push(request);
      void handler(request, seen.length - 1, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  const client = (options: Partial<EphemailClientOptions> = {}) =>
    createEphemailClient({ baseUrl: base, apiKey: KEY, orgId: 'org_t', projectId: 'proj_t', ...options });
  return { base, seen, close, client };
};

/** Sends a JSON answer with the headers given. */
export const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
};

/** An error envelope as the API writes it (docs/api.md, "Errors"). */
export const envelope = (code: string, requestId: string, details: Record<string, unknown> = {}, retryable = false) => ({
  error: { code, message: `message of ${code}`, details: { requestId, ...details } },
  requestId,
  timestamp: '2026-03-01T12:00:00.000Z',
  path: '/v1/x',
  retryable,
});

export const identity = (id = 'ident_one') => ({
  id,
  email: 'abc@inbox.test',
  label: 'ephemail client',
  status: 'provisioned',
  created_at: '2026-03-01T12:00:00.000Z',
  expires_at: '2026-03-02T12:00:00.000Z',
  metadata: {},
  parent_id: null,
});

export const extraction = (id: string, type: 'otp' | 'magic_link', value?: string) => ({
  id,
  identity_id: 'ident_one',
  message_id: 'msg_1',
  source_event_id: 'evt_1',
  extracted_at: '2026-03-01T12:00:01.000Z',
  type,
  has_secret: true,
  redacted_value: type === 'otp' ? '1•••6' : 'https://app.example.com/•••',
  ...(value === undefined ? {} : { value }),
  link_kind: type === 'otp' ? null : 'sign_in',
  confidence: 0.95,
  candidates: [],
});
