import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { refuseRequest, type GuardOptions } from './http-guard.js';

/** The path the Streamable HTTP endpoint answers on. */
export const MCP_PATH = '/mcp';

/** Largest JSON-RPC request body read, in bytes; tool arguments are small. */
const MAX_BODY_BYTES = 1024 * 1024;

/** A running Streamable HTTP endpoint. */
export interface HttpEndpoint {
  /** The endpoint's address, e.g. `http://127.0.0.1:8787/mcp`. */
  readonly url: string;
  /** The port it listens on (useful when 0 was asked for). */
  readonly port: number;
  /** Stops listening and ends open connections, in-flight waits included. */
  close(): Promise<void>;
}

const answerJsonRpcError = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
};

/**
 * Serves one POST: a fresh server and transport per request (stateless mode), so nothing of a
 * conversation lives in this process and any number of these can sit behind a load balancer.
 */
const serveOne = async (makeServer: () => McpServer, req: IncomingMessage, res: ServerResponse): Promise<void> => {
  const server = makeServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, maxRequestBodySize: MAX_BODY_BYTES });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
};

const handler = (makeServer: () => McpServer, guard: GuardOptions) => (req: IncomingMessage, res: ServerResponse) => {
  const path = (req.url ?? '/').split('?')[0];
  if (path !== MCP_PATH) return answerJsonRpcError(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}`);
  const refusal = refuseRequest(req, guard);
  if (refusal !== undefined) {
    const challenge: Record<string, string> = refusal.status === 401 ? { 'www-authenticate': 'Bearer' } : {};
    return answerJsonRpcError(res, refusal.status, refusal.message, challenge);
  }
  // Stateless: no standalone SSE stream (GET) and no session to end (DELETE).
  if (req.method !== 'POST') return answerJsonRpcError(res, 405, 'Method not allowed: POST JSON-RPC messages', { allow: 'POST' });
  serveOne(makeServer, req, res).catch(() => {
    if (!res.headersSent) answerJsonRpcError(res, 500, 'Internal server error');
    else res.end();
  });
};

/**
 * Listens for MCP over Streamable HTTP on `host:port` at {@link MCP_PATH}, building a server per
 * request with `makeServer`. Port 0 picks a free port.
 */
export const serveHttp = async (makeServer: () => McpServer, options: GuardOptions & { readonly port: number }): Promise<HttpEndpoint> => {
  const http: Server = createServer(handler(makeServer, options));
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const { port } = http.address() as AddressInfo;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  const close = () =>
    new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
  return { url: `http://${shownHost}:${port}${MCP_PATH}`, port, close };
};
