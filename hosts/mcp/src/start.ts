import type { Readable, Writable } from 'node:stream';
import { createEphemailClient } from '@ephemail/client';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpConfig } from './config.js';
import { isLoopback } from './http-guard.js';
import { serveHttp } from './http.js';
import { createEphemailMcpServer } from './server.js';

/** Which transport {@link startMcpServer} speaks. */
export type McpTransportOptions =
  | { readonly kind: 'stdio'; readonly stdin?: Readable; readonly stdout?: Writable }
  | { readonly kind: 'http'; readonly port: number; readonly host?: string };

/** A started MCP server. */
export interface RunningMcpServer {
  /** The Streamable HTTP endpoint's address; undefined on stdio. */
  readonly url: string | undefined;
  /** Settles when the server has stopped: `close()` was called, or stdin ended (stdio). */
  readonly closed: Promise<void>;
  /** Stops the server. */
  close(): Promise<void>;
}

/** The default HTTP bind address: this machine only. */
export const DEFAULT_HTTP_HOST = '127.0.0.1';

const startStdio = async (config: McpConfig, stdin: Readable, stdout: Writable): Promise<RunningMcpServer> => {
  const server = createEphemailMcpServer(config);
  const transport = new StdioServerTransport(stdin, stdout);
  let stop!: () => void;
  const closed = new Promise<void>((resolve) => (stop = resolve));
  transport.onclose = () => stop();
  const close = async () => {
    await server.close();
    stop();
  };
  // The client closing its end of the pipe is how a stdio session ends.
  stdin.once('end', () => void close());
  await server.connect(transport);
  return { url: undefined, closed, close };
};

const startHttp = async (config: McpConfig, port: number, host: string): Promise<RunningMcpServer> => {
  if (!isLoopback(host) && config.httpToken === undefined) {
    throw new Error(
      `ephemail mcp: refusing to listen on ${host} without EPHEMAIL_MCP_TOKEN: anyone who reaches the port would act with the API key. ` +
        'Set EPHEMAIL_MCP_TOKEN, or listen on 127.0.0.1.',
    );
  }
  const client = createEphemailClient({ baseUrl: config.url, apiKey: config.apiKey, orgId: config.orgId, projectId: config.projectId });
  const endpoint = await serveHttp(() => createEphemailMcpServer(config, { client }), { port, host, token: config.httpToken });
  let stop!: () => void;
  const closed = new Promise<void>((resolve) => (stop = resolve));
  const close = async () => {
    await endpoint.close();
    stop();
  };
  return { url: endpoint.url, closed, close };
};

/**
 * Starts the ephemail MCP server on stdio (the process's own streams by default) or on
 * Streamable HTTP (`127.0.0.1` by default; another address needs `httpToken`). Nothing is
 * written to stdout but MCP messages, so the caller may log to stderr only.
 */
export const startMcpServer = async (config: McpConfig, transport: McpTransportOptions): Promise<RunningMcpServer> =>
  transport.kind === 'stdio'
    ? startStdio(config, transport.stdin ?? process.stdin, transport.stdout ?? process.stdout)
    : startHttp(config, transport.port, transport.host ?? DEFAULT_HTTP_HOST);
