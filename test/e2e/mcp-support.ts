import { join } from 'node:path';
import type { Readable } from 'node:stream';
import * as E from 'fp-ts/lib/Either.js';
import nodemailer from 'nodemailer';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RunningHost } from '@ephemail/host-api';
import { repoRoot, SOURCE_NODE_ARGS, spawnNode } from './support.js';

/** The `ephemail` CLI from source, as `npx ephemail` runs it once built. */
export const CLI = join(repoRoot, 'hosts/api/src/cli.ts');

export const ORG = 'org_mcp';
export const PROJECT = 'proj_mcp';

/** An API key of the host with these scopes. */
export const keyWith = async (host: RunningHost, scopes: string[]): Promise<string> => {
  const created = await host.ephemail.auth.createApiKey({ orgId: ORG, projectIds: [PROJECT], scopes });
  if (E.isLeft(created)) throw new Error(created.left._tag);
  return created.right.key;
};

/** The environment an MCP client's configuration gives the server. */
export const mcpEnv = (host: RunningHost, key: string): Record<string, string> => ({
  EPHEMAIL_URL: host.url,
  EPHEMAIL_API_KEY: key,
  EPHEMAIL_ORG_ID: ORG,
  EPHEMAIL_PROJECT_ID: PROJECT,
});

/** An MCP client and what it saw go wrong on the wire. */
export interface Connected {
  readonly client: Client;
  readonly transportErrors: Error[];
  /** The server's stderr so far (its diagnostics; stdout is the protocol's). */
  readonly stderr: () => string;
  close(): Promise<void>;
}

const newClient = () => new Client({ name: 'ephemail-e2e-agent', version: '1.0.0' });

/** Spawns `ephemail mcp` (stdio) from source and connects the SDK's client to it. */
export const connectStdio = async (env: Record<string, string>): Promise<Connected> => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...SOURCE_NODE_ARGS, CLI, 'mcp'],
    cwd: repoRoot,
    env: { ...getDefaultEnvironment(), ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  (transport.stderr as Readable).on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = newClient();
  const transportErrors: Error[] = [];
  client.onerror = (error) => transportErrors.push(error);
  await client.connect(transport);
  return { client, transportErrors, stderr: () => stderr, close: () => client.close() };
};

/** Spawns `ephemail mcp --http 0` from source, reads its address, and connects over Streamable HTTP. */
export const connectHttp = async (env: Record<string, string>, extraArgs: string[] = []): Promise<Connected & { url: string }> => {
  const server = spawnNode(CLI, ['mcp', '--http', '0', ...extraArgs], env);
  const client = newClient();
  const transportErrors: Error[] = [];
  client.onerror = (error) => transportErrors.push(error);
  let url: string;
  try {
    url = (await server.waitFor(/Streamable HTTP on (http:\/\/\S+)/))[1]!;
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  } catch (error) {
    server.child.kill('SIGTERM');
    await server.exited;
    throw error;
  }
  const close = async () => {
    await client.close();
    server.child.kill('SIGTERM');
    await server.exited;
  };
  return { client, url, transportErrors, stderr: () => server.output().stderr, close };
};

/** Calls a tool and answers its result, typed as the plain (non-task) result it is. */
export const call = async (client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

/** The text of a result's first content block. */
export const textOf = (result: CallToolResult): string => {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
};

/** Sends one mail over SMTP to the host's MX on loopback. */
export const sendMail = async (host: RunningHost, mail: { to: string; subject: string; text?: string; html?: string }): Promise<void> => {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: host.smtpPort, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({ from: 'Example App <no-reply@app.example.com>', ...mail });
  } finally {
    transport.close();
  }
};
