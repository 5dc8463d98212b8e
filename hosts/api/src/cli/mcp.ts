import { DEFAULT_HTTP_HOST, loadMcpConfig, McpConfigError, startMcpServer, type McpTransportOptions } from '@ephemail/mcp';
import { Command } from 'commander';
import type { CliIo } from './io.js';

interface McpOptions {
  readonly http?: string;
  readonly host?: string;
}

/** The transport the options ask for, or a message saying what is wrong with them. */
const transportOf = (options: McpOptions): McpTransportOptions | string => {
  if (options.http === undefined) {
    return options.host === undefined ? { kind: 'stdio' } : '--host needs --http <port>';
  }
  const port = Number(options.http);
  if (!/^\d+$/.test(options.http) || port > 65_535) return '--http takes a port number from 0 to 65535';
  return { kind: 'http', port, host: options.host ?? DEFAULT_HTTP_HOST };
};

/** Runs the server until it closes: stdin ends (stdio), or SIGINT/SIGTERM arrives. */
const serveUntilStopped = async (io: CliIo, transport: McpTransportOptions): Promise<void> => {
  const running = await startMcpServer(loadMcpConfig(), transport);
  // stdout belongs to the protocol on stdio, so every notice goes to stderr.
  if (running.url !== undefined) io.stderr.write(`ephemail mcp: Streamable HTTP on ${running.url}\n`);
  const stop = () => void running.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await running.closed;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
};

/**
 * `ephemail mcp [--http <port> [--host <address>]]`: the MCP server for agents, on stdio or on
 * Streamable HTTP at /mcp, calling the API named by EPHEMAIL_URL with EPHEMAIL_API_KEY.
 */
export const mcpCommand = (io: CliIo, setExit: (code: number) => void): Command =>
  new Command('mcp')
    .description('serve ephemail inboxes as MCP tools to an agent (stdio, or Streamable HTTP with --http)')
    .option('--http <port>', 'serve Streamable HTTP on this port (path /mcp) instead of stdio')
    .option('--host <address>', `address to listen on with --http (default ${DEFAULT_HTTP_HOST}; others need EPHEMAIL_MCP_TOKEN)`)
    .addHelpText('after', '\nEnvironment: EPHEMAIL_URL, EPHEMAIL_API_KEY, EPHEMAIL_ORG_ID, EPHEMAIL_PROJECT_ID (required); EPHEMAIL_MCP_TOKEN (optional, HTTP).\n')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .action(async (options: McpOptions) => {
      const transport = transportOf(options);
      if (typeof transport === 'string') {
        io.stderr.write(`ephemail mcp: ${transport}\n`);
        return setExit(2);
      }
      try {
        await serveUntilStopped(io, transport);
      } catch (error) {
        io.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
        setExit(error instanceof McpConfigError ? 2 : 1);
      }
    });
