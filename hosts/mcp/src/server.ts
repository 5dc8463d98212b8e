import { createRequire } from 'node:module';
import { createEphemailClient, type EphemailClient } from '@ephemail/client';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpConfig } from './config.js';
import { registerInboxTools } from './inbox-tools.js';
import { registerReadMessageTool } from './read-message-tool.js';
import { registerWaitTools } from './wait-tools.js';

// src/ and dist/ both sit one level below the package root.
const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

const INSTRUCTIONS = [
  'ephemail gives you disposable email inboxes. A typical flow:',
  '1. create_inbox, and give the returned email address to the site or app you are working with;',
  '2. ask that site to send its code or link, then call wait_for_code or wait_for_link with the inbox id (it blocks until the mail arrives);',
  '3. read_latest_message when you need the whole email; 4. delete_inbox when you are done.',
  'Inbox ids start with "ident_". Durations are in hours (ttl_hours, hours) or seconds (timeout_seconds).',
].join('\n');

/** What {@link createEphemailMcpServer} needs beyond the configuration. */
export interface EphemailMcpServerOptions {
  /** The API client to call; by default one built from the configuration. */
  readonly client?: EphemailClient;
  /** The `fetch` the default client uses (tests, proxies). */
  readonly fetch?: typeof fetch;
}

/**
 * An MCP server offering ephemail's inbox tools (create_inbox, list_inboxes, wait_for_code,
 * wait_for_link, read_latest_message, extend_inbox, delete_inbox), not yet connected to a
 * transport. It keeps no state of its own beyond the client, so one may be made per connection
 * (or per request) freely.
 */
export const createEphemailMcpServer = (config: McpConfig, options: EphemailMcpServerOptions = {}): McpServer => {
  const client =
    options.client ??
    createEphemailClient({
      baseUrl: config.url,
      apiKey: config.apiKey,
      orgId: config.orgId,
      projectId: config.projectId,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
  const server = new McpServer({ name: 'ephemail', title: 'ephemail disposable inboxes', version }, { instructions: INSTRUCTIONS });
  const deps = { client, apiKey: config.apiKey, url: config.url };
  registerInboxTools(server, deps);
  registerWaitTools(server, deps);
  registerReadMessageTool(server, deps);
  return server;
};
