import { z } from 'zod';

/** What each variable is for, so a missing one is reported with how to fix it. */
const PURPOSE: Record<string, string> = {
  EPHEMAIL_URL: 'the base address of the ephemail API, e.g. http://127.0.0.1:3000',
  EPHEMAIL_API_KEY: 'an API key (aid_...) with identities:read and identities:write; `npx ephemail keys create` makes one',
  EPHEMAIL_ORG_ID: 'the organization the key belongs to, e.g. org_dev',
  EPHEMAIL_PROJECT_ID: 'the project to create inboxes in, e.g. proj_dev',
  EPHEMAIL_MCP_TOKEN: 'a shared secret (at least 16 characters) that Streamable HTTP callers send as a bearer token',
};

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' })
  .transform((value) => value.replace(/\/+$/, ''));

const ConfigSchema = z.object({
  EPHEMAIL_URL: httpUrl,
  EPHEMAIL_API_KEY: z.string().trim().min(1),
  EPHEMAIL_ORG_ID: z.string().trim().min(1).max(100),
  EPHEMAIL_PROJECT_ID: z.string().trim().min(1).max(100),
  EPHEMAIL_MCP_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
});

/** The MCP server's settings, read once from the environment. */
export interface McpConfig {
  /** Base address of the ephemail API, without a trailing slash. */
  readonly url: string;
  /** The API key the server calls the API with. Never logged. */
  readonly apiKey: string;
  /** Sent as `X-Org-Id`. */
  readonly orgId: string;
  /** Sent as `X-Project-Id`. */
  readonly projectId: string;
  /** When set, Streamable HTTP requests must carry `Authorization: Bearer <token>`. */
  readonly httpToken: string | undefined;
}

/** A configuration the server cannot start with; the message names each bad variable. */
export class McpConfigError extends Error {
  override readonly name = 'McpConfigError';
}

const describeIssue = (variable: string, received: unknown, message: string): string =>
  received === undefined
    ? `  ${variable} is missing: set it to ${PURPOSE[variable] ?? 'a value'}`
    : `  ${variable}: ${message}`;

/**
 * Validates the `EPHEMAIL_*` variables and answers the settings; throws {@link McpConfigError}
 * naming every missing or malformed variable. Values never appear in the message, so a key
 * pasted into the wrong variable is not echoed into a log.
 */
export const loadMcpConfig = (env: NodeJS.ProcessEnv = process.env): McpConfig => {
  const known = Object.fromEntries(
    Object.keys(ConfigSchema.shape).map((name) => [name, env[name] === '' ? undefined : env[name]]),
  );
  const parsed = ConfigSchema.safeParse(known);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const variable = String(issue.path[0] ?? '(environment)');
      return describeIssue(variable, known[variable], issue.message);
    });
    throw new McpConfigError(`ephemail mcp: invalid configuration\n${lines.join('\n')}`);
  }
  const data = parsed.data;
  return {
    url: data.EPHEMAIL_URL,
    apiKey: data.EPHEMAIL_API_KEY,
    orgId: data.EPHEMAIL_ORG_ID,
    projectId: data.EPHEMAIL_PROJECT_ID,
    httpToken: data.EPHEMAIL_MCP_TOKEN,
  };
};
